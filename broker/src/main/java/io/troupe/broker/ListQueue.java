package io.troupe.broker;

import io.troupe.actor.ActorId;

import java.util.function.Consumer;

/**
 * What the list-shaped policies (drop, timeout, CoDel) share: their requests in one {@link RequestDeque}, and
 * the operations that only read or hand over that list. A policy adds its own enqueue, dequeue and expiry.
 * Single-threaded, owned by its broker.
 */
abstract class ListQueue implements RequestQueue
{
    /** The queued requests, oldest (first to arrive) at the head. */
    final RequestDeque deque = new RequestDeque();

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
