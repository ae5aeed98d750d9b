package io.troupe.broker;

/**
 * A queue with a maximum length and no time-based drops: when full it drops the oldest request or the
 * newcomer, and serves the oldest (FIFO) or the newest (LIFO). Immutable.
 *
 * @param max   the maximum length, 0 or more ({@link #UNBOUNDED} for no limit); 0 drops every request at once.
 * @param drop  which request a full queue drops: the oldest ({@link DropEnd#HEAD}) or the newcomer
 *              ({@link DropEnd#TAIL}).
 * @param order which request a match takes.
 */
public record DropQueueSpec(int max, DropEnd drop, ServeOrder order) implements QueueSpec
{
    /** The maximum length that means no limit. */
    public static final int UNBOUNDED = Integer.MAX_VALUE;

    /**
     * Validates the arguments.
     *
     * @param max   the maximum length, 0 or more.
     * @param drop  which request a full queue drops.
     * @param order which request a match takes.
     * @throws IllegalArgumentException if {@code max} is negative or an argument is null.
     */
    public DropQueueSpec
    {
        SpecChecks.minMax("DropQueueSpec", 0, max);
        SpecChecks.notNull("DropQueueSpec", "drop", drop);
        SpecChecks.notNull("DropQueueSpec", "order", order);
    }

    /**
     * A FIFO queue that refuses newcomers when full (tail drop): the classic bounded queue.
     *
     * @param max the maximum length, 0 or more.
     * @return the spec.
     */
    public static DropQueueSpec fifo(final int max)
    {
        return new DropQueueSpec(max, DropEnd.TAIL, ServeOrder.FIFO);
    }

    /**
     * A LIFO queue that drops its oldest request when full (head drop): the newest requests, the most likely
     * to still be wanted, are kept and served first.
     *
     * @param max the maximum length, 0 or more.
     * @return the spec.
     */
    public static DropQueueSpec lifo(final int max)
    {
        return new DropQueueSpec(max, DropEnd.HEAD, ServeOrder.LIFO);
    }

    /**
     * A FIFO queue without a length limit and so without drops.
     *
     * @return the spec.
     */
    public static DropQueueSpec unbounded()
    {
        return new DropQueueSpec(UNBOUNDED, DropEnd.TAIL, ServeOrder.FIFO);
    }

    @Override
    public RequestQueue newQueue()
    {
        return new DropQueue(this);
    }
}
