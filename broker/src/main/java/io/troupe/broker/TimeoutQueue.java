package io.troupe.broker;

import io.troupe.actor.ActorId;

import java.util.function.Consumer;

/**
 * The policy of a {@link TimeoutQueueSpec}: on {@link #expire} and before each {@link #dequeue}, drops the
 * requests whose sojourn exceeds the timeout, oldest first, while more than {@code min} are queued. The
 * oldest is the request that arrived first; the scan stops at the first one still within the timeout.
 * Single-threaded, owned by its broker.
 */
final class TimeoutQueue implements RequestQueue
{
    private final RequestDeque deque = new RequestDeque();
    private final long timeoutNs;
    private final int min;
    private final int max;
    private final DropEnd drop;
    private final ServeOrder order;

    /**
     * An empty queue.
     *
     * @param spec its configuration.
     */
    TimeoutQueue(final TimeoutQueueSpec spec)
    {
        this.timeoutNs = spec.timeout().toNanos();
        this.min = spec.min();
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
        timeOut(nowNs, drops);
        return deque.poll(order);
    }

    @Override
    public void expire(final long nowNs, final DropSink drops)
    {
        timeOut(nowNs, drops);
    }

    /**
     * The first nanosecond at which the oldest request's sojourn exceeds the timeout ({@code sentNs +
     * timeout + 1}); {@link Long#MAX_VALUE} when no more than {@code min} requests are queued, as only an
     * arrival can then make a drop possible.
     */
    @Override
    public long nextExpiryNs(final long nowNs)
    {
        if (deque.size() <= min)
        {
            return Long.MAX_VALUE;
        }
        return deque.peekFirst().sentNs() + timeoutNs + 1;
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

    private void timeOut(final long nowNs, final DropSink drops)
    {
        while (deque.size() > min && deque.peekFirst().sojournNs(nowNs) > timeoutNs)
        {
            drops.drop(deque.pollFirst(), nowNs);
        }
    }
}
