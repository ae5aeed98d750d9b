package io.troupe.interconnect;

import io.aeron.ExclusivePublication;
import io.troupe.serialization.wire.GoodbyeReason;
import io.troupe.serialization.wire.Handshake;
import io.troupe.serialization.wire.HandshakeFrame;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.serialization.wire.HandshakePhase;
import io.troupe.serialization.wire.TypeTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The session life cycle of every peer, on the agent thread: the handshake (the node with the lower id
 * initiates: HELLO, WELCOME, CONFIRM, each proving the cluster secret over the other side's fresh
 * challenge), heartbeats and failure detection, goodbyes, and the control frames that carry them. A peer
 * that shows up with a new incarnation ends its old session first. WELCOME and CONFIRM carry the sender's
 * application event types ({@link TypeTable}), bound to its proof; a side that finds one type id bound to
 * something else on the other refuses the handshake, naming the types.
 */
final class Sessions
{
    private static final Logger LOG = LoggerFactory.getLogger(Sessions.class);
    private static final byte[] NONE = new byte[0];

    private final InterconnectAgent agent;
    private final HandshakeAuth auth;
    private final EventCodecRegistry codecs;
    private final byte[] ourTypes;
    private final RefusalLog refusals = new RefusalLog();
    private final String clusterId;
    private final long handshakeTimeoutNs;
    final AtomicLong unknownNodeHandshakes = new AtomicLong();
    /** Handshakes this node refused because the peer binds one of its type ids to another type. */
    final AtomicLong typeConflicts = new AtomicLong();

    Sessions(final InterconnectAgent agent, final HandshakeAuth auth, final EventCodecRegistry codecs)
    {
        this.agent = agent;
        this.auth = auth;
        this.codecs = codecs;
        this.ourTypes = TypeTable.encode(codecs);
        this.clusterId = agent.config.clusterId();
        this.handshakeTimeoutNs = agent.config.failureTimeout().toNanos();
    }

    /** Timers of one peer: handshake (re)tries, heartbeats, failure detection. */
    int onTick(final Peer peer, final long nowNs)
    {
        switch (peer.state)
        {
            case Peer.ESTABLISHED:
                if (!peer.detector.isAlive(nowNs))
                {
                    agent.sessionLost(peer, "nothing heard for " + peer.detector.silenceNs(nowNs) / 1_000_000 + " ms");
                    peer.nextHandshakeNs = nowNs + peer.backoff.nextDelayNs();
                    return 1;
                }
                if (peer.detector.heartbeatDue(nowNs))
                {
                    if (sendHeartbeat(peer, nowNs))
                    {
                        peer.detector.onHeartbeatSent(nowNs);
                    }
                    return 1;
                }
                return 0;
            case Peer.WELCOME_SENT:
                if (nowNs - peer.nextHandshakeNs >= 0)
                {
                    peer.state = Peer.DISCONNECTED; // no CONFIRM came: wait for the initiator's next HELLO
                    return 1;
                }
                return 0;
            default:
                if (peer.initiator && !agent.isClosing() && nowNs - peer.nextHandshakeNs >= 0)
                {
                    sendHello(peer);
                    peer.nextHandshakeNs = nowNs + peer.backoff.nextDelayNs();
                    return 1;
                }
                return 0;
        }
    }

    void onHandshake(final HandshakeFrame frame, final int sessionId, final long nowNs)
    {
        final Peer peer = agent.peersById.get(frame.nodeId());
        if (peer == null)
        {
            unknownNodeHandshakes.incrementAndGet(); // no publication to answer on: counted and logged once
            if (refusals.shouldLog(frame.nodeId(), "unknown node"))
            {
                LOG.warn("node {}: handshake from node {}, which is not among its peers; ignored", agent.nodeId, frame.nodeId());
            }
            return;
        }
        switch (frame.phase())
        {
            case HELLO:
                onHello(peer, frame, sessionId, nowNs);
                break;
            case WELCOME:
                onWelcome(peer, frame, sessionId, nowNs);
                break;
            case CONFIRM:
                onConfirm(peer, frame, sessionId, nowNs);
                break;
            case REFUSE:
                if (frame.peerIncarnation() == agent.incarnation || frame.peerIncarnation() == 0)
                {
                    peer.handshakesRefused++;
                    if (refusals.shouldLog(peer.nodeId, "refused: " + frame.detail()))
                    {
                        LOG.warn("node {}: node {} refused the handshake: {}", agent.nodeId, peer.nodeId, frame.detail());
                    }
                    if (peer.state != Peer.ESTABLISHED)
                    {
                        peer.state = Peer.DISCONNECTED;
                    }
                }
                break;
            default:
                peer.rejectedFrames++;
                break;
        }
    }

    private void onHello(final Peer peer, final HandshakeFrame frame, final int sessionId, final long nowNs)
    {
        final String problem = checkIdentity(frame);
        if (problem != null)
        {
            refuse(peer, problem, frame.incarnation(), nowNs);
            return;
        }
        if (peer.state == Peer.ESTABLISHED)
        {
            agent.sessionLost(peer, frame.incarnation() != peer.peerIncarnation ?
                "node restarted (incarnation " + peer.peerIncarnation + " -> " + frame.incarnation() + ")" :
                "node started a new handshake");
        }
        peer.peerIncarnation = frame.incarnation();
        peer.peerSessionId = sessionId;
        peer.ourChallenge = auth.newChallenge();
        final byte[] proof = auth.prove(HandshakePhase.WELCOME, clusterId, agent.nodeId, agent.incarnation,
            peer.nodeId, frame.incarnation(), frame.challenge(), ourTypes);
        send(peer, new Handshake(HandshakePhase.WELCOME, clusterId, agent.nodeId, agent.incarnation, peer.nodeId,
            frame.incarnation(), InterconnectConfig.MIN_PROTOCOL_VERSION, InterconnectConfig.PROTOCOL_VERSION,
            peer.ourChallenge, proof, "", ourTypes));
        peer.state = Peer.WELCOME_SENT;
        peer.nextHandshakeNs = nowNs + handshakeTimeoutNs;
    }

    private void onWelcome(final Peer peer, final HandshakeFrame frame, final int sessionId, final long nowNs)
    {
        if (peer.state != Peer.HELLO_SENT || frame.peerIncarnation() != agent.incarnation)
        {
            return; // an answer to an older HELLO of ours
        }
        final byte[] theirTypes = frame.types();
        String problem = checkIdentity(frame);
        if (problem == null && !auth.verify(HandshakePhase.WELCOME, clusterId, peer.nodeId, frame.incarnation(),
            agent.nodeId, agent.incarnation, peer.ourChallenge, theirTypes, frame.proof()))
        {
            problem = "its proof of the cluster secret is wrong (different cluster secrets?)";
        }
        if (problem == null)
        {
            problem = checkTypes(theirTypes, peer);
        }
        if (problem != null)
        {
            refuse(peer, problem, frame.incarnation(), nowNs);
            return;
        }
        final byte[] proof = auth.prove(HandshakePhase.CONFIRM, clusterId, agent.nodeId, agent.incarnation,
            peer.nodeId, frame.incarnation(), frame.challenge(), ourTypes);
        send(peer, new Handshake(HandshakePhase.CONFIRM, clusterId, agent.nodeId, agent.incarnation, peer.nodeId,
            frame.incarnation(), InterconnectConfig.MIN_PROTOCOL_VERSION, InterconnectConfig.PROTOCOL_VERSION,
            NONE, proof, "", ourTypes));
        peer.peerIncarnation = frame.incarnation();
        peer.peerSessionId = sessionId;
        refusals.clear(peer.nodeId);
        agent.sessionUp(peer, false);
    }

    private void onConfirm(final Peer peer, final HandshakeFrame frame, final int sessionId, final long nowNs)
    {
        if (peer.state != Peer.WELCOME_SENT || frame.incarnation() != peer.peerIncarnation ||
            frame.peerIncarnation() != agent.incarnation || sessionId != peer.peerSessionId)
        {
            return;
        }
        final byte[] theirTypes = frame.types();
        if (!auth.verify(HandshakePhase.CONFIRM, clusterId, peer.nodeId, frame.incarnation(), agent.nodeId,
            agent.incarnation, peer.ourChallenge, theirTypes, frame.proof()))
        {
            refuse(peer, "its proof of the cluster secret is wrong (different cluster secrets?)", frame.incarnation(), nowNs);
            return;
        }
        final String conflict = checkTypes(theirTypes, peer);
        if (conflict != null)
        {
            refuse(peer, conflict, frame.incarnation(), nowNs);
            return;
        }
        refusals.clear(peer.nodeId);
        agent.sessionUp(peer, true);
        if (sendHeartbeat(peer, nowNs)) // tells the initiator, now, that its envelopes are welcome
        {
            peer.detector.onHeartbeatSent(nowNs);
        }
    }

    /** Null if the peer's verified type table agrees with this node's codecs; else which types conflict. */
    private String checkTypes(final byte[] theirTypes, final Peer peer)
    {
        final String conflict = TypeTable.conflicts(codecs, theirTypes, peer.nodeId);
        if (conflict != null)
        {
            typeConflicts.incrementAndGet();
        }
        return conflict;
    }

    /** Null if the frame's cluster, addressee and versions fit; else what is wrong. */
    private String checkIdentity(final HandshakeFrame frame)
    {
        if (!clusterId.equals(frame.clusterId()))
        {
            return "cluster id '" + frame.clusterId() + "' is not this cluster's ('" + clusterId + "')";
        }
        if (frame.peerNodeId() != agent.nodeId)
        {
            return "it was addressed to node " + frame.peerNodeId() + ", this is node " + agent.nodeId;
        }
        if (frame.challenge().length != HandshakeAuth.CHALLENGE_BYTES)
        {
            return "its challenge is " + frame.challenge().length + " bytes, not " + HandshakeAuth.CHALLENGE_BYTES;
        }
        if (HandshakeAuth.negotiateVersion(InterconnectConfig.MIN_PROTOCOL_VERSION, InterconnectConfig.PROTOCOL_VERSION,
            frame.minProtocolVersion(), frame.maxProtocolVersion()) < 0)
        {
            return "protocol versions " + frame.minProtocolVersion() + ".." + frame.maxProtocolVersion() +
                " do not overlap this node's " + InterconnectConfig.MIN_PROTOCOL_VERSION + ".." +
                InterconnectConfig.PROTOCOL_VERSION;
        }
        return null;
    }

    private void refuse(final Peer peer, final String problem, final long theirIncarnation, final long nowNs)
    {
        peer.handshakesRefused++;
        if (refusals.shouldLog(peer.nodeId, problem))
        {
            LOG.warn("node {}: refused the handshake of node {}: {}; retrying with back-off", agent.nodeId, peer.nodeId, problem);
        }
        send(peer, new Handshake(HandshakePhase.REFUSE, clusterId, agent.nodeId, agent.incarnation, peer.nodeId,
            theirIncarnation, InterconnectConfig.MIN_PROTOCOL_VERSION, InterconnectConfig.PROTOCOL_VERSION, NONE, NONE,
            "node " + agent.nodeId + " refused: " + problem));
        if (peer.state != Peer.ESTABLISHED)
        {
            peer.state = Peer.DISCONNECTED;
            peer.nextHandshakeNs = nowNs + peer.backoff.nextDelayNs();
        }
    }

    private void sendHello(final Peer peer)
    {
        if (peer.state != Peer.HELLO_SENT || peer.ourChallenge == null)
        {
            // a retry keeps its challenge: a WELCOME answering the first HELLO still verifies
            peer.ourChallenge = auth.newChallenge();
        }
        peer.state = Peer.HELLO_SENT;
        send(peer, new Handshake(HandshakePhase.HELLO, clusterId, agent.nodeId, agent.incarnation, peer.nodeId, 0L,
            InterconnectConfig.MIN_PROTOCOL_VERSION, InterconnectConfig.PROTOCOL_VERSION, peer.ourChallenge, NONE, ""));
    }

    private boolean send(final Peer peer, final Handshake step)
    {
        final int length = agent.encoder.encodeHandshake(agent.scratch, 0, step);
        return offer(peer.control, length);
    }

    boolean sendHeartbeat(final Peer peer, final long nowNs)
    {
        // the echo: the peer's last heartbeat and how long we held it (0 if it came in this cycle, after nowNs)
        final long echoDelayNs = peer.peerHeartbeatSendTimeNs == 0 ? 0 :
            Math.max(0, nowNs - peer.peerHeartbeatReceivedNs);
        final int length = agent.encoder.encodeHeartbeat(agent.scratch, 0, agent.nodeId, agent.incarnation, nowNs,
            ++peer.heartbeatSequence, peer.peerHeartbeatSendTimeNs, echoDelayNs);
        return offer(peer.control, length);
    }

    boolean sendAck(final Peer peer, final int streamId, final long position)
    {
        final int length = agent.encoder.encodeAck(agent.scratch, 0, agent.nodeId, agent.incarnation, streamId, position);
        return offer(peer.control, length);
    }

    boolean sendGoodbye(final Peer peer, final GoodbyeReason reason, final String detail)
    {
        final int length = agent.encoder.encodeGoodbye(agent.scratch, 0, agent.nodeId, agent.incarnation, reason, detail);
        return offer(peer.control, length);
    }

    private boolean offer(final ExclusivePublication publication, final int length)
    {
        return publication.offer(agent.scratch, 0, length) > 0;
    }
}
