package io.troupe.broker;

import java.time.Duration;

/**
 * A rate valve: at most {@code limit} opens in any window of {@code interval}, and at most {@code max} slots
 * held at once; updates are ignored. See {@link RateValve}.
 *
 * @param limit    the most opens in any window of {@code interval}, 1..{@link #MAX_LIMIT} (the valve
 *                 remembers the times of the last {@code limit} opens).
 * @param interval the length of the sliding window, positive.
 * @param max      the most slots held at once, at least 0 ({@link Integer#MAX_VALUE}: no limit).
 */
public record RateValveSpec(int limit, Duration interval, int max) implements ValveSpec
{
    /** The largest {@code limit}: the valve keeps one {@code long} per open it remembers (8 MiB at most). */
    public static final int MAX_LIMIT = 1 << 20;

    /**
     * Validates the configuration.
     *
     * @param limit    the most opens in any window.
     * @param interval the length of the window.
     * @param max      the most slots held at once.
     * @throws IllegalArgumentException if a value is out of range (the message names it).
     */
    public RateValveSpec
    {
        ValveChecks.range("RateValveSpec", "limit", limit, 1, MAX_LIMIT);
        ValveChecks.duration("RateValveSpec", "interval", interval, true);
        ValveChecks.range("RateValveSpec", "max", max, 0, Integer.MAX_VALUE);
    }

    @Override
    public Valve newValve(final int heldSlots)
    {
        return new RateValve(this, heldSlots);
    }
}
