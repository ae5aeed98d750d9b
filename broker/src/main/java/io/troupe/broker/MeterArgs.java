package io.troupe.broker;

import java.time.Duration;

/**
 * Checks of meter spec arguments, with messages that name the spec, the field, the bad value and what is
 * allowed.
 */
final class MeterArgs
{
    /**
     * The longest duration a spec accepts: far beyond any sensible setting, and short enough that
     * {@code nowNs + 2 * duration} cannot overflow a monotonic clock.
     */
    static final Duration MAX_DURATION = Duration.ofDays(3650);

    private MeterArgs()
    {
    }

    /**
     * A duration in nanoseconds, checked.
     *
     * @param spec      the spec's simple name.
     * @param field     the field's name.
     * @param value     the duration.
     * @param allowZero whether zero is allowed (else the duration must be positive).
     * @return nanoseconds.
     * @throws IllegalArgumentException if the duration is null, negative, zero when not allowed, or longer
     *                                  than {@link #MAX_DURATION}.
     */
    static long nanos(final String spec, final String field, final Duration value, final boolean allowZero)
    {
        final String allowed = (allowZero ? "at least 0" : "positive") + " and at most " +
            MAX_DURATION.toDays() + " days";
        if (value == null)
        {
            throw new IllegalArgumentException(spec + "." + field + " must be a duration " + allowed + ", was null");
        }
        if (value.isNegative() || (!allowZero && value.isZero()) || value.compareTo(MAX_DURATION) > 0)
        {
            throw new IllegalArgumentException(spec + "." + field + " must be " + allowed + ", was " + value);
        }
        return value.toNanos();
    }

    /**
     * Checks that a reference is present.
     *
     * @param spec  the spec's simple name.
     * @param field the field's name.
     * @param value the value.
     * @param what  what the field must be, for the message (e.g. "an actor id").
     * @param <T>   the value's type.
     * @return the value.
     * @throws IllegalArgumentException if the value is null.
     */
    static <T> T present(final String spec, final String field, final T value, final String what)
    {
        if (value == null)
        {
            throw new IllegalArgumentException(spec + "." + field + " must be " + what + ", was null");
        }
        return value;
    }
}
