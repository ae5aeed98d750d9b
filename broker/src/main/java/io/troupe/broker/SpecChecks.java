package io.troupe.broker;

import java.time.Duration;

/**
 * Argument checks of the queue specs, with messages that name the spec and field, the bad value and what is
 * allowed.
 */
final class SpecChecks
{
    private SpecChecks()
    {
    }

    static <T> T notNull(final String spec, final String field, final T value)
    {
        if (value == null)
        {
            throw new IllegalArgumentException(spec + "." + field + " must not be null");
        }
        return value;
    }

    /**
     * The nanoseconds of a duration that must be 0 or more (or more than 0) and fit a long of nanoseconds.
     *
     * @param spec      the spec's name.
     * @param field     the field's name.
     * @param value     the duration.
     * @param allowZero whether 0 is allowed.
     * @return the nanoseconds.
     */
    static long nanos(final String spec, final String field, final Duration value, final boolean allowZero)
    {
        notNull(spec, field, value);
        final String allowed = (allowZero ? "0 or more" : "more than 0") + " and at most " + Long.MAX_VALUE + " ns";
        if (value.isNegative() || (!allowZero && value.isZero()))
        {
            throw new IllegalArgumentException(spec + "." + field + " must be " + allowed + ", was " + value);
        }
        try
        {
            return value.toNanos();
        }
        catch (final ArithmeticException ex)
        {
            throw new IllegalArgumentException(spec + "." + field + " must be " + allowed + ", was " + value, ex);
        }
    }

    static void minMax(final String spec, final int min, final int max)
    {
        if (max < 0)
        {
            throw new IllegalArgumentException(
                spec + ".max must be 0 or more (Integer.MAX_VALUE for no limit), was " + max);
        }
        if (min < 0 || min > max)
        {
            throw new IllegalArgumentException(spec + ".min must be from 0 to max (" + max + "), was " + min);
        }
    }
}
