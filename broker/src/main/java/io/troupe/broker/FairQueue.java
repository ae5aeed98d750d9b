package io.troupe.broker;

import io.troupe.actor.ActorId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.function.Consumer;

/**
 * The policy of a {@link FairQueueSpec}: one inner queue per key, served round robin. The turn is a list of
 * the non-empty inner queues and a cursor on the one the next match takes from; a new key joins just before
 * the cursor, at the end of the turn, and an inner queue leaves the turn as soon as it is empty (with its
 * state: a CoDel inner queue that empties forgets its drop rate). Single-threaded, owned by its broker.
 */
final class FairQueue implements RequestQueue
{
    private final QueueSpec innerSpec;
    private final FairKey key;
    private final HashMap<Object, Inner> byKey = new HashMap<>();
    private final ArrayList<Inner> turn = new ArrayList<>();
    private int next;
    private int size;

    /**
     * An empty queue.
     *
     * @param spec its configuration.
     */
    FairQueue(final FairQueueSpec spec)
    {
        this.innerSpec = spec.inner();
        this.key = spec.key();
    }

    @Override
    public void enqueue(final BrokerRequest request, final long nowNs, final DropSink drops)
    {
        final Inner inner = innerFor(key.keyOf(request));
        final int before = inner.queue.size();
        inner.queue.enqueue(request, nowNs, drops);
        size += inner.queue.size() - before;
        if (inner.queue.size() == 0)
        {
            removeAt(turn.indexOf(inner));
        }
    }

    @Override
    public BrokerRequest dequeue(final long nowNs, final DropSink drops)
    {
        while (!turn.isEmpty())
        {
            final Inner inner = turn.get(next);
            final int before = inner.queue.size();
            final BrokerRequest request = inner.queue.dequeue(nowNs, drops);
            size += inner.queue.size() - before;
            if (inner.queue.size() == 0)
            {
                removeAt(next);
            }
            else
            {
                next = next + 1 == turn.size() ? 0 : next + 1;
            }
            if (request != null)
            {
                return request;
            }
        }
        return null;
    }

    @Override
    public void expire(final long nowNs, final DropSink drops)
    {
        int i = 0;
        while (i < turn.size())
        {
            final Inner inner = turn.get(i);
            final int before = inner.queue.size();
            inner.queue.expire(nowNs, drops);
            size += inner.queue.size() - before;
            if (inner.queue.size() == 0)
            {
                removeAt(i);
            }
            else
            {
                i++;
            }
        }
    }

    /** The earliest of the inner queues' next expiries. */
    @Override
    public long nextExpiryNs(final long nowNs)
    {
        long earliestNs = Long.MAX_VALUE;
        for (int i = 0; i < turn.size(); i++)
        {
            final long atNs = turn.get(i).queue.nextExpiryNs(nowNs);
            if (atNs != Long.MAX_VALUE && (earliestNs == Long.MAX_VALUE || atNs - earliestNs < 0))
            {
                earliestNs = atNs;
            }
        }
        return earliestNs;
    }

    @Override
    public BrokerRequest cancel(final ActorId requester, final long ref)
    {
        final Object requesterKey = key.keyOfRequester(requester);
        if (requesterKey != null)
        {
            final Inner inner = byKey.get(requesterKey);
            return inner == null ? null : cancelIn(turn.indexOf(inner), requester, ref);
        }
        for (int i = 0; i < turn.size(); i++)
        {
            final BrokerRequest request = cancelIn(i, requester, ref);
            if (request != null)
            {
                return request;
            }
        }
        return null;
    }

    @Override
    public long oldestSentNs()
    {
        long oldest = Long.MAX_VALUE;
        for (final Inner inner : turn)
        {
            final long sentNs = inner.queue.oldestSentNs();
            if (sentNs != Long.MIN_VALUE)
            {
                oldest = Math.min(oldest, sentNs);
            }
        }
        return oldest == Long.MAX_VALUE ? Long.MIN_VALUE : oldest;
    }

    @Override
    public int size()
    {
        return size;
    }

    /** Merges the inner queues oldest first by {@code sentNs}; ties in turn order, then in queue order. */
    @Override
    public void drainTo(final Consumer<BrokerRequest> out)
    {
        final ArrayList<BrokerRequest> all = new ArrayList<>(size);
        final int count = turn.size();
        for (int j = 0; j < count; j++)
        {
            turn.get((next + j) % count).queue.drainTo(all::add);
        }
        turn.clear();
        byKey.clear();
        next = 0;
        size = 0;
        all.sort(RequestDeque.OLDEST_FIRST); // stable
        for (int i = 0; i < all.size(); i++)
        {
            out.accept(all.get(i));
        }
    }

    @Override
    public void adopt(final BrokerRequest request)
    {
        innerFor(key.keyOf(request)).queue.adopt(request);
        size++;
    }

    /**
     * Inner queues now (for tests).
     *
     * @return the count.
     */
    int innerQueues()
    {
        return turn.size();
    }

    private BrokerRequest cancelIn(final int index, final ActorId requester, final long ref)
    {
        final RequestQueue queue = turn.get(index).queue;
        final BrokerRequest request = queue.cancel(requester, ref);
        if (request != null)
        {
            size--;
            if (queue.size() == 0)
            {
                removeAt(index);
            }
        }
        return request;
    }

    private Inner innerFor(final Object requestKey)
    {
        Inner inner = byKey.get(requestKey);
        if (inner == null)
        {
            inner = new Inner(requestKey, innerSpec.newQueue());
            byKey.put(requestKey, inner);
            // join at the end of the turn: just before the cursor, which moves to stay on its queue
            turn.add(next, inner);
            next = next + 1 == turn.size() ? 0 : next + 1;
        }
        return inner;
    }

    private void removeAt(final int index)
    {
        byKey.remove(turn.remove(index).key);
        if (index < next)
        {
            next--;
        }
        if (next >= turn.size())
        {
            next = 0;
        }
    }

    /** An inner queue and its key. */
    private static final class Inner
    {
        final Object key;
        final RequestQueue queue;

        Inner(final Object key, final RequestQueue queue)
        {
            this.key = key;
            this.queue = queue;
        }
    }
}
