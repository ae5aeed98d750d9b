package io.troupe.broker;

import io.troupe.actor.ActorId;

import java.util.function.Consumer;

/**
 * The policy of a {@link DropQueueSpec}: drops only to stay within its maximum length, when a request
 * arrives. Single-threaded, owned by its broker.
 */
final class DropQueue implements RequestQueue
{
    private final RequestDeque deque = new RequestDeque();
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

    @Override
    public BrokerRequest cancel(final ActorId requester, final long ref)
    {
        return deque.remove(requester, ref);
    }

    @Override
    public long oldestSentNs()
    {
        final BrokerRequest oldest = deque.peekFirst();
        return oldest == null ? Long.MIN_VALUE : oldest.sentNs();
    }

    @Override
    public int size()
    {
        return deque.size();
    }

    @Override
    public void drainTo(final Consumer<BrokerRequest> out)
    {
        deque.drainTo(out);
    }

    @Override
    public void adopt(final BrokerRequest request)
    {
        deque.addLast(request);
    }
}
