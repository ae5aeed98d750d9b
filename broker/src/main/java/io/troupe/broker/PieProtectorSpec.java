package io.troupe.broker;

import java.time.Duration;

/**
 * The configuration of a {@link PieProtector}: the basic PIE algorithm of RFC 8033 run on each of a broker's
 * queues, publishing per side the probability with which clients short-circuit a request before it reaches
 * the broker (see {@link Protection}). When no counterparty matches, the queue's sojourn grows and the
 * probability reaches 1 within a few intervals: the protector then acts as a circuit breaker.
 *
 * <p>PIE does not combine well with a LIFO queue or a fair queue: both make the oldest request's wait a poor
 * measure of how long a new request waits.
 *
 * <p>Immutable and thread-safe; each {@link #newMeter} starts a fresh meter (probabilities 0) on the same
 * protection.
 *
 * @param target     the queue delay PIE steers each queue towards; positive. Default {@link #DEFAULT_TARGET}.
 * @param interval   PIE's update period ({@code T_UPDATE}): the probabilities are recomputed once per
 *                   interval; positive. Default {@link #DEFAULT_INTERVAL}.
 * @param min        a queue length: while a queue is shorter, its requests are never short-circuited;
 *                   at least 0. Default {@link #DEFAULT_MIN}.
 * @param max        a queue length: while a queue is at least this long, its requests are always
 *                   short-circuited; greater than {@code min}, {@link Integer#MAX_VALUE} for no maximum.
 *                   Default {@link #DEFAULT_MAX}.
 * @param protection where the probabilities are published for clients; created by the caller.
 */
public record PieProtectorSpec(Duration target, Duration interval, int min, int max, Protection protection)
    implements MeterSpec
{
    /** Default target: 100 ms, a response time users perceive as instantaneous. */
    public static final Duration DEFAULT_TARGET = Duration.ofMillis(100);
    /**
     * Default update period: 30 ms, about a third of the default target, so that a sojourn growing without
     * matches is seen a few times before it passes the target (RFC 8033 uses 15 ms for a 15 ms target).
     */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(30);
    /** Default minimum length: 0, PIE decides from the first queued request. */
    public static final int DEFAULT_MIN = 0;
    /** Default maximum length: none. */
    public static final int DEFAULT_MAX = Integer.MAX_VALUE;
    /**
     * PIE's {@code alpha}: the weight of the distance to the target, per interval, with delays measured in
     * targets. This is RFC 8033's 0.125 with its seconds replaced by targets: at a 100 ms target the steps are
     * ten times RFC 8033's. A broker's clients feel a short-circuit at once rather than a round trip later, and
     * the breaker must trip within a few intervals of a queue that stops moving (about five at the defaults).
     */
    public static final double ALPHA = 0.125;
    /**
     * PIE's {@code beta}: the weight of the delay's change since the last interval, with delays measured in
     * targets (RFC 8033's 1.25, as for {@link #ALPHA}). With it the probability falls from 1 to 0 within 9
     * intervals of the queue emptying, within one when it drains from twice the target or more, so clients are
     * let through again soon after the counterparties are back.
     */
    public static final double BETA = 1.25;

    /**
     * Checks the configuration.
     *
     * @param target     the target queue delay, positive.
     * @param interval   the update period, positive.
     * @param min        the length below which nothing is short-circuited, at least 0.
     * @param max        the length from which everything is short-circuited, greater than {@code min}.
     * @param protection where the probabilities are published, not null.
     * @throws IllegalArgumentException naming the field, its value and what is allowed.
     */
    public PieProtectorSpec
    {
        MeterArgs.nanos("PieProtectorSpec", "target", target, false);
        MeterArgs.nanos("PieProtectorSpec", "interval", interval, false);
        if (min < 0)
        {
            throw new IllegalArgumentException("PieProtectorSpec.min must be a queue length of at least 0, was " + min);
        }
        if (max <= min)
        {
            throw new IllegalArgumentException("PieProtectorSpec.max must be a queue length greater than min (" + min +
                "), Integer.MAX_VALUE for no maximum, was " + max);
        }
        MeterArgs.present("PieProtectorSpec", "protection", protection, "a Protection");
    }

    /**
     * A spec with the default target, interval, minimum and maximum.
     *
     * @param protection where the probabilities are published.
     * @return the spec.
     * @throws IllegalArgumentException if the protection is null.
     */
    public static PieProtectorSpec of(final Protection protection)
    {
        return new PieProtectorSpec(DEFAULT_TARGET, DEFAULT_INTERVAL, DEFAULT_MIN, DEFAULT_MAX, protection);
    }

    /**
     * A new meter with both probabilities 0, published at once; its first PIE update is one interval later.
     *
     * @param nowNs the broker's clock when it starts.
     * @return the meter.
     */
    @Override
    public Meter newMeter(final long nowNs)
    {
        return new PieProtector(target.toNanos(), interval.toNanos(), min, max, protection, nowNs);
    }
}
