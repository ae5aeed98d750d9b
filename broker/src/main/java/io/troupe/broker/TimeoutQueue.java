package io.troupe.broker;

/**
 * The policy of a {@link TimeoutQueueSpec}: on {@link #expire} and before each {@link #dequeue}, drops the
 * requests whose sojourn exceeds the timeout, oldest first, while more than {@code min} are queued. The
 * oldest is the request that arrived first; the scan stops at the first one still within the timeout.
 * Single-threaded, owned by its broker.
 */
final class TimeoutQueue extends ListQueue
{
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

    private void timeOut(final long nowNs, final DropSink drops)
    {
        while (deque.size() > min && deque.peekFirst().sojournNs(nowNs) > timeoutNs)
        {
            drops.drop(deque.pollFirst(), nowNs);
        }
    }
}
