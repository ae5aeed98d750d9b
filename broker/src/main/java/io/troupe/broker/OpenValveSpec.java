package io.troupe.broker;

/**
 * An open valve: requests proceed while fewer than {@code max} slots are held; updates are ignored. See
 * {@link OpenValve}.
 *
 * @param max the most slots held at once, at least 0 ({@link Integer#MAX_VALUE}: no limit; 0 lets nothing
 *            proceed and stops every holder that asks to continue).
 */
public record OpenValveSpec(int max) implements ValveSpec
{
    /**
     * Validates the configuration.
     *
     * @param max the most slots held at once.
     * @throws IllegalArgumentException if {@code max} is negative.
     */
    public OpenValveSpec
    {
        ValveChecks.range("OpenValveSpec", "max", max, 0, Integer.MAX_VALUE);
    }

    @Override
    public Valve newValve(final int heldSlots)
    {
        return new OpenValve(this, heldSlots);
    }
}
