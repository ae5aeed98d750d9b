package io.troupe.node.client;

import io.aeron.Aeron;
import io.aeron.ChannelUriStringBuilder;
import io.aeron.ExclusivePublication;
import io.aeron.exceptions.AeronException;
import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.interconnect.seal.HandshakeAuth;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * The node's side of a client's handshake (see {@link ClientProtocol}): checks a HELLO (rate, endpoint, versions,
 * cluster, protection, proof, room) before anything is made for it, answers a good one with a WELCOME on
 * publications to the client's endpoint, and opens the session on a CONFIRM that proves the secret over the node's
 * fresh challenge. A refusal is told on a short-lived publication of its own (at most {@link #MAX_REFUSALS} at once,
 * each closed after {@link #REFUSAL_LINGER_NS}), since the client may not yet have a session to hear it on.
 * Owned by the ingress agent's thread.
 */
final class ClientHandshakes
{
    private static final Logger LOG = LoggerFactory.getLogger(ClientIngress.class);
    static final int MAX_REFUSALS = 8;
    static final long REFUSAL_LINGER_NS = 2_000_000_000L;
    private static final byte[] EMPTY = new byte[0];
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ClientIngressAgent agent;
    private final HandshakeAuth auth;
    private final byte[] secret;
    private final List<Refusal> refusals = new ArrayList<>();
    private final FrameEncoder encoder = new FrameEncoder();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[WireFormat.MAX_HANDSHAKE_BYTES]);
    private long windowStartNs;
    private int hellosInWindow;

    ClientHandshakes(final ClientIngressAgent agent, final byte[] secret)
    {
        this.agent = agent;
        this.secret = secret.clone();
        this.auth = new HandshakeAuth(secret, HandshakeAuth.CLIENT_DOMAIN);
    }

    /** An unsealed handshake step on the control stream, from the Aeron session {@code aeronSessionId}. */
    void onStep(final HandshakeFrame frame, final int aeronSessionId, final long nowNs)
    {
        if (frame.phase() == HandshakePhase.HELLO)
        {
            onHello(frame, aeronSessionId, nowNs);
        }
        else if (frame.phase() == HandshakePhase.CONFIRM)
        {
            onConfirm(frame, aeronSessionId, nowNs);
        }
        else
        {
            agent.count(ClientCounter.FRAMES_MALFORMED); // a client sends no WELCOME or REFUSE
        }
    }

    private void onHello(final HandshakeFrame hello, final int aeronSessionId, final long nowNs)
    {
        if (!admitHello(nowNs))
        {
            agent.count(ClientCounter.HELLOS_RATE_LIMITED);
            return;
        }
        final String endpoint = hello.detail();
        if (hello.nodeId() <= 0 || !ClientProtocol.isAddressEndpoint(endpoint))
        {
            agent.count(ClientCounter.REFUSED_ENDPOINT);
            return;
        }
        final int clientId = hello.nodeId();
        final long incarnation = hello.incarnation();
        final String clusterId = hello.clusterId();
        final FrameProtection protection = hello.protection();
        if (Math.max(hello.minProtocolVersion(), ClientProtocol.MIN_VERSION) >
            Math.min(hello.maxProtocolVersion(), ClientProtocol.VERSION))
        {
            refuse(ClientCounter.REFUSED_VERSION, endpoint, clientId, incarnation, "protocol version: this node " +
                "speaks client protocol " + ClientProtocol.MIN_VERSION + ".." + ClientProtocol.VERSION +
                ", the client " + hello.minProtocolVersion() + ".." + hello.maxProtocolVersion());
            return;
        }
        if (!agent.clusterId.equals(clusterId))
        {
            refuse(ClientCounter.REFUSED_CLUSTER, endpoint, clientId, incarnation, "cluster id: the client's '" +
                clusterId + "' is not this node's");
            return;
        }
        if (protection != FrameProtection.AUTHENTICATED && protection != FrameProtection.ENCRYPTED ||
            agent.config.minimumProtection() == FrameProtection.ENCRYPTED && protection != FrameProtection.ENCRYPTED)
        {
            refuse(ClientCounter.REFUSED_PROTECTION, endpoint, clientId, incarnation,
                "frame protection: the client's " + protection + " is weaker than this node's minimum, " +
                agent.config.minimumProtection());
            return;
        }
        final byte[] challenge = hello.challenge();
        if (!auth.verify(HandshakePhase.HELLO, clusterId, clientId, incarnation, 0, 0L, challenge,
            endpoint.getBytes(StandardCharsets.UTF_8), protection, hello.proof()))
        {
            refuse(ClientCounter.REFUSED_SECRET, endpoint, clientId, incarnation, "secret: the client's proof of the " +
                "client secret is wrong (different client secrets?)");
            return;
        }
        final ClientSession existing = agent.session(aeronSessionId);
        if (existing != null)
        {
            if (existing.clientId == clientId && existing.clientIncarnation == incarnation)
            {
                return; // the same HELLO again: the WELCOME is on its way, or the session is open
            }
            agent.endSession(existing, "a new HELLO from its Aeron session", null);
        }
        if (agent.sessionCount() >= agent.config.maxClients())
        {
            refuse(ClientCounter.REFUSED_CAPACITY, endpoint, clientId, incarnation,
                "too many clients: this node takes " + agent.config.maxClients());
            return;
        }
        final byte[] ours = auth.newChallenge();
        final int sessionId = RANDOM.nextInt();
        final ClientSession session = new ClientSession(aeronSessionId, clientId, incarnation, endpoint, protection,
            challenge, ours, nowNs + agent.config.handshakeTimeout().toNanos(),
            publication(endpoint, agent.controlStreamId, sessionId),
            publication(endpoint, agent.dataStreamId, sessionId), agent.batchCapacity);
        final byte[] proof = auth.prove(HandshakePhase.WELCOME, clusterId, agent.nodeId, agent.incarnation, clientId,
            incarnation, challenge, EMPTY, protection);
        session.welcome = encode(new Handshake(HandshakePhase.WELCOME, clusterId, agent.nodeId, agent.incarnation,
            clientId, incarnation, ClientProtocol.MIN_VERSION, ClientProtocol.VERSION, ours, proof, "", EMPTY,
            protection, challenge));
        agent.addSession(session);
    }

    private void onConfirm(final HandshakeFrame confirm, final int aeronSessionId, final long nowNs)
    {
        final ClientSession session = agent.session(aeronSessionId);
        if (session == null || session.state != ClientSession.State.HANDSHAKE)
        {
            agent.count(ClientCounter.FRAMES_UNKNOWN_SESSION);
            return;
        }
        final boolean proved = confirm.nodeId() == session.clientId &&
            confirm.incarnation() == session.clientIncarnation &&
            confirm.peerNodeId() == agent.nodeId && confirm.peerIncarnation() == agent.incarnation &&
            Arrays.equals(confirm.echo(), session.challenge) &&
            auth.verify(HandshakePhase.CONFIRM, agent.clusterId, session.clientId, session.clientIncarnation,
                agent.nodeId, agent.incarnation, session.challenge, EMPTY, session.protection, confirm.proof());
        if (!proved)
        {
            agent.count(ClientCounter.REFUSED_SECRET);
            offerRefusal(session.control, session, "secret: the client's CONFIRM does not prove the client secret");
            agent.endSession(session, "its CONFIRM failed", null);
            return;
        }
        final SessionKeys keys = SessionKeys.derive(SessionKeys.CLIENT_DOMAIN, secret, agent.clusterId,
            session.protection, session.clientId, session.clientIncarnation, agent.nodeId, agent.incarnation,
            session.clientChallenge, session.challenge);
        session.sealer = new FrameSeal.Sealer(session.protection, keys.sealKey(false), keys.sealKeyId(false));
        session.opener = new FrameSeal.Opener(session.protection, keys.openKey(false), keys.openKeyId(false));
        keys.destroy();
        agent.openSession(session, nowNs);
    }

    /** Offers pending WELCOMEs and refusals; closes refusal publications that are done. */
    int doWork(final long nowNs)
    {
        int work = 0;
        for (final Iterator<Refusal> it = refusals.iterator(); it.hasNext(); )
        {
            final Refusal refusal = it.next();
            if (refusal.offer(agent.aeron) || nowNs - refusal.sinceNs > REFUSAL_LINGER_NS)
            {
                refusal.close(agent.aeron);
                it.remove();
                work++;
            }
        }
        return work;
    }

    /** Offers a session's WELCOME if it is still waiting; true once offered. */
    boolean offerWelcome(final ClientSession session)
    {
        if (session.welcome == null)
        {
            return true;
        }
        if (session.control != null && session.control.offer(new UnsafeBuffer(session.welcome)) > 0)
        {
            session.welcome = null;
            return true;
        }
        return false;
    }

    void close()
    {
        for (final Refusal refusal : refusals)
        {
            refusal.close(agent.aeron);
        }
        refusals.clear();
        Arrays.fill(secret, (byte)0);
    }

    private boolean admitHello(final long nowNs)
    {
        if (nowNs - windowStartNs >= 1_000_000_000L)
        {
            windowStartNs = nowNs;
            hellosInWindow = 0;
        }
        return ++hellosInWindow <= agent.config.handshakesPerSecond();
    }

    private void refuse(
        final ClientCounter counter, final String endpoint, final int clientId, final long incarnation,
        final String why)
    {
        agent.count(counter);
        agent.logRefusal(endpoint, why);
        for (final Refusal pending : refusals)
        {
            if (pending.endpoint.equals(endpoint))
            {
                return; // the same client's HELLO again: one refusal on its way is enough
            }
        }
        if (refusals.size() >= MAX_REFUSALS)
        {
            agent.count(ClientCounter.REFUSALS_UNSENT);
            return;
        }
        final byte[] bytes = encode(refusal(clientId, incarnation, why));
        refusals.add(new Refusal(endpoint, publication(endpoint, agent.controlStreamId, 0), bytes, agent.nowNs()));
        agent.count(ClientCounter.REFUSALS_TOLD);
    }

    private void offerRefusal(final ExclusivePublication publication, final ClientSession session, final String why)
    {
        agent.logRefusal(session.endpoint, why);
        if (publication != null)
        {
            publication.offer(new UnsafeBuffer(encode(refusal(session.clientId, session.clientIncarnation, why))));
        }
    }

    private Handshake refusal(final int clientId, final long incarnation, final String why)
    {
        return new Handshake(HandshakePhase.REFUSE, agent.clusterId, agent.nodeId, agent.incarnation, clientId,
            incarnation, ClientProtocol.MIN_VERSION, ClientProtocol.VERSION, EMPTY, EMPTY,
            "node " + agent.nodeId + " refused: " + why, EMPTY, FrameProtection.AUTHENTICATED, EMPTY);
    }

    private byte[] encode(final Handshake step)
    {
        final int length = encoder.encodeHandshake(scratch, 0, step);
        final byte[] bytes = new byte[length];
        scratch.getBytes(0, bytes);
        return bytes;
    }

    /** Asks the driver for a publication to the endpoint, without waiting: its registration id. */
    private long publication(final String endpoint, final int streamId, final int sessionId)
    {
        final ChannelUriStringBuilder channel = new ChannelUriStringBuilder().media("udp").endpoint(endpoint)
            .termLength(agent.termLength).mtu(agent.mtu);
        if (sessionId != 0)
        {
            channel.sessionId(sessionId);
        }
        final Aeron aeron = agent.aeron;
        return aeron.asyncAddExclusivePublication(channel.build(), streamId);
    }

    /** A refusal to tell, on a publication of its own once the driver has made it. */
    private static final class Refusal
    {
        private final String endpoint;
        private final long registration;
        private final byte[] bytes;
        private final long sinceNs;
        private ExclusivePublication publication;

        Refusal(final String endpoint, final long registration, final byte[] bytes, final long sinceNs)
        {
            this.endpoint = endpoint;
            this.registration = registration;
            this.bytes = bytes;
            this.sinceNs = sinceNs;
        }

        boolean offer(final Aeron aeron)
        {
            try
            {
                if (publication == null)
                {
                    publication = aeron.getExclusivePublication(registration);
                }
            }
            catch (final AeronException ex)
            {
                return true; // it cannot be made: give up on it
            }
            return publication != null && publication.offer(new UnsafeBuffer(bytes)) > 0;
        }

        void close(final Aeron aeron)
        {
            if (publication != null)
            {
                CloseHelper.quietClose(publication);
            }
            else
            {
                aeron.asyncRemovePublication(registration);
            }
        }
    }
}
