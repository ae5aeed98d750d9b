package io.troupe.interconnect;

import io.troupe.actor.TerminationReason;
import io.troupe.actor.EventTypes;
import io.troupe.interconnect.seal.FrameSeal;
import io.aeron.logbuffer.Header;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.UndeliveredReason;
import io.troupe.serialization.wire.AckFrame;
import io.troupe.serialization.wire.ChunkFrame;
import io.troupe.serialization.wire.CreditDeltasFrame;
import io.troupe.serialization.wire.DirectoryUpdateFrame;
import io.troupe.serialization.wire.EnvelopeCompaction;
import io.troupe.serialization.wire.EnvelopeFrame;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.serialization.wire.FrameDecoder;
import io.troupe.serialization.wire.FrameHandler;
import io.troupe.serialization.wire.FrameResult;
import io.troupe.serialization.wire.GoodbyeFrame;
import io.troupe.serialization.wire.GoodbyeReason;
import io.troupe.serialization.wire.HandshakeFrame;
import io.troupe.serialization.wire.HeartbeatFrame;
import io.troupe.serialization.wire.WireFormat;
import org.agrona.DirectBuffer;
import org.agrona.collections.IntHashSet;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Everything that arrives, on the agent thread. A message is first opened ({@link FrameSeal}): found by the Aeron
 * session id of its publication, its key id and its tag verified under the session's key, its sequence number
 * the next on its stream; only then are its frames validated by the {@link FrameDecoder} and handled, as coming
 * from that peer. The only frames taken unsealed are handshake steps, which prove themselves. Envelope payloads
 * are copied out and decoded later by the recipient. No user code runs here.
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
    /** Where a sealed message is opened: its body from {@link FrameSeal#HEADER} on. */
    private final UnsafeBuffer opened;
    /** Envelopes naming an event type this node has no codec for: never delivered, never decoded. */
    final AtomicLong unknownTypes = new AtomicLong();
    /** Charges arriving events to the credit accounts their frames name. */
    final ArrivalCharges charges;
    /** Hands the peers' directory updates to the service directory. */
    final DirectoryReceiver directory;
    /** The peer whose verified message is being decoded; null while an unsealed one is (a handshake step). */
    private Peer verified;
    private int streamId;
    private int sessionId;
    private long position;
    /** The stream position before the data-stream message being read (-1: not read yet). */
    private long messagePositionBefore = -1;
    private boolean loggedBadFrame;
    /** Unknown types already logged (at most 64 kept: a hostile peer cannot grow it). */
    private final IntHashSet loggedUnknownTypes = new IntHashSet();

    InboundFrames(final InterconnectAgent agent, final EventCodecRegistry codecs)
    {
        this.agent = agent;
        this.codecs = codecs;
        this.maxFrameBytes = Math.max(WireFormat.MAX_HANDSHAKE_BYTES,
            WireFormat.envelopeLength(agent.config.maxEventBytes(), true));
        this.decoder = new FrameDecoder(this, maxFrameBytes);
        this.wholeDecoder = new FrameDecoder(this, maxFrameBytes);
        this.opened = new UnsafeBuffer(new byte[agent.largestSealedMessage]);
        this.charges = new ArrivalCharges(agent);
        this.directory = new DirectoryReceiver(agent);
    }

    FrameDecoder decoder()
    {
        return decoder;
    }

    void onControlFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        final int stream = agent.config.controlStreamId();
        final int keyId = FrameSeal.keyId(buffer, offset, length);
        if (keyId < 0)
        {
            onFragment(stream, buffer, offset, length, header); // only a handshake step is taken unsealed
            return;
        }
        final int bodyLength = open(keyId, FrameSeal.CONTROL, stream, buffer, offset, length, header);
        if (bodyLength >= 0)
        {
            onFragment(stream, opened, FrameSeal.HEADER, bodyLength, header);
            verified = null;
        }
    }

    /**
     * Opens a sealed message (see {@link FrameSeal}) into {@link #opened} and names its peer in {@link #verified}.
     * The first message sealed with the keys of an initiator's handshake attempt completes the attempt.
     *
     * @param keyId the message's key id ({@link FrameSeal#keyId}), -1 if it is not sealed.
     * @return the body's length, or -1 if the message was rejected (counted).
     */
    private int open(final int keyId, final int stream, final int streamId, final DirectBuffer buffer, final int offset,
        final int length, final Header header)
    {
        if (keyId < 0)
        {
            agent.reject(FrameRejection.UNSEALED);
            return -1;
        }
        final int session = header.sessionId();
        final Peer peer = agent.roster.bySession(session);
        if (peer == null)
        {
            agent.reject(FrameRejection.UNKNOWN_SESSION);
            return -1;
        }
        final FrameSeal.Opener opener = peer.openerFor(keyId, session);
        if (opener == null)
        {
            agent.reject(FrameRejection.STALE_KEY);
            return -1;
        }
        final boolean attempt = peer.isAttemptOpener(opener);
        if (length > opened.capacity())
        {
            peer.rejectedFrames++;
            agent.reject(FrameRejection.MALFORMED); // longer than any message a peer of this configuration sends
            return -1;
        }
        final int bodyLength = opener.open(stream, streamId, buffer, offset, length, opened);
        if (bodyLength < 0)
        {
            peer.rejectedFrames++;
            if (bodyLength == FrameSeal.BAD_TAG)
            {
                agent.reject(FrameRejection.BAD_TAG);
                logRejected(streamId, session, "its tag does not verify (forged, or damaged on the way)", null);
            }
            else if (bodyLength == FrameSeal.REPLAYED)
            {
                agent.reject(FrameRejection.REPLAYED);
                logRejected(streamId, session, "a sequence number already seen (a replay)", null);
            }
            else
            {
                agent.reject(FrameRejection.SEQUENCE_GAP);
                if (attempt)
                {
                    peer.attemptEnded();
                }
                else
                {
                    agent.lifecycle.streamDamaged(peer,
                        "a message on stream " + streamId + " is missing (lost or displaced)");
                }
            }
            return -1;
        }
        if (attempt)
        {
            agent.sessions.onFirstSealedFrame(peer);
        }
        peer.detector.onHeard(agent.cycleNs);
        verified = peer;
        return bodyLength;
    }

    /** Logs the first rejected frame or message of this node, whatever the reason; a flood must not flood the log. */
    private void logRejected(final int stream, final int fromSession, final String why, final Throwable cause)
    {
        if (!loggedBadFrame)
        {
            loggedBadFrame = true;
            LOG.warn("node {}: rejected a frame on stream {} from session {}: {} (further ones are only counted)",
                agent.nodeId, stream, fromSession, why, cause);
        }
    }

    /**
     * A data-stream message: one or more frames, each after its int32 length (see {@link OutboundBatch}). All
     * of them share the message's stream position; a length that does not fit rejects the rest of the message.
     */
    void onDataFragment(final DirectBuffer sealed, final int sealedOffset, final int sealedLength, final Header header)
    {
        final int length = open(FrameSeal.keyId(sealed, sealedOffset, sealedLength), FrameSeal.DATA,
            agent.config.dataStreamId(), sealed, sealedOffset, sealedLength, header);
        if (length < 0)
        {
            return;
        }
        final DirectBuffer buffer = opened;
        final int offset = FrameSeal.HEADER;
        final int end = offset + length;
        int at = offset;
        int baseAt = -1; // the message's last whole entry, if an envelope frame: what a compact entry repeats
        messagePositionBefore = -1;
        while (at < end)
        {
            final int entry = end - at < OutboundBatch.LENGTH_PREFIX ? 0 :
                buffer.getInt(at, ByteOrder.LITTLE_ENDIAN);
            final boolean compact = (entry & OutboundBatch.COMPACT_FLAG) != 0;
            final int frameLength = entry & ~OutboundBatch.COMPACT_FLAG;
            if (frameLength == 0 || frameLength > end - at - OutboundBatch.LENGTH_PREFIX ||
                compact && (baseAt < 0 || frameLength < EnvelopeCompaction.COMPACT_OVERHEAD))
            {
                onBadBatch(header.sessionId(), end - at);
                verified = null;
                return;
            }
            at += OutboundBatch.LENGTH_PREFIX;
            if (compact)
            {
                onCompactFragment(buffer, baseAt, at, frameLength, header);
            }
            else
            {
                baseAt = EnvelopeCompaction.isBase(buffer, at, frameLength) ? at : -1;
                onFragment(agent.config.dataStreamId(), buffer, at, frameLength, header);
            }
            at += frameLength;
        }
        verified = null;
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
        reject(agent.config.dataStreamId(), fromSession, why, null); // no decoder saw it, so counted here
    }

    /**
     * Something that failed validation: counted for its peer if the session is known, logged once per node (a
     * flood of bad frames must not flood the log).
     */
    private void reject(final int stream, final int fromSession, final String why, final Throwable cause)
    {
        agent.reject(FrameRejection.MALFORMED);
        final Peer peer = verified;
        if (peer != null)
        {
            peer.rejectedFrames++;
        }
        logRejected(stream, fromSession, why, cause);
    }

    void onBulkFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        final int stream = agent.config.bulkStreamId();
        final int bodyLength = open(FrameSeal.keyId(buffer, offset, length), FrameSeal.BULK, stream, buffer, offset,
            length, header);
        if (bodyLength >= 0)
        {
            onFragment(stream, opened, FrameSeal.HEADER, bodyLength, header);
            verified = null;
        }
    }

    private void onFragment(final int stream, final DirectBuffer buffer, final int offset, final int length,
        final Header header)
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

    /** The peer whose verified message the current frame is in, or null (counted: it came unsealed). */
    private Peer verifiedSender()
    {
        final Peer peer = verified;
        if (peer == null || !peer.isUp())
        {
            agent.reject(FrameRejection.UNSEALED);
            return null;
        }
        return peer;
    }

    /** Counts a frame on a stream it never travels on; true if so. */
    private boolean wrongStream(final int expected)
    {
        if (streamId != expected)
        {
            agent.reject(FrameRejection.MALFORMED);
            if (verified != null)
            {
                verified.rejectedFrames++;
            }
            return true;
        }
        return false;
    }

    @Override
    public void onEnvelope(final EnvelopeFrame frame)
    {
        if (streamId == agent.config.controlStreamId())
        {
            wrongStream(agent.config.dataStreamId()); // events never travel on the control stream
            return;
        }
        final Peer peer = verifiedSender();
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
            agent.reject(FrameRejection.NOT_FOR_THIS_NODE);
            if (loggedUnknownTypes.size() < 64 && loggedUnknownTypes.add(envelope.type()))
            {
                LOG.warn("node {}: node {} sent an event of type {}, which has no codec here; dropped (sender told " +
                    "if tracked)", agent.nodeId, peer.nodeId, EventTypes.describe(envelope.type()));
            }
            if (envelope.isTracked())
            {
                agent.notices.undelivered(envelope, UndeliveredReason.ACTOR_UNKNOWN, false);
            }
            return;
        }
        final ActorId recipient = envelope.recipient();
        if (recipient.nodeId() != agent.nodeId)
        {
            // never relayed: a node only takes events for itself, named by its id (node 0, "this node", is
            // resolved where the send happens, so on the wire it would be another node's "this node")
            agent.reject(FrameRejection.NOT_FOR_THIS_NODE);
            if (envelope.isTracked())
            {
                agent.notices.undelivered(envelope, UndeliveredReason.ACTOR_UNKNOWN, false);
            }
            return;
        }
        charges.charge(envelope, frame, peer);
        if (envelope.isTracked())
        {
            // acknowledged only once the actor system is done with it (see Receipts)
            envelope.payload().awaitReceipt();
            receipts.add(positionBefore, envelope.payload());
        }
        agent.host.send(envelope);
    }

    @Override
    public void onCreditDeltas(final CreditDeltasFrame frame)
    {
        if (wrongStream(agent.config.controlStreamId())) // credit travels on the control stream only
        {
            return;
        }
        final Peer peer = verifiedSender();
        if (peer == null || frame.incarnation() != peer.incarnation() || frame.nodeId() != peer.nodeId)
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
        if (wrongStream(agent.config.bulkStreamId())) // chunks travel on the bulk stream only
        {
            return;
        }
        final Peer peer = verifiedSender();
        if (peer == null)
        {
            return;
        }
        if (peer.chunks == null)
        {
            peer.chunks = new InboundChunks(maxFrameBytes, peer.account, agent.system.memoryQuota().clock());
        }
        final int length = peer.chunks.onChunk(frame);
        if (length == InboundChunks.NO_MEMORY)
        {
            agent.lifecycle.chunksDropped(peer);
        }
        else if (length < 0)
        {
            peer.rejectedFrames++;
        }
        else if (length > 0)
        {
            if (!wholeDecoder.decode(peer.chunks.buffer(), 0, length).isOk())
            {
                peer.rejectedFrames++;
            }
            peer.chunks.afterRead(); // the envelope copied its payload out
        }
    }

    @Override
    public void onHandshake(final HandshakeFrame frame)
    {
        if (wrongStream(agent.config.controlStreamId()))
        {
            return;
        }
        if (verified != null)
        {
            verified.rejectedFrames++;
            agent.reject(FrameRejection.MALFORMED); // handshake steps are never sealed
            return;
        }
        agent.sessions.onHandshake(frame, sessionId, agent.clock.nanoTime());
    }

    @Override
    public void onHeartbeat(final HeartbeatFrame frame)
    {
        if (wrongStream(agent.config.controlStreamId()))
        {
            return;
        }
        final Peer peer = verifiedSender();
        if (peer != null && (frame.nodeId() != peer.nodeId || frame.incarnation() != peer.incarnation()))
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
        if (wrongStream(agent.config.controlStreamId()))
        {
            return;
        }
        final Peer peer = verifiedSender();
        if (peer == null || frame.incarnation() != peer.incarnation())
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
    public void onDirectoryUpdate(final DirectoryUpdateFrame frame)
    {
        if (wrongStream(agent.config.controlStreamId()))
        {
            return;
        }
        final Peer peer = verifiedSender();
        if (peer != null)
        {
            directory.onUpdate(peer, frame);
        }
    }

    @Override
    public void onGoodbye(final GoodbyeFrame frame)
    {
        if (wrongStream(agent.config.controlStreamId()))
        {
            return;
        }
        final Peer peer = verifiedSender();
        if (peer != null && frame.incarnation() == peer.incarnation())
        {
            agent.lifecycle.sessionLost(peer,
                "goodbye (" + frame.reason() + (frame.detail().isEmpty() ? "" : ": " + frame.detail()) + ")");
            if (frame.reason() == GoodbyeReason.SHUTDOWN || frame.reason() == GoodbyeReason.RESTART)
            {
                // its actors are gone with it (or it removed this node from its peers: gone for us all the same)
                agent.host.nodeGone(peer.nodeId, frame.reason() == GoodbyeReason.SHUTDOWN ?
                    TerminationReason.NODE_STOPPED : TerminationReason.NODE_RESTARTED);
            }
            peer.retryHelloAt(agent.clock.nanoTime() + peer.backoff.nextDelayNs());
            if (frame.reason() == GoodbyeReason.PROTOCOL_ERROR)
            {
                agent.renewPublications(peer, "it found a stream of ours damaged"); // the next session gets fresh ones
            }
        }
    }
}
