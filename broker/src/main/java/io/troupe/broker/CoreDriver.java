package io.troupe.broker;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * What the broker's and the regulator's actors do alike around their cores: turn an arriving
 * {@link BrokerAsk} into a {@link BrokerRequest} on the actor's clock, watch the nodes of remote requesters,
 * tell the meters how long the last message waited in the mailbox, and wake the actor by timer. Owned by
 * one actor.
 */
final class CoreDriver
{
    /** Wakes the actor; a stale one only makes it look at its queues once more. */
    private enum Tick
    {
        INSTANCE
    }

    private final Set<Integer> watchedNodes = new HashSet<>();
    private long wakeAtNs = Long.MAX_VALUE;
    /** Whether a request arrived since the last timer: if not, the mailbox has been empty, and its delay is 0. */
    private boolean askedSinceTick;
    private long queueDelayNs;

    /** A new message is being handled: its mailbox delay is unknown until it turns out to be a request or a timer. */
    void begin()
    {
        queueDelayNs = -1;
    }

    /**
     * The request an ask stands for. A requester on this node stamped its send time, so sojourn includes the
     * wait in the mailbox; for one on another node it starts now, and its node is followed (the actor gets
     * {@code NodeConnected}/{@code NodeDisconnected}).
     */
    BrokerRequest request(final ActorContext ctx, final Envelope envelope, final BrokerAsk ask, final long nowNs)
    {
        final ActorId requester = envelope.sender();
        final boolean local = requester.nodeId() == ctx.self().nodeId();
        final long sentNs = local ? Math.min(ask.sentNs(), nowNs) : nowNs;
        queueDelayNs = nowNs - sentNs;
        askedSinceTick = true;
        if (!local && watchedNodes.add(requester.nodeId()))
        {
            ctx.subscribeToNode(requester.nodeId());
        }

        final Object counterparty = ask.counterparty() == null ? requester : ask.counterparty();
        return new BrokerRequest(ask.ref(), requester, envelope.cookie(), counterparty, sentNs, requester);
    }

    /**
     * Watches a requester that waits, wherever it is: a Terminated for it purges what it still has queued (or holds),
     * so a requester that is gone is never matched. A second watch of one requester does nothing; the watch lasts
     * until the requester goes (bounded by the live requesters that ever waited).
     *
     * @param standIns whether to watch an ask's stand-in too ({@link ActorId#isReplySlot()}): a broker does (the
     *                 slot goes when the ask times out, and its request with it); a regulator does not (the thread
     *                 that asked holds the slot it was granted, by reference, after its stand-in is gone).
     */
    static void watchWaiting(final ActorContext ctx, final BrokerRequest request, final boolean standIns)
    {
        final ActorId requester = request.requester();
        if (!requester.isNone() && (standIns || !requester.isReplySlot()))
        {
            ctx.watch(requester);
        }
    }

    /** Whether the event is this driver's timer (then handled: nothing else is to be done for it). */
    boolean isTick(final Object event)
    {
        if (event != Tick.INSTANCE)
        {
            return false;
        }
        wakeAtNs = Long.MAX_VALUE;
        queueDelayNs = askedSinceTick ? -1 : 0; // idle since the last timer: no stale delay for the meters
        askedSinceTick = false;
        return true;
    }

    /** How long the message being handled waited in the mailbox; -1 if not known (keep the last value). */
    long queueDelayNs()
    {
        return queueDelayNs;
    }

    /** Makes sure the actor is woken by {@code nextNs} ({@link Long#MAX_VALUE}: no need). */
    void wakeBy(final ActorContext ctx, final long nextNs, final long nowNs)
    {
        if (nextNs != Long.MAX_VALUE && nextNs < wakeAtNs)
        {
            wakeAtNs = nextNs;
            ctx.schedule(Duration.ofNanos(Math.max(0, nextNs - nowNs)), Tick.INSTANCE);
        }
    }
}
