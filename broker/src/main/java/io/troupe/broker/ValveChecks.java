package io.troupe.broker;

import java.time.Duration;

/** Argument checks and the CoDel control law shared by the valves and their specs. */
final class ValveChecks
{
    private static final Duration MOST_NANOS = Duration.ofNanos(Long.MAX_VALUE);
    private static final Duration LEAST_NANOS = Duration.ofNanos(Long.MIN_VALUE);

    private ValveChecks()
    {
    }

    /**
     * Checks an integer setting against an inclusive range.
     *
     * @param spec  the spec's name, for the message.
     * @param field the setting's name.
     * @param value its value.
     * @param least the least allowed.
     * @param most  the most allowed.
     */
    static void range(final String spec, final String field, final int value, final int least, final int most)
    {
        if (value < least || value > most)
        {
            final String allowed = most == Integer.MAX_VALUE ? "at least " + least : least + ".." + most;
            throw new IllegalArgumentException(spec + ": " + field + " = " + value + " must be " + allowed);
        }
    }

    /**
     * Checks {@code min} and {@code max} of a valve that grows between them.
     *
     * @param spec the spec's name, for the message.
     * @param min  the minimum size.
     * @param max  the maximum size.
     */
    static void minMax(final String spec, final int min, final int max)
    {
        range(spec, "min", min, 0, Integer.MAX_VALUE);
        if (max < min)
        {
            throw new IllegalArgumentException(
                spec + ": max = " + max + " must be at least min = " + min);
        }
    }

    /**
     * Checks a duration setting: present, representable in nanoseconds, and positive if asked.
     *
     * @param spec     the spec's name, for the message.
     * @param field    the setting's name.
     * @param value    its value.
     * @param positive true if it must be more than zero.
     */
    static void duration(final String spec, final String field, final Duration value, final boolean positive)
    {
        if (value == null)
        {
            throw new IllegalArgumentException(spec + ": " + field + " = null must be a duration");
        }
        if (value.compareTo(MOST_NANOS) > 0 || value.compareTo(LEAST_NANOS) < 0)
        {
            throw new IllegalArgumentException(
                spec + ": " + field + " = " + value + " must fit in a long of nanoseconds (about +/-292 years)");
        }
        if (positive && (value.isZero() || value.isNegative()))
        {
            throw new IllegalArgumentException(spec + ": " + field + " = " + value + " must be positive");
        }
    }

    /**
     * Checks the slots a new valve starts with.
     *
     * @param heldSlots slots already held.
     * @return {@code heldSlots}.
     */
    static int heldSlots(final int heldSlots)
    {
        if (heldSlots < 0)
        {
            throw new IllegalArgumentException("heldSlots = " + heldSlots + " must be at least 0");
        }
        return heldSlots;
    }

    /**
     * CoDel's control law: the spacing after the {@code count}-th step of an episode.
     *
     * @param intervalNs the interval.
     * @param count      steps so far in the episode, at least 1.
     * @return {@code intervalNs / sqrt(count)}, at least 1.
     */
    static long controlLawNs(final long intervalNs, final int count)
    {
        return Math.max(1L, (long)(intervalNs / Math.sqrt(count)));
    }
}
