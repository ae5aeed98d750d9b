package io.troupe.broker;

import java.time.Duration;

/**
 * A queue that drops requests once their sojourn time exceeds a timeout, oldest first, but never below a
 * minimum length, and also has a maximum length as a {@link DropQueueSpec} does. Immutable.
 *
 * @param timeout how long a request may wait: it is dropped once its sojourn is strictly greater; 0 or more.
 * @param min     the length below which nothing times out, from 0 to {@code max}.
 * @param max     the maximum length, 0 or more ({@link DropQueueSpec#UNBOUNDED} for no limit).
 * @param drop    which request a full queue drops: the oldest ({@link DropEnd#HEAD}) or the newcomer
 *                ({@link DropEnd#TAIL}).
 * @param order   which request a match takes.
 */
public record TimeoutQueueSpec(Duration timeout, int min, int max, DropEnd drop, ServeOrder order)
    implements QueueSpec
{
    /**
     * Validates the arguments.
     *
     * @param timeout how long a request may wait, 0 or more and at most {@link Long#MAX_VALUE} ns.
     * @param min     the length below which nothing times out, from 0 to {@code max}.
     * @param max     the maximum length, 0 or more.
     * @param drop    which request a full queue drops.
     * @param order   which request a match takes.
     * @throws IllegalArgumentException if an argument is out of range or null.
     */
    public TimeoutQueueSpec
    {
        SpecChecks.nanos("TimeoutQueueSpec", "timeout", timeout, true);
        SpecChecks.minMax("TimeoutQueueSpec", min, max);
        SpecChecks.notNull("TimeoutQueueSpec", "drop", drop);
        SpecChecks.notNull("TimeoutQueueSpec", "order", order);
    }

    /**
     * A FIFO queue with a timeout and no minimum or maximum length.
     *
     * @param timeout how long a request may wait.
     * @return the spec.
     */
    public static TimeoutQueueSpec of(final Duration timeout)
    {
        return new TimeoutQueueSpec(timeout, 0, DropQueueSpec.UNBOUNDED, DropEnd.TAIL, ServeOrder.FIFO);
    }

    @Override
    public RequestQueue newQueue()
    {
        return new TimeoutQueue(this);
    }
}
