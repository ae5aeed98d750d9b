package io.troupe.broker;

import io.troupe.actor.ActorId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The regulator's state and rules without the actor: a queue of requests waiting for a slot and a valve that
 * decides how many may hold one. A request proceeds ({@link Go}) when the valve opens for it; its holder later
 * sends {@link Done}, or {@link Continue} to keep the slot ({@link Go} again, or {@link Stop} if the valve
 * shrank). Single-threaded; time is passed in.
 */
final class RegulatorCore
{
    /** {@link #valveReadySinceNs} when the valve is not waiting for requests. */
    private static final long NOT_READY = Long.MIN_VALUE;

    /** A slot's holder: the requester and its reference. */
    private record Holder(ActorId requester, long ref)
    {
    }

    /** A held slot's request cookie and the end of its lease (renewed by a kept Continue). */
    private static final class Lease
    {
        final long cookie;
        long untilNs;

        Lease(final long cookie, final long untilNs)
        {
            this.cookie = cookie;
            this.untilNs = untilNs;
        }
    }

    private final BrokerMetrics metrics = new BrokerMetrics();
    /** Slots held, with the cookie of the request each answers and when its lease runs out. */
    private final Map<Holder, Lease> holders = new HashMap<>();
    private long leaseNs;
    private long expiredLeases;
    private final DropSink drops = this::onDrop;
    private final ActorId self;
    private RequestQueue queue;
    private QueueSpec queueSpec;
    private Valve valve;
    private List<Meter> meters = new ArrayList<>();
    private BrokerCore.Output output;
    private long matches;
    private long dropped;
    private long lastSojournNs;
    private long lastRelativeNs;
    /** Since when the valve would let a request through at once with nobody waiting; NOT_READY otherwise. */
    private long valveReadySinceNs = NOT_READY;
    private long unknownHolders;
    private long released;

    RegulatorCore(final ActorId self, final RegulatorSpec spec, final long nowNs)
    {
        this.self = self;
        this.queue = spec.queue().newQueue();
        this.queueSpec = spec.queue();
        this.valve = spec.valve().newValve(0);
        this.leaseNs = spec.lease().toNanos();
        startMeters(spec, nowNs);
    }

    /** A request for a slot: proceeds now if nobody waits and the valve opens, else waits (or, non-blocking, drops). */
    void ask(final BrokerRequest request, final boolean nonBlocking, final long nowNs, final BrokerCore.Output out)
    {
        output = out;
        if (queue.size() == 0 && valve.tryOpen(nowNs))
        {
            grant(request, nowNs);
        }
        else if (nonBlocking)
        {
            onDrop(request, nowNs);
        }
        else
        {
            queue.enqueue(request, nowNs, drops);
        }
    }

    /** A holder is done: its slot is released and waiting requests may proceed. */
    void done(final ActorId requester, final long ref, final long nowNs, final BrokerCore.Output out)
    {
        output = out;
        if (holders.remove(new Holder(requester, ref)) == null && !(requester.isNone() && removeByRef(ref)))
        {
            unknownHolders++; // a second Done, or one for a slot released already: nothing held
            return;
        }
        valve.close(nowNs);
        admit(nowNs);
    }

    /**
     * A plain thread's slot is held by the system's temporary asker, and its done comes from no actor: found by
     * reference alone (plain threads' references are unique in the JVM).
     */
    private boolean removeByRef(final long ref)
    {
        final Iterator<Holder> it = holders.keySet().iterator();
        while (it.hasNext())
        {
            if (it.next().ref() == ref)
            {
                it.remove();
                return true;
            }
        }
        return false;
    }

    /**
     * A holder asks to keep its slot.
     *
     * @return true if it keeps it ({@link Go}); false if it must stop ({@link Stop}): the valve released the slot,
     *     or it held none.
     */
    boolean keep(final ActorId requester, final long ref, final long nowNs, final BrokerCore.Output out)
    {
        output = out;
        final Holder holder = new Holder(requester, ref);
        if (!holders.containsKey(holder))
        {
            unknownHolders++;
            return false;
        }
        if (valve.keep(nowNs))
        {
            holders.get(holder).untilNs = nowNs + leaseNs;
            return true;
        }
        holders.remove(holder); // the valve released the slot in keep()
        admit(nowNs);
        return false;
    }

    /** The relative time of the regulated workers' queue, from an update meter or a user. */
    void update(final long relativeTimeNs, final long nowNs, final BrokerCore.Output out)
    {
        output = out;
        valve.update(relativeTimeNs, nowNs);
        admit(nowNs);
    }

    /**
     * Releases every slot held by actors of a node that disconnected (they will never say done), and forgets
     * that node's waiting requests (a slot granted to one would never be released either).
     */
    void releaseNode(final int nodeId, final long nowNs, final BrokerCore.Output out)
    {
        releaseWhere(requester -> requester.nodeId() == nodeId, nowNs, out);
    }

    /** Releases the slots of a requester that is gone (its watch said so), and forgets its waiting requests. */
    void releaseRequester(final ActorId gone, final long nowNs, final BrokerCore.Output out)
    {
        releaseWhere(gone::equals, nowNs, out);
    }

    private void releaseWhere(final Predicate<ActorId> gone, final long nowNs, final BrokerCore.Output out)
    {
        output = out;
        final RequestQueue kept = queueSpec.newQueue();
        released += BrokerCore.moveAllBut(queue, kept, gone);
        queue = kept;
        final Iterator<Holder> it = holders.keySet().iterator();
        while (it.hasNext())
        {
            if (gone.test(it.next().requester()))
            {
                it.remove();
                valve.close(nowNs);
                released++;
            }
        }
        admit(nowNs);
    }

    boolean cancel(final ActorId requester, final long ref)
    {
        return queue.cancel(requester, ref) != null;
    }

    void reconfigure(final RegulatorSpec spec, final long nowNs)
    {
        final RequestQueue next = spec.queue().newQueue();
        queue.drainTo(next::adopt);
        queue = next;
        queueSpec = spec.queue();
        valve = spec.valve().newValve(valve.size());
        leaseNs = spec.lease().toNanos();
        startMeters(spec, nowNs);
    }

    private void startMeters(final RegulatorSpec spec, final long nowNs)
    {
        meters = new ArrayList<>();
        for (final MeterSpec meterSpec : spec.meters())
        {
            meters.add(meterSpec.newMeter(nowNs));
        }
    }

    /** Lets waiting requests proceed while the valve opens for them. */
    private void admit(final long nowNs)
    {
        while (queue.size() > 0 && valve.tryOpen(nowNs))
        {
            final BrokerRequest next = queue.dequeue(nowNs, drops);
            if (next == null)
            {
                valve.close(nowNs); // the policy dropped the rest: give the slot back
                return;
            }
            grant(next, nowNs);
        }
    }

    private void grant(final BrokerRequest request, final long nowNs)
    {
        final long sojournNs = request.sojournNs(nowNs);
        holders.put(new Holder(request.requester(), request.ref()), new Lease(request.cookie(), nowNs + leaseNs));
        matches++;
        lastSojournNs = sojournNs;
        // the valve "asked" when it became ready: now if the request waited for it (relative = sojourn), or
        // earlier if it waited for the request (negative: how long its capacity sat unused)
        lastRelativeNs = valveReadySinceNs == NOT_READY ? sojournNs :
            Math.min(sojournNs, valveReadySinceNs - Math.min(request.sentNs(), nowNs));
        valveReadySinceNs = NOT_READY;
        output.answer(request, new Go(request.ref(), self, sojournNs, sojournNs), Go.TYPE);
    }

    private void onDrop(final BrokerRequest request, final long nowNs)
    {
        final long sojournNs = request.sojournNs(nowNs);
        dropped++;
        lastSojournNs = sojournNs;
        output.answer(request, new Drop(request.ref(), sojournNs), Drop.TYPE);
    }

    /** After a batch: time passes for the queue, waiting requests may proceed, meters update; next wake-up. */
    long afterBatch(final long nowNs, final long messageQueueSojournNs, final BrokerCore.Output out)
    {
        output = out;
        queue.expire(nowNs, drops);
        expireLeases(nowNs);
        admit(nowNs);
        if (messageQueueSojournNs >= 0)
        {
            metrics.messageQueueSojournNs(messageQueueSojournNs);
        }
        if (queue.size() == 0 && valve.wouldOpen(nowNs))
        {
            if (valveReadySinceNs == NOT_READY)
            {
                valveReadySinceNs = nowNs;
            }
        }
        else
        {
            valveReadySinceNs = NOT_READY;
        }
        metrics.ask().set(queue.size(), lastSojournNs, lastRelativeNs, queue.oldestSentNs(), matches, dropped);
        // the valve's side: how long it waited for its last match; while it waits now, since when (as the oldest
        // waiting request of its side: Long.MIN_VALUE when it does not)
        metrics.askR().set(valve.size(), 0, -lastRelativeNs, valveReadySinceNs, matches, 0);
        long nextNs = Math.min(queue.nextExpiryNs(nowNs), queue.size() > 0 ? valve.nextOpenNs(nowNs) : Long.MAX_VALUE);
        nextNs = Math.min(nextNs, nextLeaseNs()); // after admit: a slot granted just now has a lease too
        for (final Meter meter : meters)
        {
            nextNs = Math.min(nextNs, meter.update(nowNs, metrics, out));
        }
        return nextNs;
    }

    /** Releases the slots whose lease ran out. */
    private void expireLeases(final long nowNs)
    {
        final Iterator<Lease> it = holders.values().iterator();
        while (it.hasNext())
        {
            if (nowNs - it.next().untilNs >= 0)
            {
                it.remove();
                valve.close(nowNs);
                expiredLeases++;
            }
        }
    }

    /** When the next lease runs out, or Long.MAX_VALUE with no slot held. */
    private long nextLeaseNs()
    {
        long nextNs = Long.MAX_VALUE;
        for (final Lease lease : holders.values())
        {
            nextNs = Math.min(nextNs, lease.untilNs);
        }
        return nextNs;
    }

    /**
     * A {@link Go} could not be delivered (its requester is gone, or its node): the slot it granted is released.
     *
     * @param requester the requester the Go was for.
     * @param cookie    the cookie it carried (the request's).
     * @param nowNs     the clock.
     * @param out       where answers go.
     */
    void goUndelivered(final ActorId requester, final long cookie, final long nowNs, final BrokerCore.Output out)
    {
        output = out;
        final Iterator<Map.Entry<Holder, Lease>> it = holders.entrySet().iterator();
        while (it.hasNext())
        {
            final Map.Entry<Holder, Lease> entry = it.next();
            if (entry.getKey().requester().equals(requester) && entry.getValue().cookie == cookie)
            {
                it.remove();
                valve.close(nowNs);
                released++;
                admit(nowNs);
                return;
            }
        }
    }

    long expiredLeases()
    {
        return expiredLeases;
    }

    int waiting()
    {
        return queue.size();
    }

    int held()
    {
        return valve.size();
    }

    long unknownHolders()
    {
        return unknownHolders;
    }

    long released()
    {
        return released;
    }
}
