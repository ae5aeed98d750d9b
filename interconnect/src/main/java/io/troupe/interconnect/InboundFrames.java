package io.troupe.interconnect;

import io.aeron.logbuffer.Header;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.UndeliveredReason;
import io.troupe.actor.Chargeable;
import io.troupe.actor.FlowControl;
import io.troupe.serialization.wire.AckFrame;
import io.troupe.serialization.wire.ChunkAssembler;
import io.troupe.serialization.wire.ChunkFrame;
import io.troupe.serialization.wire.CreditDeltasFrame;
import io.troupe.serialization.wire.EnvelopeCompaction;
import io.troupe.serialization.wire.EnvelopeFrame;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.serialization.wire.FrameDecoder;
import io.troupe.serialization.wire.FrameHandler;
import io.troupe.serialization.wire.FrameResult;
import io.troupe.serialization.wire.GoodbyeFrame;
import io.troupe.serialization.wire.HandshakeFrame;
import io.troupe.serialization.wire.HeartbeatFrame;
import io.troupe.serialization.wire.WireFormat;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Everything that arrives, on the agent thread: each fragment is validated by the {@link FrameDecoder}
 * before anything reads it, attributed to a peer by the Aeron session id of its publication, and handled.
 * Envelopes count only from peers whose handshake completed; their payloads are copied out of the term
 * buffer and decoded later by the recipient. No user code runs here.
 */
final class InboundFrames implements FrameHandler
{
    private static final Logger LOG = LoggerFactory.getLogger(InboundFrames.class);

    private final InterconnectAgent agent;
    private final EventCodecRegistry codecs;
    private final FrameDecoder decoder;
    /** Decodes frames put back together from chunks (a second decoder: the first is mid-call then). */
    private final FrameDecoder wholeDecoder;
    private final int maxFrameBytes;
    /** Where a compact envelope frame is rebuilt whole; grows up to the largest frame. */
    private final UnsafeBuffer expanded = new UnsafeBuffer(new byte[1024]);
    final AtomicLong unauthenticated = new AtomicLong();
    final AtomicLong misrouted = new AtomicLong();
    /** Envelopes naming an event type this node has no codec for: never delivered, never decoded. */
    final AtomicLong unknownTypes = new AtomicLong();
    private int streamId;
    private int sessionId;
    private long position;
    /** The stream position before the data-stream message being read (-1: not read yet). */
    private long messagePositionBefore = -1;
    private boolean loggedBadFrame;
    /** Unknown types already logged (at most 64 kept: a hostile peer cannot grow it). */
    private final org.agrona.collections.IntHashSet loggedUnknownTypes = new org.agrona.collections.IntHashSet();
    /** The account the last charged arrival named (see {@link #resolve}). */
    private Chargeable lastAccount;
    private int lastOwner;
    private long lastAccountId;
    private long lastGeneration;

    InboundFrames(final InterconnectAgent agent, final EventCodecRegistry codecs)
    {
        this.agent = agent;
        this.codecs = codecs;
        this.maxFrameBytes = Math.max(WireFormat.MAX_HANDSHAKE_BYTES, WireFormat.envelopeLength(agent.config.maxEventBytes()));
        this.decoder = new FrameDecoder(this, maxFrameBytes);
        this.wholeDecoder = new FrameDecoder(this, maxFrameBytes);
    }

    FrameDecoder decoder()
    {
        return decoder;
    }

    void onControlFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        onFragment(agent.config.controlStreamId(), buffer, offset, length, header);
    }

    /**
     * A data-stream message: one or more frames, each after its int32 length (see {@link OutboundBatch}). All
     * of them share the message's stream position; a length that does not fit rejects the rest of the message.
     */
    void onDataFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        final int end = offset + length;
        int at = offset;
        int baseAt = -1; // the message's last whole entry, if an envelope frame: what a compact entry repeats
        Boolean fromEstablished = null; // looked up at the message's first compact entry, once
        messagePositionBefore = -1;
        while (at < end)
        {
            final int entry = end - at < OutboundBatch.LENGTH_PREFIX ? 0 :
                buffer.getInt(at, java.nio.ByteOrder.LITTLE_ENDIAN);
            final boolean compact = (entry & OutboundBatch.COMPACT_FLAG) != 0;
            final int frameLength = entry & ~OutboundBatch.COMPACT_FLAG;
            if (frameLength == 0 || frameLength > end - at - OutboundBatch.LENGTH_PREFIX ||
                compact && (baseAt < 0 || frameLength < EnvelopeCompaction.COMPACT_OVERHEAD))
            {
                onBadBatch(header.sessionId(), end - at);
                return;
            }
            at += OutboundBatch.LENGTH_PREFIX;
            if (compact)
            {
                if (fromEstablished == null)
                {
                    final Peer peer = agent.peersBySession.get(header.sessionId());
                    fromEstablished = peer != null && peer.state == Peer.ESTABLISHED;
                }
                if (fromEstablished)
                {
                    onCompactFragment(buffer, baseAt, at, frameLength, header);
                }
                else
                {
                    unauthenticated.incrementAndGet(); // as its whole form would be
                }
            }
            else
            {
                baseAt = EnvelopeCompaction.isBase(buffer, at, frameLength) ? at : -1;
                onFragment(agent.config.dataStreamId(), buffer, at, frameLength, header);
            }
            at += frameLength;
        }
    }

    /**
     * Rebuilds the whole envelope frame a compact entry of an established session stands for and decodes it like
     * any other. Nothing is sized for it before its length is known to be within the largest frame.
     */
    private void onCompactFragment(
        final DirectBuffer buffer, final int baseAt, final int at, final int compactLength, final Header header)
    {
        final int frameLength = EnvelopeCompaction.expandedLength(compactLength);
        if (frameLength > maxFrameBytes)
        {
            reject(agent.config.dataStreamId(), header.sessionId(), "a compact envelope frame of " + frameLength +
                " bytes, above the largest frame (" + maxFrameBytes + ")", null);
            return;
        }
        if (expanded.capacity() < frameLength)
        {
            expanded.wrap(new byte[Math.min(maxFrameBytes, Math.max(frameLength, expanded.capacity() * 2))]);
        }
        EnvelopeCompaction.expand(buffer, baseAt, buffer, at, compactLength, expanded);
        onFragment(agent.config.dataStreamId(), expanded, 0, frameLength, header);
    }

    private void onBadBatch(final int fromSession, final int remaining)
    {
        final String why = loggedBadFrame ? "" : // only the first is logged: no text to build for a flood
            "no valid frame length in the last " + remaining + " bytes of a data-stream message";
        if (reject(agent.config.dataStreamId(), fromSession, why, null) == null)
        {
            unauthenticated.incrementAndGet(); // no decoder saw it, so nothing else counts it
        }
    }

    /**
     * Something that failed validation: counted for its peer if the session is known, logged once per node (a
     * flood of bad frames must not flood the log).
     *
     * @return the peer, or null if the session is not one of an established peer.
     */
    private Peer reject(final int stream, final int fromSession, final String why, final Throwable cause)
    {
        final Peer peer = agent.peersBySession.get(fromSession);
        if (peer != null)
        {
            peer.rejectedFrames++;
        }
        if (!loggedBadFrame)
        {
            loggedBadFrame = true;
            LOG.warn("node {}: rejected a frame on stream {} from session {}: {} (further ones are only counted)",
                agent.nodeId, stream, fromSession, why, cause);
        }
        return peer;
    }

    void onBulkFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        onFragment(agent.config.bulkStreamId(), buffer, offset, length, header);
    }

    private void onFragment(final int stream, final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        streamId = stream;
        sessionId = header.sessionId();
        position = header.position();
        final FrameResult result = decoder.decode(buffer, offset, length);
        if (!result.isOk())
        {
            reject(stream, sessionId, result.description(), decoder.lastHandlerFailure());
        }
    }

    /** The established peer the current frame came from, or null (counted). */
    private Peer establishedSender()
    {
        final Peer peer = agent.peersBySession.get(sessionId);
        if (peer == null || peer.state != Peer.ESTABLISHED)
        {
            unauthenticated.incrementAndGet();
            return null;
        }
        peer.detector.onHeard(agent.cycleNs);
        if (!peer.confirmed && streamId == agent.config.controlStreamId())
        {
            peer.confirmed = true; // the acceptor speaks after our WELCOME only once it processed our CONFIRM
        }
        return peer;
    }

    @Override
    public void onEnvelope(final EnvelopeFrame frame)
    {
        if (streamId == agent.config.controlStreamId())
        {
            unauthenticated.incrementAndGet(); // events never travel on the control stream
            return;
        }
        final Peer peer = establishedSender();
        if (peer == null)
        {
            return;
        }
        peer.eventsIn++;
        peer.bytesIn += frame.frameLength();
        if (!agent.system.isRunning())
        {
            // This node is shutting down and takes no more events. The frame stays unacknowledged, so its sender
            // still answers for it: a tracked one becomes Undelivered(DISCONNECTED, unsure) when our goodbye ends
            // the session. Acknowledging it would lose it silently.
            return;
        }
        final long positionBefore;
        final Receipts receipts;
        if (streamId == agent.config.dataStreamId())
        {
            // every frame of a message shares its position: none may be acknowledged before all are handled
            if (messagePositionBefore < 0)
            {
                messagePositionBefore = peer.receivedDataPosition;
                peer.receivedDataPosition = position;
            }
            positionBefore = messagePositionBefore;
            receipts = peer.dataReceipts;
        }
        else
        {
            positionBefore = peer.receivedBulkPosition;
            peer.receivedBulkPosition = position;
            receipts = peer.bulkReceipts;
        }
        final Envelope envelope = frame.toEnvelope(codecs);
        if (envelope.payload().decoder() == null)
        {
            // toEnvelope found no codec for the type: registration is the allowlist, so an unregistered type is
            // never handed to an actor to decode
            unknownTypes.incrementAndGet();
            if (loggedUnknownTypes.size() < 64 && loggedUnknownTypes.add(envelope.type()))
            {
                LOG.warn("node {}: node {} sent an event of type {}, which has no codec here; dropped (sender told if " +
                    "tracked)", agent.nodeId, peer.nodeId, io.troupe.actor.EventTypes.describe(envelope.type()));
            }
            if (envelope.isTracked())
            {
                agent.notifyUndelivered(envelope, UndeliveredReason.ACTOR_UNKNOWN, false);
            }
            return;
        }
        final ActorId recipient = envelope.recipient();
        if (!agent.system.isLocalNode(recipient.nodeId()))
        {
            misrouted.incrementAndGet(); // never relayed: a node only takes events for itself
            if (envelope.isTracked())
            {
                agent.notifyUndelivered(envelope, UndeliveredReason.ACTOR_UNKNOWN, false);
            }
            return;
        }
        chargeArrival(envelope, frame, peer);
        if (envelope.isTracked())
        {
            // acknowledged only once the actor system is done with it (see Receipts)
            envelope.payload().awaitReceipt();
            receipts.add(positionBefore, envelope.payload());
        }
        agent.system.send(envelope);
    }

    /**
     * Charges an arriving event to the account its frame names: this node's own account if it owns it, else this
     * node's shadow of the owner's, whose net delta goes back to the owner. An event from the owner itself is
     * not charged again: the owner kept the debt when it wrote the frame and counts it as held by this node
     * until this node's repayment reaches it. An uncharged frame, or one naming an account this node does not
     * have open, is charged to the node's own account when it is sent on.
     */
    private void chargeArrival(final Envelope envelope, final EnvelopeFrame frame, final Peer from)
    {
        final int owner = frame.accountOwnerNode();
        final FlowControl flow = agent.system.flow();
        if (owner == 0 || !flow.isEnabled())
        {
            return;
        }
        final Chargeable account = resolve(flow, owner, frame.accountId());
        if (account == null)
        {
            return;
        }
        final int cost = Math.max(0, frame.cost());
        if (owner == from.nodeId)
        {
            envelope.carryCharge(account, cost);
        }
        else
        {
            envelope.chargeTo(account, cost);
        }
    }

    /** {@link FlowControl#resolve}, remembering the last answer while the flow control's generation holds. */
    private Chargeable resolve(final FlowControl flow, final int owner, final long accountId)
    {
        final long generation = flow.generation();
        if (lastAccount != null && owner == lastOwner && accountId == lastAccountId && generation == lastGeneration)
        {
            return lastAccount;
        }
        final Chargeable account = flow.resolve(owner, accountId);
        lastOwner = owner;
        lastAccountId = accountId;
        lastGeneration = generation;
        lastAccount = account;
        return account;
    }

    @Override
    public void onCreditDeltas(final CreditDeltasFrame frame)
    {
        if (streamId != agent.config.controlStreamId())
        {
            unauthenticated.incrementAndGet(); // credit travels on the control stream only
            return;
        }
        final Peer peer = establishedSender();
        if (peer == null || frame.incarnation() != peer.peerIncarnation || frame.nodeId() != peer.nodeId)
        {
            if (peer != null)
            {
                peer.rejectedFrames++;
            }
            return;
        }
        agent.credit.onDeltas(peer, frame);
    }

    @Override
    public void onChunk(final ChunkFrame frame)
    {
        if (streamId != agent.config.bulkStreamId())
        {
            unauthenticated.incrementAndGet(); // chunks travel on the bulk stream only
            return;
        }
        final Peer peer = establishedSender();
        if (peer == null)
        {
            return;
        }
        if (peer.chunks == null)
        {
            peer.chunks = new ChunkAssembler(maxFrameBytes);
        }
        final int length = peer.chunks.onChunk(frame);
        if (length < 0)
        {
            peer.rejectedFrames++;
        }
        else if (length > 0 && !wholeDecoder.decode(peer.chunks.buffer(), 0, length).isOk())
        {
            peer.rejectedFrames++;
        }
    }

    @Override
    public void onHandshake(final HandshakeFrame frame)
    {
        if (streamId != agent.config.controlStreamId())
        {
            unauthenticated.incrementAndGet();
            return;
        }
        agent.sessions.onHandshake(frame, sessionId, agent.clock.nanoTime());
    }

    @Override
    public void onHeartbeat(final HeartbeatFrame frame)
    {
        final Peer peer = establishedSender();
        if (peer != null && frame.nodeId() != peer.nodeId)
        {
            peer.rejectedFrames++;
        }
        else if (peer != null)
        {
            peer.onHeartbeat(frame.sendTimeNs(), frame.echoTimeNs(), frame.echoDelayNs(), agent.clock.nanoTime());
        }
    }

    @Override
    public void onAck(final AckFrame frame)
    {
        final Peer peer = establishedSender();
        if (peer == null || frame.incarnation() != peer.peerIncarnation)
        {
            return;
        }
        final long acked = frame.ackedPosition();
        if (frame.streamId() == agent.config.dataStreamId())
        {
            peer.dataAcked = Math.max(peer.dataAcked, acked);
            peer.dataInFlight.acknowledge(acked);
        }
        else if (frame.streamId() == agent.config.bulkStreamId())
        {
            peer.bulkAcked = Math.max(peer.bulkAcked, acked);
            peer.bulkInFlight.acknowledge(acked);
        }
    }

    @Override
    public void onGoodbye(final GoodbyeFrame frame)
    {
        final Peer peer = establishedSender();
        if (peer != null && frame.incarnation() == peer.peerIncarnation)
        {
            agent.sessionLost(peer, "goodbye (" + frame.reason() + (frame.detail().isEmpty() ? "" : ": " + frame.detail()) + ")");
            peer.nextHandshakeNs = agent.clock.nanoTime() + peer.backoff.nextDelayNs();
        }
    }
}
