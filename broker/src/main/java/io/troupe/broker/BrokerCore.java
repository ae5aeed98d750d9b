package io.troupe.broker;

import io.troupe.actor.ActorId;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * The broker's state and rules without the actor around it: two queues, the matching, the meters, and when
 * the broker must wake up next. Single-threaded (the broker actor's); time is passed in, so a scripted clock
 * drives it in tests. Every request that reaches it ends exactly once: {@link Go}, {@link Drop}, cancelled,
 * or still queued.
 */
final class BrokerCore
{
    /** What the core does to the world: answer requesters, and what meters do. */
    interface Output extends MeterOutput
    {
        /**
         * Answers a request.
         *
         * @param request the request.
         * @param event   its {@link Go} or {@link Drop}.
         * @param type    the event's type.
         */
        void answer(BrokerRequest request, Object event, int type);
    }

    private final BrokerMetrics metrics = new BrokerMetrics();
    private final long[] matches = new long[2];
    private final long[] drops = new long[2];
    private final long[] lastSojournNs = new long[2];
    private final long[] lastRelativeNs = new long[2];
    private final DropSink[] dropSinks = new DropSink[2];
    private RequestQueue[] queues = new RequestQueue[2];
    private List<Meter> meters = new ArrayList<>();
    private long[] meterDueNs = new long[0];
    private Output output;
    private BrokerSpec spec;
    private long cancels;
    private long purged;
    /** The request the queue dropped during the current enqueue (to tell whether the new one waits). */
    private BrokerRequest droppedNow;

    BrokerCore(final BrokerSpec spec, final long nowNs)
    {
        this.spec = spec;
        queues[Side.ASK.ordinal()] = spec.ask().newQueue();
        queues[Side.ASK_R.ordinal()] = spec.askR().newQueue();
        for (final Side side : Side.values())
        {
            dropSinks[side.ordinal()] = (request, atNs) -> onDrop(side, request, atNs);
        }
        startMeters(spec, nowNs);
    }

    /**
     * A request arrived: matched with the other side's next request if there is one, else queued (or, if
     * non-blocking, dropped at once).
     *
     * @return whether it waits in its queue now (not matched, not dropped).
     */
    boolean ask(final Side side, final BrokerRequest request, final boolean nonBlocking, final long nowNs,
        final Output out)
    {
        output = out;
        final BrokerRequest match = queues[side.other().ordinal()].dequeue(nowNs, dropSinks[side.other().ordinal()]);
        if (match != null)
        {
            onMatch(side, request, match, nowNs);
            return false;
        }
        if (nonBlocking)
        {
            onDrop(side, request, nowNs);
            return false;
        }
        droppedNow = null;
        queues[side.ordinal()].enqueue(request, nowNs, dropSinks[side.ordinal()]);
        final boolean queued = droppedNow != request;
        droppedNow = null;
        return queued;
    }

    private void onMatch(final Side side, final BrokerRequest request, final BrokerRequest match, final long nowNs)
    {
        final Side other = side.other();
        final long relativeNs = match.sentNs() - request.sentNs();
        final long sojournNs = request.sojournNs(nowNs);
        final long matchSojournNs = match.sojournNs(nowNs);
        count(side, sojournNs, relativeNs);
        count(other, matchSojournNs, -relativeNs);
        output.answer(request, new Go(request.ref(), match.counterparty(), relativeNs, sojournNs), Go.TYPE);
        output.answer(match, new Go(match.ref(), request.counterparty(), -relativeNs, matchSojournNs), Go.TYPE);
    }

    private void count(final Side side, final long sojournNs, final long relativeNs)
    {
        matches[side.ordinal()]++;
        lastSojournNs[side.ordinal()] = sojournNs;
        lastRelativeNs[side.ordinal()] = relativeNs;
    }

    private void onDrop(final Side side, final BrokerRequest request, final long nowNs)
    {
        droppedNow = request;
        final long sojournNs = request.sojournNs(nowNs);
        drops[side.ordinal()]++;
        lastSojournNs[side.ordinal()] = sojournNs;
        output.answer(request, new Drop(request.ref(), sojournNs), Drop.TYPE);
    }

    /** Removes a queued request; true if it was queued. No answer goes to it. */
    boolean cancel(final Side side, final ActorId requester, final long ref)
    {
        final boolean found = queues[side.ordinal()].cancel(requester, ref) != null;
        if (found)
        {
            cancels++;
        }
        return found;
    }

    /**
     * Forgets the queued requests of a node that disconnected: nobody is there to take an answer, and a match
     * would give its counterparty a partner that is gone. They are counted, not answered.
     */
    void purgeNode(final int nodeId)
    {
        purgeWhere(requester -> requester.nodeId() == nodeId);
    }

    /**
     * Forgets the queued requests of a requester that is gone (its watch said so): the sbroker's 'DOWN' monitor. A
     * match would give its counterparty a partner that is gone. They are counted, not answered.
     */
    void purgeRequester(final ActorId gone)
    {
        purgeWhere(gone::equals);
    }

    private void purgeWhere(final Predicate<ActorId> gone)
    {
        for (final Side side : Side.values())
        {
            final RequestQueue kept = (side == Side.ASK ? spec.ask() : spec.askR()).newQueue();
            purged += moveAllBut(queues[side.ordinal()], kept, gone);
            queues[side.ordinal()] = kept;
        }
    }

    /**
     * Moves every request of {@code from} into {@code to} (adopted: times kept, nothing dropped) except those of
     * requesters that are gone, which are left behind unanswered.
     *
     * @return how many were left behind.
     */
    static int moveAllBut(final RequestQueue from, final RequestQueue to, final Predicate<ActorId> gone)
    {
        final int[] left = {0};
        from.drainTo(request ->
        {
            if (gone.test(request.requester()))
            {
                left[0]++;
            }
            else
            {
                to.adopt(request);
            }
        });
        return left[0];
    }

    long purged()
    {
        return purged;
    }

    int length(final Side side)
    {
        return queues[side.ordinal()].size();
    }

    /** Applies a new configuration: queued requests move to the new queues in order; meters start afresh. */
    void reconfigure(final BrokerSpec spec, final long nowNs)
    {
        final RequestQueue[] next = {spec.ask().newQueue(), spec.askR().newQueue()};
        for (final Side side : Side.values())
        {
            queues[side.ordinal()].drainTo(next[side.ordinal()]::adopt);
        }
        queues = next;
        this.spec = spec;
        startMeters(spec, nowNs);
    }

    private void startMeters(final BrokerSpec spec, final long nowNs)
    {
        meters = new ArrayList<>();
        for (final MeterSpec meterSpec : spec.meters())
        {
            meters.add(meterSpec.newMeter(nowNs));
        }
        meterDueNs = new long[meters.size()];
        Arrays.fill(meterDueNs, nowNs);
    }

    /**
     * After a batch of messages, or when woken: lets time pass on both queues, brings the metrics up to date,
     * updates the meters.
     *
     * @param nowNs                 the broker's clock.
     * @param messageQueueSojournNs how long the last message handled waited in the broker's mailbox (-1: not
     *                              known, keep the last value).
     * @param out                   where answers and meter output go.
     * @return when the broker must be woken next even if nothing arrives (Long.MAX_VALUE: never).
     */
    long afterBatch(final long nowNs, final long messageQueueSojournNs, final Output out)
    {
        output = out;
        for (final Side side : Side.values())
        {
            queues[side.ordinal()].expire(nowNs, dropSinks[side.ordinal()]);
        }
        if (messageQueueSojournNs >= 0)
        {
            metrics.messageQueueSojournNs(messageQueueSojournNs);
        }
        long nextNs = Math.min(queues[0].nextExpiryNs(nowNs), queues[1].nextExpiryNs(nowNs));
        if (meters.isEmpty())
        {
            return nextNs; // nobody reads the metrics: the views are filled on demand (metrics())
        }
        fill(metrics.ask(), Side.ASK);
        fill(metrics.askR(), Side.ASK_R);
        for (int i = 0; i < meters.size(); i++)
        {
            meterDueNs[i] = meters.get(i).update(nowNs, metrics, out);
            nextNs = Math.min(nextNs, meterDueNs[i]);
        }
        return nextNs;
    }

    private void fill(final QueueMetrics view, final Side side)
    {
        final int i = side.ordinal();
        view.set(queues[i].size(), lastSojournNs[i], lastRelativeNs[i], queues[i].oldestSentNs(), matches[i], drops[i]);
    }

    BrokerMetrics metrics()
    {
        fill(metrics.ask(), Side.ASK);
        fill(metrics.askR(), Side.ASK_R);
        return metrics;
    }

    long cancels()
    {
        return cancels;
    }
}
