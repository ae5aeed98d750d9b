package io.troupe.broker;

import java.time.Duration;

/**
 * A queue managed by CoDel (RFC 8289) on the sojourn time of its oldest request: once that has stayed at or
 * above {@code target} for {@code interval}, the oldest request is dropped, and then the oldest again at
 * shrinking intervals ({@code interval / sqrt(count)}) until the oldest's sojourn is below target or no more
 * than {@code min} requests are queued. It also has a maximum length as a {@link DropQueueSpec} does.
 * Immutable.
 *
 * <p>While dropping (a standing queue: the sojourn has stayed above target for an interval) the queue also
 * drops at once every request whose sojourn exceeds {@code sojournLimit}, oldest first. The control law
 * paces drops for clients that slow down when dropped; clients that do not (open-loop arrivals) would
 * otherwise grow the queue for minutes, since the law's drop rate grows only as {@code sqrt(count)}. The
 * limit applies only in the dropping state, so a burst may still wait up to an interval before CoDel acts,
 * and a limit above {@code target} keeps the standing queue, and with it the dropping state, alive until the
 * load falls below capacity. {@link #NO_SOJOURN_LIMIT} gives plain RFC 8289.
 *
 * <p>{@code interval} should be about the 95th to 99th percentile of the time a dropped client takes to
 * notice and queue a new request, and {@code target} 5% to 10% of it.
 *
 * @param target   the sojourn time the queue aims at, 0 or more; default {@link #DEFAULT_TARGET}.
 * @param interval how long the sojourn may stay above target before the first drop, and the initial spacing
 *                 of drops; more than 0; default {@link #DEFAULT_INTERVAL}.
 * @param sojournLimit the longest a request may wait while the queue is dropping, at least {@code target};
 *                 default twice the target; {@link #NO_SOJOURN_LIMIT} for none.
 * @param min      the length at or below which nothing is dropped by CoDel, from 0 to {@code max}.
 * @param max      the maximum length, 0 or more ({@link DropQueueSpec#UNBOUNDED} for no limit).
 * @param drop     which request a full queue drops: the oldest ({@link DropEnd#HEAD}) or the newcomer
 *                 ({@link DropEnd#TAIL}).
 * @param order    which request a match takes.
 */
public record CodelQueueSpec(
    Duration target, Duration interval, Duration sojournLimit, int min, int max, DropEnd drop, ServeOrder order)
    implements QueueSpec
{
    /** The default target sojourn: 100 ms, what a person perceives as instantaneous. */
    public static final Duration DEFAULT_TARGET = Duration.ofMillis(100);
    /** The default interval: 1000 ms, the response time that keeps a person engaged. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(1000);
    /** A sojourn limit that never applies: the queue is then plain RFC 8289 CoDel. */
    public static final Duration NO_SOJOURN_LIMIT = Duration.ofNanos(Long.MAX_VALUE);

    /**
     * Validates the arguments.
     *
     * @param target   the sojourn time the queue aims at, 0 or more and at most {@link Long#MAX_VALUE} ns.
     * @param interval the initial interval, more than 0 and at most {@link Long#MAX_VALUE} ns.
     * @param sojournLimit the longest a request may wait while dropping, from {@code target} to
     *                 {@link Long#MAX_VALUE} ns.
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
        SpecChecks.nanos("CodelQueueSpec", "sojournLimit", sojournLimit, true);
        if (sojournLimit.compareTo(target) < 0)
        {
            throw new IllegalArgumentException("CodelQueueSpec.sojournLimit must be at least target (" + target +
                "), was " + sojournLimit);
        }
        SpecChecks.minMax("CodelQueueSpec", min, max);
        SpecChecks.notNull("CodelQueueSpec", "drop", drop);
        SpecChecks.notNull("CodelQueueSpec", "order", order);
    }

    /**
     * A FIFO CoDel queue with target 100 ms, interval 1000 ms and sojourn limit 200 ms, no minimum and no
     * maximum length.
     *
     * @return the spec.
     */
    public static CodelQueueSpec defaults()
    {
        return of(DEFAULT_TARGET, DEFAULT_INTERVAL);
    }

    /**
     * A FIFO CoDel queue with a sojourn limit of twice the target, no minimum and no maximum length.
     *
     * @param target   the sojourn time the queue aims at.
     * @param interval the initial interval.
     * @return the spec.
     */
    public static CodelQueueSpec of(final Duration target, final Duration interval)
    {
        return new CodelQueueSpec(target, interval, twice(target), 0, DropQueueSpec.UNBOUNDED, DropEnd.TAIL,
            ServeOrder.FIFO);
    }

    /**
     * This spec with another sojourn limit.
     *
     * @param limit the longest a request may wait while dropping; {@link #NO_SOJOURN_LIMIT} for plain RFC 8289.
     * @return the new spec.
     */
    public CodelQueueSpec withSojournLimit(final Duration limit)
    {
        return new CodelQueueSpec(target, interval, limit, min, max, drop, order);
    }

    /** Twice a target, or no limit if that does not fit a long of nanoseconds (a null target is checked later). */
    private static Duration twice(final Duration target)
    {
        if (target == null)
        {
            return null;
        }
        return target.compareTo(NO_SOJOURN_LIMIT.dividedBy(2)) > 0 ? NO_SOJOURN_LIMIT : target.multipliedBy(2);
    }

    @Override
    public RequestQueue newQueue()
    {
        return new CodelQueue(this);
    }
}
