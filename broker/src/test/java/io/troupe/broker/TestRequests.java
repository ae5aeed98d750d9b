package io.troupe.broker;

import io.troupe.actor.ActorId;

import java.util.ArrayList;
import java.util.List;

/** Requests, times and a recording drop sink for the queue tests. */
final class TestRequests
{
    private TestRequests()
    {
    }

    /**
     * Nanoseconds of a number of milliseconds.
     *
     * @param millis milliseconds.
     * @return nanoseconds.
     */
    static long ms(final double millis)
    {
        return Math.round(millis * 1_000_000.0);
    }

    /**
     * A request of actor {@code [1:id:0]} with reference {@code id} and fair key "k".
     *
     * @param id     the local id and reference.
     * @param sentNs when it was sent.
     * @return the request.
     */
    static BrokerRequest request(final long id, final long sentNs)
    {
        return request(id, sentNs, "k");
    }

    /**
     * A request of actor {@code [1:id:0]} with reference {@code id}.
     *
     * @param id      the local id and reference.
     * @param sentNs  when it was sent.
     * @param fairKey its fair key.
     * @return the request.
     */
    static BrokerRequest request(final long id, final long sentNs, final Object fairKey)
    {
        final ActorId requester = ActorId.of(1, id, 0);
        return new BrokerRequest(id, requester, 0, requester, sentNs, fairKey);
    }

    /**
     * The references of requests, in order.
     *
     * @param requests the requests.
     * @return their references.
     */
    static List<Long> refs(final List<BrokerRequest> requests)
    {
        final List<Long> refs = new ArrayList<>();
        for (final BrokerRequest request : requests)
        {
            refs.add(request.ref());
        }
        return refs;
    }

    /**
     * Dequeues until the queue returns null.
     *
     * @param queue the queue.
     * @param nowNs the time of every dequeue.
     * @param drops receives drops.
     * @return the references matched, in order.
     */
    static List<Long> dequeueAll(final RequestQueue queue, final long nowNs, final DropSink drops)
    {
        final List<Long> refs = new ArrayList<>();
        BrokerRequest request;
        while ((request = queue.dequeue(nowNs, drops)) != null)
        {
            refs.add(request.ref());
        }
        return refs;
    }

    /** Records drops in order, with their times. */
    static final class RecordingSink implements DropSink
    {
        final List<BrokerRequest> dropped = new ArrayList<>();
        final List<Long> timesNs = new ArrayList<>();

        @Override
        public void drop(final BrokerRequest request, final long nowNs)
        {
            dropped.add(request);
            timesNs.add(nowNs);
        }

        List<Long> refs()
        {
            return TestRequests.refs(dropped);
        }
    }
}
