package io.troupe.interconnect;

import io.troupe.actor.Envelope;
import io.troupe.actor.UndeliveredReason;
import io.troupe.memquota.CollapsedException;
import io.troupe.serialization.wire.GoodbyeReason;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * What the interconnect agent does when a peer's session comes up or goes down, whatever made it (a handshake, a
 * goodbye, the failure detector, a damaged stream, a dropped chunk, a removal): the session machine's transition
 * ({@link PeerSession}), and around it everything the session leaves behind (what was in flight or queued, the
 * credit the peer held, the stream positions and receipts, the directory updates waiting) and the notices to
 * subscribers. The agent's thread only.
 */
final class SessionLifecycle
{
    private static final Logger LOG = LoggerFactory.getLogger(SessionLifecycle.class);

    private final InterconnectAgent agent;

    SessionLifecycle(final InterconnectAgent agent)
    {
        this.agent = agent;
    }

    /**
     * A session came up ({@link PeerSession#confirmed} or {@link PeerSession#firstSealedFrameSeen}): both sides
     * have verified each other's handshake and hold its keys (see {@link Sessions}).
     */
    void sessionUp(final Peer peer)
    {
        peer.backoff.reset();
        peer.detector.reset(agent.clock.nanoTime());
        LOG.info("node {}: session with node {} (incarnation {}) is up", agent.nodeId, peer.nodeId, peer.incarnation());
        agent.notices.connected(peer);
    }

    /**
     * The session with a peer is over (if one was up): account for everything not known delivered, then tell
     * subscribers. What the session leaves is counted before the peer turns down for other threads
     * ({@link PeerSession#sessionLost} writes the flag last), and reported after: a thread that sees the peer down
     * sees the loss, the unsure events and the round trip's reset counted, and one that hears of an undelivered
     * event sees the peer down.
     */
    void sessionLost(final Peer peer, final String why)
    {
        if (!peer.isUp())
        {
            return;
        }
        peer.lostUnsure += peer.dataInFlight.size() + peer.bulkInFlight.size();
        peer.resetRtt();
        peer.sessionLost(why);
        agent.credit.onSessionLost(peer.nodeId);
        LOG.info("node {}: session with node {} (incarnation {}) ended: {}", agent.nodeId, peer.nodeId,
            peer.incarnation(), why);
        final Consumer<Envelope> unsure =
            envelope -> agent.notices.undelivered(envelope, UndeliveredReason.DISCONNECTED, true);
        peer.dataInFlight.failAll(unsure);
        peer.bulkInFlight.failAll(unsure);
        failQueued(peer, UndeliveredReason.DISCONNECTED);
        Arrays.fill(peer.bulkUntil, 0);
        Arrays.fill(peer.dataUntil, 0);
        peer.chunkOffset = 0;
        agent.directory.onSessionLost(peer);
        agent.inbound.directory.onSessionLost(peer);
        if (peer.chunks != null)
        {
            peer.chunks.reset();
        }
        peer.bulkAcked = 0;
        peer.dataAcked = 0;
        peer.bulkSent = 0;
        peer.dataSent = 0;
        peer.receivedDataPosition = 0;
        peer.receivedBulkPosition = 0;
        peer.dataReceipts.clear();
        peer.bulkReceipts.clear();
        peer.ackedDataPositionSent = 0;
        peer.ackedBulkPositionSent = 0;
        agent.notices.disconnected(peer);
    }

    /**
     * Reports what is queued for a peer (pending included) and empties the queue. Each frame is counted in
     * {@code lostQueued} before it is reported or its credit repaid, so a thread that sees the report or the credit
     * back sees the frame counted.
     */
    void failQueued(final Peer peer, final UndeliveredReason reason)
    {
        peer.lostQueued += peer.batch.frames() + (peer.pending != null ? 1 : 0) + peer.bulkLane.size();
        for (final Envelope envelope : peer.batch.tracked())
        {
            agent.notices.undelivered(envelope, reason, false);
        }
        for (int i = 0; i < peer.batch.chargedCount(); i++)
        {
            peer.batch.chargedAccount(i).repay(peer.batch.chargedCost(i));
        }
        peer.batch.clear();
        if (peer.pending != null)
        {
            report(peer.pending, reason);
            peer.pending = null;
        }
        OutboundFrame laneFrame;
        while ((laneFrame = peer.bulkLane.pollFirst()) != null)
        {
            report(laneFrame, reason);
        }
        Arrays.fill(peer.bulkLaneCount, 0);
        peer.bulkLaneBytes = 0;
        peer.bulkLaneSize = 0;
        peer.chunkOffset = 0;
        final OutboundQueue queue = peer.outbound;
        try
        {
            OutboundFrame frame;
            while ((frame = queue.receive()) != null)
            {
                peer.lostQueued++;
                report(frame, reason);
            }
        }
        catch (final CollapsedException ex)
        {
            agent.outboundSender.replaceCollapsedQueue(peer, queue);
        }
        queue.releaseTaken();
    }

    /** Reports one frame that will not be sent, repays what it was charged, and returns it to the pool. */
    void report(final OutboundFrame frame, final UndeliveredReason reason)
    {
        if (frame.tracked != null)
        {
            agent.notices.undelivered(frame.tracked, reason, false);
        }
        frame.repay();
        agent.frames.release(frame);
    }

    /**
     * A verified message skipped a sequence number: one before it never arrived, so the stream is not whole and
     * what was acknowledged on it could be wrong. The session ends (the peer is told with a goodbye, and reports
     * what it had in flight as unsure); a new handshake follows.
     */
    void streamDamaged(final Peer peer, final String why)
    {
        LOG.warn("node {}: the session with node {} is damaged: {}; ending it", agent.nodeId, peer.nodeId, why);
        agent.sessions.sendGoodbye(peer, GoodbyeReason.PROTOCOL_ERROR, "node " + agent.nodeId + ": " + why);
        sessionLost(peer, why);
        peer.retryHelloAt(agent.clock.nanoTime() + peer.backoff.nextDelayNs());
    }

    /**
     * The memory quota could not hold a large frame the peer was sending in chunks, so it was dropped unfinished.
     * It may have been a tracked event that no acknowledgement may now pass over, so the session ends: the peer
     * reports what it has not seen acknowledged as {@code Undelivered(DISCONNECTED, unsure)} and a new session
     * follows.
     */
    void chunksDropped(final Peer peer)
    {
        agent.chunkFramesDropped.incrementAndGet();
        final String why = "the memory quota could not hold a large frame it was sending in chunks";
        LOG.warn("node {}: ending the session with node {}: {}", agent.nodeId, peer.nodeId, why);
        if (peer.isUp())
        {
            agent.sessions.sendGoodbye(peer, GoodbyeReason.OVERLOADED, "node " + agent.nodeId + ": " + why);
            sessionLost(peer, why);
            peer.retryHelloAt(agent.clock.nanoTime() + peer.backoff.nextDelayNs());
        }
    }
}
