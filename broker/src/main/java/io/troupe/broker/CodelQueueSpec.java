package io.troupe.broker;

import java.time.Duration;

/**
 * A queue managed by CoDel (RFC 8289) on the sojourn time of its oldest request: once that has stayed at or
 * above {@code target} for {@code interval}, the oldest request is dropped, and then the oldest again at
 * shrinking intervals ({@code interval / sqrt(count)}) until the oldest's sojourn is below target or no more
 * than {@code min} requests are queued. It also has a maximum length as a {@link DropQueueSpec} does.
 * Immutable.
 *
 * <p>{@code interval} should be about the 95th to 99th percentile of the time a dropped client takes to
 * notice and queue a new request, and {@code target} 5% to 10% of it.
 *
 * @param target   the sojourn time the queue aims at, 0 or more; default {@link #DEFAULT_TARGET}.
 * @param interval how long the sojourn may stay above target before the first drop, and the initial spacing
 *                 of drops; more than 0; default {@link #DEFAULT_INTERVAL}.
 * @param min      the length at or below which nothing is dropped by CoDel, from 0 to {@code max}.
 * @param max      the maximum length, 0 or more ({@link DropQueueSpec#UNBOUNDED} for no limit).
 * @param drop     which request a full queue drops: the oldest ({@link DropEnd#HEAD}) or the newcomer
 *                 ({@link DropEnd#TAIL}).
 * @param order    which request a match takes.
 */
public record CodelQueueSpec(Duration target, Duration interval, int min, int max, DropEnd drop, ServeOrder order)
    implements QueueSpec
{
    /** The default target sojourn: 100 ms, what a person perceives as instantaneous. */
    public static final Duration DEFAULT_TARGET = Duration.ofMillis(100);
    /** The default interval: 1000 ms, the response time that keeps a person engaged. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(1000);

    /**
     * Validates the arguments.
     *
     * @param target   the sojourn time the queue aims at, 0 or more and at most {@link Long#MAX_VALUE} ns.
     * @param interval the initial interval, more than 0 and at most {@link Long#MAX_VALUE} ns.
     * @param min      the length at or below which nothing is dropped by CoDel, from 0 to {@code max}.
     * @param max      the maximum length, 0 or more.
     * @param drop     which request a full queue drops.
     * @param order    which request a match takes.
     * @throws IllegalArgumentException if an argument is out of range or null.
     */
    public CodelQueueSpec
    {
        SpecChecks.nanos("CodelQueueSpec", "target", target, true);
        SpecChecks.nanos("CodelQueueSpec", "interval", interval, false);
        SpecChecks.minMax("CodelQueueSpec", min, max);
        SpecChecks.notNull("CodelQueueSpec", "drop", drop);
        SpecChecks.notNull("CodelQueueSpec", "order", order);
    }

    /**
     * A FIFO CoDel queue with target 100 ms and interval 1000 ms, no minimum and no maximum length.
     *
     * @return the spec.
     */
    public static CodelQueueSpec defaults()
    {
        return of(DEFAULT_TARGET, DEFAULT_INTERVAL);
    }

    /**
     * A FIFO CoDel queue with no minimum and no maximum length.
     *
     * @param target   the sojourn time the queue aims at.
     * @param interval the initial interval.
     * @return the spec.
     */
    public static CodelQueueSpec of(final Duration target, final Duration interval)
    {
        return new CodelQueueSpec(target, interval, 0, DropQueueSpec.UNBOUNDED, DropEnd.TAIL, ServeOrder.FIFO);
    }

    @Override
    public RequestQueue newQueue()
    {
        return new CodelQueue(this);
    }
}
