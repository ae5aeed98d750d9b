package io.troupe.broker;

import io.troupe.actor.ActorId;

import java.util.Arrays;
import java.util.Comparator;
import java.util.function.Consumer;

/**
 * The storage of the list-shaped queue policies: broker requests in arrival order in an array ring buffer
 * whose capacity is a power of two. Adding at the tail and removing at either end are O(1) and allocate
 * nothing once the array is large enough; removing from the middle ({@link #remove(ActorId, long)}) scans
 * and shifts. Single-threaded, like the queue that owns it.
 *
 * <p>The head is the request that arrived first, which the policies treat as the oldest: the broker's clock
 * stamps {@code sentNs} in nearly arrival order. {@link #drainTo} alone sorts by {@code sentNs}, as
 * {@link RequestQueue#drainTo} promises.
 */
final class RequestDeque
{
    /** Oldest first by {@code sentNs}, compared by difference so the clock may wrap. */
    static final Comparator<BrokerRequest> OLDEST_FIRST = (a, b) -> Long.signum(a.sentNs() - b.sentNs());

    private static final int INITIAL_CAPACITY = 8;
    private static final int MAX_CAPACITY = 1 << 30;

    private BrokerRequest[] slots = new BrokerRequest[INITIAL_CAPACITY];
    private int head;
    private int size;

    /**
     * An empty deque.
     */
    RequestDeque()
    {
    }

    int size()
    {
        return size;
    }

    boolean isEmpty()
    {
        return size == 0;
    }

    /**
     * The request at a position, 0 being the oldest.
     *
     * @param index from 0 to {@code size() - 1}.
     * @return the request.
     */
    BrokerRequest get(final int index)
    {
        if (index < 0 || index >= size)
        {
            throw new IndexOutOfBoundsException("index " + index + " out of range 0.." + (size - 1));
        }
        return slots[(head + index) & (slots.length - 1)];
    }

    BrokerRequest peekFirst()
    {
        return size == 0 ? null : slots[head];
    }

    BrokerRequest peekLast()
    {
        return size == 0 ? null : slots[(head + size - 1) & (slots.length - 1)];
    }

    void addLast(final BrokerRequest request)
    {
        if (size == slots.length)
        {
            grow();
        }
        slots[(head + size) & (slots.length - 1)] = request;
        size++;
    }

    BrokerRequest pollFirst()
    {
        if (size == 0)
        {
            return null;
        }
        final BrokerRequest request = slots[head];
        slots[head] = null;
        head = (head + 1) & (slots.length - 1);
        size--;
        return request;
    }

    BrokerRequest pollLast()
    {
        if (size == 0)
        {
            return null;
        }
        final int index = (head + size - 1) & (slots.length - 1);
        final BrokerRequest request = slots[index];
        slots[index] = null;
        size--;
        return request;
    }

    /**
     * Removes the request a match takes under a serve order.
     *
     * @param order FIFO takes the oldest, LIFO the newest.
     * @return the request, or null if the deque is empty.
     */
    BrokerRequest poll(final ServeOrder order)
    {
        return order == ServeOrder.FIFO ? pollFirst() : pollLast();
    }

    /**
     * Adds a request that just arrived within a maximum length. When the deque is full (it may be over
     * {@code max} after adoptions), {@link DropEnd#HEAD} drops the oldest until the newcomer fits, and
     * {@link DropEnd#TAIL} drops the newest down to {@code max} and then the newcomer. With {@code max} 0
     * every newcomer is dropped. Afterwards the size is at most {@code max}.
     *
     * @param request the newcomer.
     * @param max     the maximum length, 0 or more.
     * @param drop    which end a full deque drops.
     * @param nowNs   the broker's clock, for the drops.
     * @param drops   receives the dropped requests.
     */
    void addBounded(final BrokerRequest request, final int max, final DropEnd drop, final long nowNs,
        final DropSink drops)
    {
        if (size < max)
        {
            addLast(request);
            return;
        }
        if (drop == DropEnd.HEAD)
        {
            while (size > 0 && size >= max)
            {
                drops.drop(pollFirst(), nowNs);
            }
            if (max > 0)
            {
                addLast(request);
            }
            else
            {
                drops.drop(request, nowNs);
            }
        }
        else
        {
            while (size > max)
            {
                drops.drop(pollLast(), nowNs);
            }
            drops.drop(request, nowNs);
        }
    }

    /**
     * Removes the request of a requester with a reference, scanning oldest first.
     *
     * @param requester the requester.
     * @param ref       its reference for the request.
     * @return the request removed, or null if none matches.
     */
    BrokerRequest remove(final ActorId requester, final long ref)
    {
        final int mask = slots.length - 1;
        for (int i = 0; i < size; i++)
        {
            final BrokerRequest request = slots[(head + i) & mask];
            if (request.ref() == ref && request.requester().equals(requester))
            {
                removeAt(i);
                return request;
            }
        }
        return null;
    }

    /**
     * Removes every request, handing them over oldest first by {@code sentNs}, ties in arrival order. Sorts
     * (on a copy) only when arrival order is not already that order.
     *
     * @param out receives the requests.
     */
    void drainTo(final Consumer<BrokerRequest> out)
    {
        if (isInSentOrder())
        {
            while (size > 0)
            {
                out.accept(pollFirst());
            }
            return;
        }
        final BrokerRequest[] all = new BrokerRequest[size];
        for (int i = 0; i < all.length; i++)
        {
            all[i] = pollFirst();
        }
        Arrays.sort(all, OLDEST_FIRST); // stable: ties stay in arrival order
        for (final BrokerRequest request : all)
        {
            out.accept(request);
        }
    }

    private boolean isInSentOrder()
    {
        final int mask = slots.length - 1;
        for (int i = 1; i < size; i++)
        {
            if (OLDEST_FIRST.compare(slots[(head + i - 1) & mask], slots[(head + i) & mask]) > 0)
            {
                return false;
            }
        }
        return true;
    }

    private void removeAt(final int index)
    {
        final int mask = slots.length - 1;
        if (index < size / 2)
        {
            // shift the older part one slot towards the tail, then free the head slot
            for (int i = index; i > 0; i--)
            {
                slots[(head + i) & mask] = slots[(head + i - 1) & mask];
            }
            slots[head] = null;
            head = (head + 1) & mask;
        }
        else
        {
            // shift the newer part one slot towards the head, then free the tail slot
            for (int i = index; i < size - 1; i++)
            {
                slots[(head + i) & mask] = slots[(head + i + 1) & mask];
            }
            slots[(head + size - 1) & mask] = null;
        }
        size--;
    }

    private void grow()
    {
        if (slots.length >= MAX_CAPACITY)
        {
            throw new IllegalStateException("request deque full at " + size + " requests");
        }
        final BrokerRequest[] bigger = new BrokerRequest[slots.length << 1];
        final int mask = slots.length - 1;
        for (int i = 0; i < size; i++)
        {
            bigger[i] = slots[(head + i) & mask];
        }
        slots = bigger;
        head = 0;
    }
}
