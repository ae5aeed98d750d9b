package io.troupe.broker;

/**
 * The policy of a {@link DropQueueSpec}: drops only to stay within its maximum length, when a request
 * arrives. Single-threaded, owned by its broker.
 */
final class DropQueue extends ListQueue
{
    private final int max;
    private final DropEnd drop;
    private final ServeOrder order;

    /**
     * An empty queue.
     *
     * @param spec its configuration.
     */
    DropQueue(final DropQueueSpec spec)
    {
        this.max = spec.max();
        this.drop = spec.drop();
        this.order = spec.order();
    }

    @Override
    public void enqueue(final BrokerRequest request, final long nowNs, final DropSink drops)
    {
        deque.addBounded(request, max, drop, nowNs, drops);
    }

    @Override
    public BrokerRequest dequeue(final long nowNs, final DropSink drops)
    {
        return deque.poll(order);
    }

    @Override
    public void expire(final long nowNs, final DropSink drops)
    {
        // no time-based drops
    }

    @Override
    public long nextExpiryNs(final long nowNs)
    {
        return Long.MAX_VALUE;
    }

}
