package io.troupe.broker;

import java.time.Duration;

/**
 * A CoDel valve: between {@code min} and {@code max}, grows once the relative time has stayed below
 * {@code target} for {@code interval}, then faster ({@code interval / sqrt(count)}) while it stays there, and
 * shrinks the same way while it stays at or above. See {@link CodelValve}.
 *
 * @param target   the relative time below which the regulated workers' queue counts as too fast (clients
 *                 wait, or workers do not wait long enough). Any sign.
 * @param interval how long the relative time must stay on one side of {@code target} before the first step
 *                 (growth or shrink), and the base of the spacing of the next ones; positive.
 * @param min      the size the valve always allows and never shrinks below, at least 0.
 * @param max      the most slots held at once, at least {@code min} ({@link Integer#MAX_VALUE}: no limit).
 */
public record CodelValveSpec(Duration target, Duration interval, int min, int max) implements ValveSpec
{
    /**
     * Validates the configuration.
     *
     * @param target   the relative time below which the valve grows.
     * @param interval the initial interval of the control law.
     * @param min      the size always allowed.
     * @param max      the most slots held at once.
     * @throws IllegalArgumentException if a value is out of range (the message names it).
     */
    public CodelValveSpec
    {
        ValveChecks.duration("CodelValveSpec", "target", target, false);
        ValveChecks.duration("CodelValveSpec", "interval", interval, true);
        ValveChecks.minMax("CodelValveSpec", min, max);
    }

    @Override
    public Valve newValve(final int heldSlots)
    {
        return new CodelValve(this, heldSlots);
    }
}
