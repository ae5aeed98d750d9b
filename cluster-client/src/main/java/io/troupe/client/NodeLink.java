package io.troupe.client;

import io.aeron.Aeron;
import io.aeron.ChannelUriStringBuilder;
import io.aeron.ExclusivePublication;
import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.interconnect.seal.SessionKeys;
import io.troupe.serialization.wire.ClientProtocol;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.serialization.wire.FrameProtection;
import io.troupe.serialization.wire.Handshake;
import io.troupe.serialization.wire.HandshakeFrame;
import io.troupe.serialization.wire.HandshakePhase;
import io.troupe.serialization.wire.WireFormat;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * The client's side of one session with one node: its two publications to the node, the handshake (HELLO, then
 * CONFIRM once the node's WELCOME proves the secret), and the session's seal once confirmed. The session is open
 * when the first sealed message from the node arrives. Owned by the client's thread.
 */
final class NodeLink
{
    enum State
    {
        /** The publications are not connected yet. */
        CONNECTING,
        /** HELLO sent (again every {@link #HELLO_RESEND_NS} until answered). */
        HELLO_SENT,
        /** CONFIRM sent: open at the node's first sealed message. */
        CONFIRMED,
        /** Sealed messages flow. */
        OPEN,
        /** Given up or ended. */
        CLOSED
    }

    static final long HELLO_RESEND_NS = 250_000_000L;
    private static final byte[] EMPTY = new byte[0];
    private static final SecureRandom RANDOM = new SecureRandom();

    final String endpoint;
    final ExclusivePublication control;
    final ExclusivePublication data;
    final long incarnation;
    final long deadlineNs;
    State state = State.CONNECTING;
    /** The node's id and incarnation, and the Aeron session of its publications to us, from its WELCOME. */
    int nodeId;
    long nodeIncarnation;
    int nodeAeronSession;
    FrameSeal.Sealer sealer;
    FrameSeal.Opener opener;
    long lastHeardNs;
    long nextHeartbeatNs;
    long heartbeatSequence;
    private final byte[] challenge;
    private long nextHelloNs;

    NodeLink(final Aeron aeron, final ClientConfig config, final String endpoint, final byte[] challenge,
        final long nowNs, final long attemptNs)
    {
        this.endpoint = endpoint;
        this.incarnation = RANDOM.nextLong() & Long.MAX_VALUE | 1L;
        this.deadlineNs = nowNs + attemptNs;
        this.challenge = challenge;
        final int sessionId = RANDOM.nextInt();
        this.control = aeron.addExclusivePublication(channel(config, endpoint, sessionId), config.controlStreamId());
        this.data = aeron.addExclusivePublication(channel(config, endpoint, sessionId), config.dataStreamId());
    }

    private static String channel(final ClientConfig config, final String endpoint, final int sessionId)
    {
        return new ChannelUriStringBuilder().media("udp").endpoint(endpoint).termLength(config.termLength())
            .mtu(config.mtuLength()).sessionId(sessionId).build();
    }

    /** Sends the HELLO once the publication is connected, and again until answered. */
    void sendHello(final ClientAgent agent, final long nowNs)
    {
        if (nowNs - nextHelloNs < 0 || !control.isConnected())
        {
            return;
        }
        final byte[] proof = agent.auth.prove(HandshakePhase.HELLO, agent.config.clusterId(), agent.clientId,
            incarnation, 0, 0L, challenge, agent.replyEndpoint.getBytes(StandardCharsets.UTF_8),
            agent.config.protection());
        final Handshake hello = new Handshake(HandshakePhase.HELLO, agent.config.clusterId(), agent.clientId,
            incarnation, 0, 0L, agent.config.minProtocolVersion(), agent.config.maxProtocolVersion(), challenge, proof,
            agent.replyEndpoint, EMPTY,
            agent.config.protection(), EMPTY);
        if (offer(agent.encoder, hello))
        {
            state = State.HELLO_SENT;
            nextHelloNs = nowNs + HELLO_RESEND_NS;
        }
    }

    /**
     * The node's WELCOME: checks that it answers our HELLO and proves the secret, then confirms.
     *
     * @return null if confirmed (or to be ignored), else why the node is not to be trusted.
     */
    String onWelcome(final ClientAgent agent, final HandshakeFrame welcome, final int aeronSession)
    {
        if (state != State.HELLO_SENT || welcome.peerNodeId() != agent.clientId ||
            welcome.peerIncarnation() != incarnation || !Arrays.equals(welcome.echo(), challenge))
        {
            return null; // not an answer to this HELLO (an older one's, or a stranger's)
        }
        final String clusterId = agent.config.clusterId();
        final FrameProtection protection = agent.config.protection();
        if (!agent.auth.verify(HandshakePhase.WELCOME, clusterId, welcome.nodeId(), welcome.incarnation(),
            agent.clientId, incarnation, challenge, EMPTY, protection, welcome.proof()))
        {
            return "its WELCOME does not prove the client secret (different client secrets?)";
        }
        nodeId = welcome.nodeId();
        nodeIncarnation = welcome.incarnation();
        nodeAeronSession = aeronSession;
        final byte[] nodeChallenge = welcome.challenge();
        final byte[] proof = agent.auth.prove(HandshakePhase.CONFIRM, clusterId, agent.clientId, incarnation, nodeId,
            nodeIncarnation, nodeChallenge, EMPTY, protection);
        final Handshake confirm = new Handshake(HandshakePhase.CONFIRM, clusterId, agent.clientId, incarnation, nodeId,
            nodeIncarnation, ClientProtocol.MIN_VERSION, ClientProtocol.VERSION, EMPTY, proof, "", EMPTY, protection,
            nodeChallenge);
        final SessionKeys keys = SessionKeys.derive(SessionKeys.CLIENT_DOMAIN, agent.secret, clusterId, protection,
            agent.clientId, incarnation, nodeId, nodeIncarnation, challenge, nodeChallenge);
        sealer = new FrameSeal.Sealer(protection, keys.sealKey(true), keys.sealKeyId(true));
        opener = new FrameSeal.Opener(protection, keys.openKey(true), keys.openKeyId(true));
        keys.destroy();
        if (!offer(agent.encoder, confirm))
        {
            return "could not send the CONFIRM (the node's stream pushed back)";
        }
        state = State.CONFIRMED;
        return null;
    }

    private boolean offer(final FrameEncoder encoder, final Handshake step)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[WireFormat.MAX_HANDSHAKE_BYTES]);
        final int length = encoder.encodeHandshake(buffer, 0, step);
        return control.offer(buffer, 0, length) > 0;
    }

    boolean isOpen()
    {
        return state == State.OPEN;
    }

    void close()
    {
        state = State.CLOSED;
        CloseHelper.quietCloseAll(control, data);
    }

    @Override
    public String toString()
    {
        return "node " + nodeId + " at " + endpoint;
    }
}
