package io.troupe.interconnect;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.NodeDisconnected;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the interconnect tells actors on this node: an {@link Undelivered} to the sender of a tracked event that
 * will not be delivered, and {@link NodeConnected} / {@link NodeDisconnected} to the subscribers of a peer, whom it
 * keeps (per peer, at most {@link Interconnect#MAX_SUBSCRIBERS_PER_PEER}). The agent's thread, but for
 * {@link #undelivered}, which any thread of the agent's may call.
 */
final class NodeNotices
{
    private static final Logger LOG = LoggerFactory.getLogger(NodeNotices.class);

    private final InterconnectAgent agent;
    /** The actor that hears of subscribers that are gone (set once the interconnect registered it). */
    volatile ActorId janitor = ActorId.NONE;
    /** Subscriptions refused because a peer had {@link Interconnect#MAX_SUBSCRIBERS_PER_PEER} already. */
    final AtomicLong subscriptionsRefused = new AtomicLong();

    NodeNotices(final InterconnectAgent agent)
    {
        this.agent = agent;
    }

    /** A peer's session came up: its subscribers hear it. */
    void connected(final Peer peer)
    {
        for (final ActorId subscriber : peer.subscribers)
        {
            notify(subscriber, new NodeConnected(peer.nodeId), NodeConnected.TYPE);
        }
    }

    /** A peer's session ended: its subscribers hear it. */
    void disconnected(final Peer peer)
    {
        for (final ActorId subscriber : peer.subscribers)
        {
            notify(subscriber, new NodeDisconnected(peer.nodeId), NodeDisconnected.TYPE);
        }
    }

    /** Sends the sender of a tracked envelope its {@link Undelivered}, on behalf of the recipient. */
    void undelivered(final Envelope envelope, final UndeliveredReason reason, final boolean unsure)
    {
        if (envelope.sender().isNone())
        {
            return;
        }
        final Undelivered notice = new Undelivered(envelope.recipient(), envelope.type(), envelope.cookie(), reason,
            unsure);
        agent.host.send(new Envelope(envelope.sender(), envelope.recipient(), Undelivered.TYPE, 0, envelope.cookie(),
            notice, null));
    }

    /**
     * Tells a subscriber of a change, tracked: if it is gone, the janitor (see {@link Interconnect}) hears of it and
     * the subscriber is forgotten.
     */
    void notify(final ActorId subscriber, final Object event, final int type)
    {
        final ActorId from = janitor;
        agent.host.send(new Envelope(subscriber, from, type, from.isNone() ? 0 : Envelope.FLAG_TRACK_DELIVERY, 0L,
            event, null));
    }

    /** A subscriber turned out to be gone: it is dropped from every peer's subscribers. */
    void forgetSubscriber(final ActorId subscriber)
    {
        for (final Peer peer : agent.roster.all())
        {
            if (peer.subscribers.remove(subscriber))
            {
                peer.subscriberCount = peer.subscribers.size();
            }
        }
    }

    void subscribe(final int peerNodeId, final ActorId subscriber)
    {
        final Peer peer = agent.roster.byId(peerNodeId);
        if (peer == null)
        {
            notify(subscriber, new NodeDisconnected(peerNodeId), NodeDisconnected.TYPE);
            return;
        }
        if (!peer.subscribers.contains(subscriber) && peer.subscribers.size() >= Interconnect.MAX_SUBSCRIBERS_PER_PEER)
        {
            if (subscriptionsRefused.getAndIncrement() == 0)
            {
                LOG.warn("node {}: {} actors already watch node {}; the subscription of {} is refused (further " +
                    "ones are only counted)", agent.nodeId, peer.subscribers.size(), peerNodeId, subscriber);
            }
            return;
        }
        if (peer.subscribers.add(subscriber))
        {
            peer.subscriberCount = peer.subscribers.size();
            if (peer.isUp())
            {
                notify(subscriber, new NodeConnected(peerNodeId), NodeConnected.TYPE);
            }
            else
            {
                notify(subscriber, new NodeDisconnected(peerNodeId), NodeDisconnected.TYPE);
            }
        }
    }

    void unsubscribe(final int peerNodeId, final ActorId subscriber)
    {
        final Peer peer = agent.roster.byId(peerNodeId);
        if (peer != null && peer.subscribers.remove(subscriber))
        {
            peer.subscriberCount = peer.subscribers.size();
        }
    }
}
