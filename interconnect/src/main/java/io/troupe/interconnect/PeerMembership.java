package io.troupe.interconnect;

import io.troupe.actor.TerminationReason;
import io.troupe.actor.UndeliveredReason;
import io.troupe.serialization.wire.GoodbyeReason;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Peers that join and leave while the node runs ({@link Interconnect#addPeer}, {@link Interconnect#removePeer}),
 * applied on the interconnect agent's thread, in the order the API calls were made.
 *
 * <p>An added peer is opened as a configured one is at start (publications under a fresh Aeron session, an outbound
 * queue on an account of its own) and its handshakes start at once. A removed peer's session ends as on a
 * disconnect, with a goodbye if it was up (what was in flight and queued is reported {@code Undelivered(DISCONNECTED)},
 * its credit written off); then its session machine moves to {@link PeerSession.State#REMOVED} (no more handshake
 * retries), it leaves the roster (a send to its node is refused as to an unknown node; counters no longer list it)
 * and its publications close. Its outbound queue is closed as a collapse is, so that a sender that found the peer
 * just before it went is refused too; the frames such a sender managed to link are reported by the agent, which
 * drains the closed queue until no sender can still be linking one, and then closes the peer's memory account.
 */
final class PeerMembership
{
    private static final Logger LOG = LoggerFactory.getLogger(PeerMembership.class);

    private final InterconnectAgent agent;
    /** Removed peers whose closed queue a sender may still be linking a frame into. */
    private final List<Peer> retiring = new ArrayList<>();
    private final Consumer<OutboundFrame> dropRemoved = this::dropRemoved;
    /** Events that were queued for peers when they were removed, or sent to them as they went. */
    final AtomicLong lostToRemovedPeers = new AtomicLong();

    PeerMembership(final InterconnectAgent agent)
    {
        this.agent = agent;
    }

    /** A new peer: opened, and its first HELLO (if this node initiates) is due at once. */
    void add(final PeerAddress address)
    {
        final Peer peer = agent.roster.open(address, PeerPublications.newSessionId(0));
        final long nowNs = agent.clock.nanoTime();
        peer.detector.reset(nowNs);
        peer.retryHelloAt(nowNs);
        LOG.info("node {}: node {} at {} is a peer now", agent.nodeId, address.nodeId(), address.endpoint());
    }

    /** A peer leaves (see the class comment); an unknown node id changes nothing (the API refused it already). */
    void remove(final int nodeId)
    {
        final Peer peer = agent.roster.byId(nodeId);
        if (peer == null)
        {
            return;
        }
        final String why = "node " + agent.nodeId + " removed node " + nodeId + " from its peers";
        final long lostBefore = peer.lostQueued;
        if (peer.isUp())
        {
            agent.sayGoodbye(peer, GoodbyeReason.SHUTDOWN, why);
            agent.lifecycle.sessionLost(peer, why);
        }
        peer.peerRemoved();
        agent.host.nodeGone(nodeId, TerminationReason.NODE_DOWNED); // watches of its actors end here
        // what a sender queued as the session went down
        agent.lifecycle.failQueued(peer, UndeliveredReason.DISCONNECTED);
        lostToRemovedPeers.addAndGet(peer.lostQueued - lostBefore);
        agent.credit.onSessionLost(nodeId); // nothing is held without a session; its shadows go
        agent.directory.onSessionLost(peer);
        agent.inbound.directory.onSessionLost(peer);
        if (peer.chunks != null)
        {
            peer.chunks.reset();
        }
        agent.roster.close(peer);
        peer.outbound.close();
        if (!retire(peer))
        {
            retiring.add(peer);
        }
        LOG.info("node {}: node {} is no longer a peer", agent.nodeId, nodeId);
    }

    /** Drains the closed queues of removed peers that a sender may still be linking into; each duty cycle. */
    int drainRetiring()
    {
        if (retiring.isEmpty())
        {
            return 0;
        }
        final int before = retiring.size();
        retiring.removeIf(this::retire);
        return before - retiring.size();
    }

    /** Reports what a sender linked into a removed peer's closed queue; true (the account closed) once none can. */
    private boolean retire(final Peer peer)
    {
        if (!peer.outbound.drainCollapsed(dropRemoved))
        {
            return false;
        }
        peer.account.close();
        return true;
    }

    private void dropRemoved(final OutboundFrame frame)
    {
        lostToRemovedPeers.incrementAndGet();
        agent.lifecycle.report(frame, UndeliveredReason.DISCONNECTED);
    }
}
