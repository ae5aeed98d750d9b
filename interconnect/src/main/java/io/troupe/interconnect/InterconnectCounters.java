package io.troupe.interconnect;

/**
 * The interconnect's node-wide counters (per-peer ones are {@link Interconnect#peerCounters()}): what was refused,
 * dropped or renewed, and why. Each is a count since start, read on any thread; the node's counters file
 * publishes them ({@code io.troupe.node.counters}).
 */
public final class InterconnectCounters
{
    private final InterconnectAgent agent;

    InterconnectCounters(final InterconnectAgent agent)
    {
        this.agent = agent;
    }

    /**
     * Handshakes this node refused because the peer binds one of this node's application event type ids to a
     * different type (another codec name or shape); each refusal also counts in the peer's
     * {@link PeerCounters#handshakesRefused()} and is logged once per peer and reason, naming the types.
     *
     * @return the count.
     */
    public long typeConflicts()
    {
        return agent.sessions.typeConflicts.get();
    }

    /**
     * Envelopes from peers that named an event type this node has no codec for: dropped before any actor sees
     * them (registration is the allowlist), the sender told with {@code Undelivered(ACTOR_UNKNOWN)} if tracked,
     * and logged once per type. Also counted in {@link #unauthenticatedFrames()}.
     *
     * @return the count.
     */
    public long unknownTypeEvents()
    {
        return agent.inbound.unknownTypes.get();
    }

    /**
     * Events that were queued for peers when they were removed ({@link Interconnect#removePeer}), or that a sender
     * linked into a removed peer's queue as it went: dropped, tracked ones reported as {@code Undelivered
     * (DISCONNECTED)}. (A removed peer's own counters are no longer listed.)
     *
     * @return the count.
     */
    public long lostToRemovedPeers()
    {
        return agent.membership.lostToRemovedPeers.get();
    }

    /**
     * Subscriptions to a peer's node notices refused because {@link Interconnect#MAX_SUBSCRIBERS_PER_PEER} actors
     * watched it.
     *
     * @return the count.
     */
    public long subscriptionsRefused()
    {
        return agent.notices.subscriptionsRefused.get();
    }

    /**
     * Arrivals whose frame named a credit account of a node this one has no session with (charged to this node's
     * own account instead: a shadow of it could neither report nor be written off).
     *
     * @return the count.
     */
    public long foreignAccountArrivals()
    {
        return agent.inbound.charges.foreignOwners.get();
    }

    /**
     * Arrivals whose frame named a cost outside 0 to 1,048,576, clamped into it.
     *
     * @return the count.
     */
    public long clampedCosts()
    {
        return agent.inbound.charges.clampedCosts.get();
    }

    /**
     * Large frames a peer was sending in chunks that were dropped half assembled because the node's memory quota
     * could not hold them (it was over its maximum, or reclaimed the buffer as the oldest data). Each ended the
     * session with that peer, which reported its unacknowledged tracked events as undelivered.
     *
     * @return the count.
     */
    public long chunkFramesDropped()
    {
        return agent.chunkFramesDropped.get();
    }

    /**
     * Directory updates dropped: for a peer with no session, or left waiting when a session ended, or more than
     * could wait for this node's directory to be ready.
     *
     * @return the count.
     */
    public long directoryUpdatesDropped()
    {
        return agent.directory.updatesDropped.get();
    }

    /**
     * Directory updates from peers that arrived before this node's directory was ready (sessions come up as soon
     * as the interconnect runs), held and handed to it once it was.
     *
     * @return the count.
     */
    public long directoryUpdatesHeld()
    {
        return agent.inbound.directory.held.get();
    }

    /**
     * Entries of peers' directory updates refused: a service or actor of another node than the sender, or an
     * operation this build does not know.
     *
     * @return the count.
     */
    public long directoryEntriesRefused()
    {
        return agent.inbound.directory.directoryEntriesRefused.get();
    }

    /**
     * Inbound streams found stalled: standing at one position, with data received beyond it, for longer than the
     * failure timeout (a hole no retransmission fills, e.g. left by an injected packet of another length). Each
     * ended the session with its peer, which renewed its publications.
     *
     * @return the count.
     */
    public long streamsStalled()
    {
        return agent.streamsStalled.get();
    }

    /**
     * Times this node renewed its publications to a peer (a fresh Aeron session): because the peer ended the
     * session for a damaged stream, or because a session ended in silence or this node stood still, so that the
     * next session's streams get images at the peer at once.
     *
     * @return the count.
     */
    public long publicationsRenewed()
    {
        return agent.publicationsRenewed.get();
    }

    /**
     * Handshake steps (a HELLO, a WELCOME) left unanswered until the peer's data and bulk streams had images
     * here, so that nothing the peer sends in the new session is lost before this node's driver sees its streams.
     * The peer's retry is answered. A count that keeps rising while a peer stays down means its streams do not
     * reach this node (a firewall passing only some traffic, say).
     *
     * @return the count.
     */
    public long handshakeStepsDeferred()
    {
        return agent.handshakeStepsDeferred.get();
    }

    /**
     * Everything dropped on arrival, whatever the reason ({@link #rejectedFrames(FrameRejection)}), but for REFUSE
     * steps, which are read and only not trusted. Per-peer rejections are also in {@link Interconnect#peerCounters()}.
     *
     * @return the count.
     */
    public long unauthenticatedFrames()
    {
        return agent.rejections.dropped();
    }

    /**
     * What arrived and was dropped for one reason: forged, replayed or stale frames, frames of unknown sessions,
     * stale or rate-limited handshake steps, and so on. Any thread.
     *
     * @param reason the reason.
     * @return how many, since start.
     */
    public long rejectedFrames(final FrameRejection reason)
    {
        return agent.rejections.get(reason);
    }
}
