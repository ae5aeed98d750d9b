package io.troupe.interconnect;

import io.troupe.actor.TerminationReason;
import io.troupe.interconnect.seal.HandshakeAuth;
import io.troupe.interconnect.seal.SessionKeys;
import io.troupe.interconnect.seal.FrameSeal;
import io.aeron.ExclusivePublication;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.serialization.wire.FrameProtection;
import io.troupe.serialization.wire.GoodbyeReason;
import io.troupe.serialization.wire.Handshake;
import io.troupe.serialization.wire.HandshakeFrame;
import io.troupe.serialization.wire.HandshakePhase;
import io.troupe.serialization.wire.TypeTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The session life cycle of every peer, on the agent thread: the handshake, heartbeats and failure detection,
 * goodbyes, and the control frames that carry them.
 *
 * <p>The node with the lower id initiates: HELLO, WELCOME, CONFIRM, each proving the cluster secret
 * ({@link HandshakeAuth}); WELCOME and CONFIRM echo the challenge they answer, so a step of an earlier attempt
 * is told apart (ignored and counted) from a wrong secret. A handshake attempt runs beside the session, if there
 * is one, and replaces it only when it completes: for the acceptor when the CONFIRM verifies, for the initiator
 * when the first frame sealed with the new keys arrives, which the acceptor sends only after verifying the
 * CONFIRM. So a session is up only when both sides have verified each other, and nothing unauthenticated (a
 * HELLO, a REFUSE, a stale step) ever ends or blocks one; a session ends only on a verified GOODBYE, a verified
 * new handshake, a damaged stream or the failure detector. HELLOs are rate-limited per claimed node.
 *
 * <p>WELCOME and CONFIRM also carry the sender's application event types ({@link TypeTable}), bound to its
 * proof; a side that finds one type id bound to something else on the other refuses, naming the types.
 */
final class Sessions
{
    /** Verified HELLOs of a claimed node answered at once (and REFUSEs sent to it, counted apart)... */
    static final int HELLO_BURST = 8;
    /** ...and then one per this many nanoseconds (20 a second, well above the initiator's retry back-off). */
    static final long HELLO_REFILL_NS = 50_000_000L;

    private static final Logger LOG = LoggerFactory.getLogger(Sessions.class);
    private static final byte[] NONE = new byte[0];
    private static final String WRONG_SECRET = "its proof of the cluster secret is wrong (different cluster secrets?)";

    private final InterconnectAgent agent;
    private final HandshakeAuth auth;
    private final byte[] secret;
    private final FrameProtection protection;
    private final EventCodecRegistry codecs;
    private final byte[] ourTypes;
    private final RefusalLog refusals = new RefusalLog();
    private final String clusterId;
    private final long handshakeTimeoutNs;
    /** Handshakes this node refused because the peer binds one of its type ids to another type. */
    final AtomicLong typeConflicts = new AtomicLong();
    /** HELLOs this node sent, first tries and retries (read by tests, on the agent's thread or racily). */
    volatile long hellosSent;

    Sessions(final InterconnectAgent agent, final HandshakeAuth auth, final EventCodecRegistry codecs)
    {
        this.agent = agent;
        this.auth = auth;
        this.secret = agent.config.clusterSecret();
        this.protection = agent.config.frameProtection();
        this.codecs = codecs;
        this.ourTypes = TypeTable.encode(codecs);
        this.clusterId = agent.config.clusterId();
        this.handshakeTimeoutNs = agent.config.failureTimeout().toNanos();
    }

    /** Timers of one peer: handshake (re)tries and attempt deadlines, heartbeats, failure detection. */
    int onTick(final Peer peer, final long nowNs)
    {
        int work = 0;
        if (peer.attemptExpired(nowNs))
        {
            peer.attemptEnded(); // no CONFIRM, or no sealed frame after ours: the next HELLO starts afresh
            peer.retryHelloAt(nowNs + peer.backoff.nextDelayNs());
            work++;
        }
        if (peer.isUp())
        {
            if (!peer.detector.isAlive(nowNs))
            {
                agent.lifecycle.sessionLost(peer,
                    "nothing heard for " + peer.detector.silenceNs(nowNs) / 1_000_000 + " ms");
                agent.renewPublications(peer, "the session ended in silence");
                peer.retryHelloAt(nowNs + peer.backoff.nextDelayNs());
                return work + 1;
            }
            if (peer.detector.heartbeatDue(nowNs))
            {
                if (sendHeartbeat(peer, nowNs))
                {
                    peer.detector.onHeartbeatSent(nowNs);
                }
                work++;
            }
            return work;
        }
        if (!agent.isClosing() && peer.helloDue(nowNs))
        {
            sendHello(peer);
            peer.retryHelloAt(nowNs + peer.backoff.nextDelayNs());
            work++;
        }
        return work;
    }

    /** A handshake step, unsealed, from the Aeron session {@code sessionId}. */
    void onHandshake(final HandshakeFrame frame, final int sessionId, final long nowNs)
    {
        final Peer peer = agent.roster.byId(frame.nodeId());
        if (peer == null)
        {
            agent.reject(FrameRejection.UNKNOWN_NODE); // no publication to answer on: counted and logged once
            if (refusals.shouldLog(frame.nodeId(), "unknown node"))
            {
                LOG.warn("node {}: handshake from node {}, which is not among its peers; ignored", agent.nodeId,
                    frame.nodeId());
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
                onRefuse(peer, frame);
                break;
            default:
                agent.reject(FrameRejection.MALFORMED);
                break;
        }
    }

    private void onRefuse(final Peer peer, final HandshakeFrame frame)
    {
        // unauthenticated: anyone can send one, so it changes nothing; the attempt runs to its own end
        agent.reject(FrameRejection.REFUSE_RECEIVED);
        if (frame.peerIncarnation() == agent.incarnation || frame.peerIncarnation() == 0)
        {
            peer.handshakesRefused++;
            // from the network, unauthenticated: kept printable and short before anyone shows it
            final String detail = printable(frame.detail(), 200);
            final String prefix = "node " + peer.nodeId + " refused: ";
            peer.refusal = "node " + peer.nodeId + " refuses: " + (detail.startsWith(prefix) ?
                detail.substring(prefix.length()) : detail);
            if (refusals.shouldLog(peer.nodeId, "refused: " + frame.detail()))
            {
                LOG.warn("node {}: node {} refused the handshake: {}", agent.nodeId, peer.nodeId, frame.detail());
            }
        }
    }

    private void onHello(final Peer peer, final HandshakeFrame frame, final int sessionId, final long nowNs)
    {
        if (peer.initiator)
        {
            agent.reject(FrameRejection.MALFORMED); // we initiate with this peer: it never sends a HELLO
            return;
        }
        final String problem = checkIdentity(frame, frame.challenge());
        if (problem != null)
        {
            refuse(peer, problem, frame.incarnation(), nowNs);
            return;
        }
        final byte[] challenge = frame.challenge();
        if (!auth.verify(HandshakePhase.HELLO, clusterId, peer.nodeId, frame.incarnation(), agent.nodeId, 0L, challenge,
            NONE, frame.protection(), frame.proof()))
        {
            agent.reject(FrameRejection.BAD_PROOF); // forged: it uses up none of the genuine node's HELLO budget
            refuse(peer, WRONG_SECRET, frame.incarnation(), nowNs);
            return;
        }
        if (peer.isStaleHello(frame.incarnation()))
        {
            agent.reject(FrameRejection.STALE_HANDSHAKE); // a copy of an earlier incarnation's HELLO
            return;
        }
        if (!agent.hearsStreamsOf(sessionId))
        {
            return; // answered when the initiator retries, once its data and bulk streams are heard here
        }
        if (!peer.hellos.take(nowNs))
        {
            agent.reject(FrameRejection.HELLO_RATE_LIMITED); // each answer costs a proof and a fresh challenge
            return;
        }
        if (!peer.isRepeatedHello(frame.incarnation(), sessionId, challenge))
        {
            // a new attempt; a session with the peer, if any, stays until the attempt completes
            peer.attemptEnded();
            if (!peer.helloAnswered(frame.incarnation(), sessionId, challenge, auth.newChallenge(),
                nowNs + handshakeTimeoutNs))
            {
                return; // refused and counted by the peer's session: nothing to answer with
            }
        }
        // a repeated HELLO (the initiator retried, or we were paused) gets the same WELCOME again
        final byte[] proof = auth.prove(HandshakePhase.WELCOME, clusterId, agent.nodeId, agent.incarnation,
            peer.nodeId, frame.incarnation(), challenge, ourTypes, protection);
        send(peer, new Handshake(HandshakePhase.WELCOME, clusterId, agent.nodeId, agent.incarnation, peer.nodeId,
            frame.incarnation(), InterconnectConfig.MIN_PROTOCOL_VERSION, InterconnectConfig.PROTOCOL_VERSION,
            peer.ourChallenge(), proof, "", ourTypes, protection, challenge));
    }

    private void onWelcome(final Peer peer, final HandshakeFrame frame, final int sessionId, final long nowNs)
    {
        if (!peer.initiator || frame.peerIncarnation() != agent.incarnation || !peer.answersOurHello(frame.echo()))
        {
            agent.reject(FrameRejection.STALE_HANDSHAKE); // an answer to an earlier HELLO of ours, or to none
            return;
        }
        final String problem = verifyStep(peer, frame, HandshakePhase.WELCOME, checkIdentity(frame, frame.challenge()));
        if (problem != null)
        {
            refuse(peer, problem, frame.incarnation(), nowNs);
            peer.attemptEnded();
            peer.retryHelloAt(nowNs + peer.backoff.nextDelayNs());
            return;
        }
        if (!agent.hearsStreamsOf(sessionId))
        {
            return; // the attempt stays at HELLO_SENT: the retried HELLO brings the same WELCOME again
        }
        final byte[] proof = auth.prove(HandshakePhase.CONFIRM, clusterId, agent.nodeId, agent.incarnation,
            peer.nodeId, frame.incarnation(), frame.challenge(), ourTypes, protection);
        send(peer, new Handshake(HandshakePhase.CONFIRM, clusterId, agent.nodeId, agent.incarnation, peer.nodeId,
            frame.incarnation(), InterconnectConfig.MIN_PROTOCOL_VERSION, InterconnectConfig.PROTOCOL_VERSION,
            NONE, proof, "", ourTypes, protection, frame.challenge()));
        final SessionKeys keys = SessionKeys.derive(secret, clusterId, protection, agent.nodeId, agent.incarnation,
            peer.nodeId, frame.incarnation(), peer.ourChallenge(), frame.challenge());
        // its sealed frames may come now
        peer.welcomeReceived(frame.incarnation(), sessionId, frame.challenge(), sealer(keys, true), opener(keys, true),
            nowNs + handshakeTimeoutNs);
        keys.destroy();
    }

    private void onConfirm(final Peer peer, final HandshakeFrame frame, final int sessionId, final long nowNs)
    {
        if (!peer.answersOurWelcome(frame.incarnation(), sessionId, frame.echo()) ||
            frame.peerIncarnation() != agent.incarnation)
        {
            agent.reject(FrameRejection.STALE_HANDSHAKE); // answers a WELCOME that is not our current one
            return;
        }
        final String problem = verifyStep(peer, frame, HandshakePhase.CONFIRM,
            frame.protection() != protection ? protectionMismatch(frame.protection()) : null);
        if (problem != null)
        {
            refuse(peer, problem, frame.incarnation(), nowNs);
            peer.attemptEnded();
            return;
        }
        final SessionKeys keys = SessionKeys.derive(secret, clusterId, protection, peer.nodeId,
            peer.attemptIncarnation(), agent.nodeId, agent.incarnation, peer.theirChallenge(), peer.ourChallenge());
        final FrameSeal.Sealer sealer = sealer(keys, false);
        final FrameSeal.Opener opener = opener(keys, false);
        keys.destroy();
        if (!completeAttempt(peer, sealer, opener, "a new handshake of incarnation " + frame.incarnation()))
        {
            return;
        }
        if (sendHeartbeat(peer, nowNs)) // tells the initiator, now, that its session is up here
        {
            peer.detector.onHeartbeatSent(nowNs);
        }
    }

    /**
     * The first frame sealed with an initiator's new keys arrived and verified: the acceptor has verified our
     * CONFIRM, so the attempt completes.
     */
    void onFirstSealedFrame(final Peer peer)
    {
        completeAttempt(peer, null, null, "a new handshake of incarnation " + peer.attemptIncarnation());
    }

    /**
     * The attempt's keys become the session's (the acceptor's, given; the initiator's, pending since its CONFIRM);
     * a session it replaces ends first.
     *
     * @return whether the session is up (false: the peer's session machine refused, and counted, the move).
     */
    private boolean completeAttempt(final Peer peer, final FrameSeal.Sealer sealer, final FrameSeal.Opener opener,
        final String why)
    {
        if (peer.isUp())
        {
            agent.lifecycle.sessionLost(peer, peer.incarnation() != peer.attemptIncarnation() ?
                "node restarted (incarnation " + peer.incarnation() + " -> " + peer.attemptIncarnation() + ")" :
                "replaced by " + why);
        }
        if (peer.incarnation() != 0 && peer.incarnation() != peer.attemptIncarnation())
        {
            // every actor of the incarnation this node knew is gone: their watchers hear it before the new session
            agent.host.nodeGone(peer.nodeId, TerminationReason.NODE_RESTARTED);
        }
        refusals.clear(peer.nodeId);
        peer.refusal = null;
        final boolean up = sealer == null ? peer.firstSealedFrameSeen() : peer.confirmed(sealer, opener);
        if (up)
        {
            agent.lifecycle.sessionUp(peer);
        }
        return up;
    }

    private FrameSeal.Sealer sealer(final SessionKeys keys, final boolean initiator)
    {
        return new FrameSeal.Sealer(protection, keys.sealKey(initiator), keys.sealKeyId(initiator));
    }

    private FrameSeal.Opener opener(final SessionKeys keys, final boolean initiator)
    {
        return new FrameSeal.Opener(protection, keys.openKey(initiator), keys.openKeyId(initiator));
    }

    /**
     * Checks a WELCOME or CONFIRM that answers our current attempt: a problem found before, else its proof over our
     * challenge, else its type table.
     *
     * @return null if it is good; else what is wrong.
     */
    private String verifyStep(final Peer peer, final HandshakeFrame frame, final HandshakePhase phase,
        final String problem)
    {
        if (problem != null)
        {
            return problem;
        }
        final byte[] theirTypes = frame.types();
        if (!auth.verify(phase, clusterId, peer.nodeId, frame.incarnation(), agent.nodeId, agent.incarnation,
            peer.ourChallenge(), theirTypes, frame.protection(), frame.proof()))
        {
            agent.reject(FrameRejection.BAD_PROOF);
            return WRONG_SECRET;
        }
        return checkTypes(theirTypes, peer);
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

    /** Null if the frame's cluster, addressee, versions, challenge and protection fit; else what is wrong. */
    private String checkIdentity(final HandshakeFrame frame, final byte[] challenge)
    {
        if (!clusterId.equals(frame.clusterId()))
        {
            return "cluster id '" + frame.clusterId() + "' is not this cluster's ('" + clusterId + "')";
        }
        if (frame.peerNodeId() != agent.nodeId)
        {
            return "it was addressed to node " + frame.peerNodeId() + ", this is node " + agent.nodeId;
        }
        if (HandshakeAuth.negotiateVersion(InterconnectConfig.MIN_PROTOCOL_VERSION, InterconnectConfig.PROTOCOL_VERSION,
            frame.minProtocolVersion(), frame.maxProtocolVersion()) < 0)
        {
            return "protocol versions " + frame.minProtocolVersion() + ".." + frame.maxProtocolVersion() +
                " do not overlap this node's " + InterconnectConfig.MIN_PROTOCOL_VERSION + ".." +
                InterconnectConfig.PROTOCOL_VERSION;
        }
        if (challenge.length != HandshakeAuth.CHALLENGE_BYTES)
        {
            return "its challenge is " + challenge.length + " bytes, not " + HandshakeAuth.CHALLENGE_BYTES;
        }
        if (frame.protection() != protection)
        {
            return protectionMismatch(frame.protection());
        }
        return null;
    }

    private String protectionMismatch(final FrameProtection theirs)
    {
        return "it protects frames as " + theirs + ", this node as " + protection +
            " (set the same frame protection on every node)";
    }

    /** At most {@code max} characters of {@code text}, each one printable ASCII ('?' for any other). */
    static String printable(final String text, final int max)
    {
        final StringBuilder out = new StringBuilder(Math.min(text.length(), max));
        for (int i = 0; i < text.length() && out.length() < max; i++)
        {
            final char c = text.charAt(i);
            out.append(c >= 0x20 && c < 0x7F ? c : '?');
        }
        return text.length() > max ? out + "..." : out.toString();
    }

    private void refuse(final Peer peer, final String problem, final long theirIncarnation, final long nowNs)
    {
        peer.handshakesRefused++;
        peer.refusal = "refused node " + peer.nodeId + ": " + problem;
        if (refusals.shouldLog(peer.nodeId, problem))
        {
            LOG.warn("node {}: refused the handshake of node {}: {}; retrying with back-off", agent.nodeId, peer.nodeId,
                problem);
        }
        if (!peer.refusalsSent.take(nowNs))
        {
            return; // a flood of bad steps gets a few answers, not one each
        }
        send(peer, new Handshake(HandshakePhase.REFUSE, clusterId, agent.nodeId, agent.incarnation, peer.nodeId,
            theirIncarnation, InterconnectConfig.MIN_PROTOCOL_VERSION, InterconnectConfig.PROTOCOL_VERSION, NONE, NONE,
            "node " + agent.nodeId + " refused: " + problem, NONE, protection, NONE));
    }

    private void sendHello(final Peer peer)
    {
        // a retry keeps its challenge: a WELCOME answering the first HELLO still fits
        final byte[] challenge = peer.attempt() == PeerSession.Attempt.HELLO_SENT ? peer.ourChallenge() :
            auth.newChallenge();
        peer.helloSent(challenge);
        hellosSent++;
        final byte[] proof = auth.prove(HandshakePhase.HELLO, clusterId, agent.nodeId, agent.incarnation, peer.nodeId,
            0L, challenge, NONE, protection);
        send(peer, new Handshake(HandshakePhase.HELLO, clusterId, agent.nodeId, agent.incarnation, peer.nodeId, 0L,
            InterconnectConfig.MIN_PROTOCOL_VERSION, InterconnectConfig.PROTOCOL_VERSION, challenge, proof, "",
            NONE, protection, NONE));
    }

    private boolean send(final Peer peer, final Handshake step)
    {
        final int length = agent.encoder.encodeHandshake(agent.scratch, 0, step);
        return peer.control.offer(agent.scratch, 0, length) > 0; // handshake steps are the only unsealed frames
    }

    boolean sendHeartbeat(final Peer peer, final long nowNs)
    {
        // the echo: the peer's last heartbeat and how long we held it (0 if it came in this cycle, after nowNs)
        final long echoDelayNs = peer.peerHeartbeatSendTimeNs == 0 ? 0 :
            Math.max(0, nowNs - peer.peerHeartbeatReceivedNs);
        final int length = agent.encoder.encodeHeartbeat(agent.scratch, 0, agent.nodeId, agent.incarnation, nowNs,
            ++peer.heartbeatSequence, peer.peerHeartbeatSendTimeNs, echoDelayNs);
        return offerControl(peer, length);
    }

    boolean sendAck(final Peer peer, final int streamId, final long position)
    {
        final int length = agent.encoder.encodeAck(agent.scratch, 0, agent.nodeId, agent.incarnation, streamId,
            position);
        return offerControl(peer, length);
    }

    boolean sendGoodbye(final Peer peer, final GoodbyeReason reason, final String detail)
    {
        final int length = agent.encoder.encodeGoodbye(agent.scratch, 0, agent.nodeId, agent.incarnation, reason,
            detail);
        return offerControl(peer, length);
    }

    /** Offers a control frame the agent encoded into its scratch buffer, sealed. */
    private boolean offerControl(final Peer peer, final int length)
    {
        final ExclusivePublication control = peer.control;
        return peer.offerSealed(FrameSeal.CONTROL, control, agent.scratch, 0, length, agent.sealBuffer) > 0;
    }
}
