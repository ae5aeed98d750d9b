package io.troupe.broker;

import java.time.Duration;

/**
 * A relative valve: always at least {@code min} slots, and one more (up to {@code max}) for each update whose
 * relative time is below {@code target}. See {@link RelativeValve}.
 *
 * @param target the relative time below which the regulated workers' queue counts as too fast (clients
 *               wait, or workers do not wait long enough): the valve grows. Any sign: a positive target
 *               grows before clients have to wait, a negative one only once they wait that long.
 * @param min    the size the valve always allows, at least 0.
 * @param max    the most slots held at once, at least {@code min} ({@link Integer#MAX_VALUE}: no limit).
 */
public record RelativeValveSpec(Duration target, int min, int max) implements ValveSpec
{
    /**
     * Validates the configuration.
     *
     * @param target the relative time below which the valve grows.
     * @param min    the size always allowed.
     * @param max    the most slots held at once.
     * @throws IllegalArgumentException if a value is out of range (the message names it).
     */
    public RelativeValveSpec
    {
        ValveChecks.duration("RelativeValveSpec", "target", target, false);
        ValveChecks.minMax("RelativeValveSpec", min, max);
    }

    @Override
    public Valve newValve(final int heldSlots)
    {
        return new RelativeValve(this, heldSlots);
    }
}
