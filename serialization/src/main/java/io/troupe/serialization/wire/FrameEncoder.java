package io.troupe.serialization.wire;

import io.troupe.serialization.EventCodec;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.EventTypes;
import io.troupe.actor.UndeliveredReason;
import io.troupe.actor.WirePayload;
import io.troupe.serialization.internal.sbe.AckEncoder;
import io.troupe.serialization.internal.sbe.BooleanType;
import io.troupe.serialization.internal.sbe.ChunkEncoder;
import io.troupe.serialization.internal.sbe.CreditDeltasEncoder;
import io.troupe.serialization.internal.sbe.DirectoryUpdateEncoder;
import io.troupe.serialization.internal.sbe.EnvelopeEncoder;
import io.troupe.serialization.internal.sbe.ForwardedEnvelopeEncoder;
import io.troupe.serialization.internal.sbe.GoodbyeEncoder;
import io.troupe.serialization.internal.sbe.HandshakeEncoder;
import io.troupe.serialization.internal.sbe.HeartbeatEncoder;
import io.troupe.serialization.internal.sbe.MessageHeaderEncoder;
import io.troupe.serialization.internal.sbe.UndeliveredNoticeEncoder;
import io.troupe.serialization.internal.sbe.UndeliveredReasonCode;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes frames. Each method writes one complete frame at {@code offset} and returns its length; the
 * caller provides a buffer with room for it (an Aeron claim of {@link WireFormat#envelopeLength} bytes, or
 * a scratch buffer), else an {@link IllegalArgumentException} says how much was needed. Encoding an envelope
 * allocates nothing. Not thread safe: one encoder per sending thread.
 */
public final class FrameEncoder
{
    private static final UndeliveredReasonCode[] REASON_CODES = {
        UndeliveredReasonCode.ACTOR_UNKNOWN, UndeliveredReasonCode.DISCONNECTED, UndeliveredReasonCode.COLLAPSED,
        UndeliveredReasonCode.SHED, UndeliveredReasonCode.SHUTDOWN};
    private static final byte[] EMPTY = new byte[0];
    /** Longest payload whose frame length still fits an int (the decoder's maximum frame is far smaller). */
    private static final int MAX_PAYLOAD_LENGTH = Integer.MAX_VALUE - WireFormat.envelopeLength(0, true);

    // Envelope field offsets in the block, from the schema (the envelope is written without the generated
    // encoder, to skip its bounds check per field; the OTF reader test proves the layout matches the schema).
    private static final int ENV_RECIPIENT_RAW1 = EnvelopeEncoder.recipientRaw1EncodingOffset();
    private static final int ENV_RECIPIENT_RAW2 = EnvelopeEncoder.recipientRaw2EncodingOffset();
    private static final int ENV_SENDER_RAW1 = EnvelopeEncoder.senderRaw1EncodingOffset();
    private static final int ENV_SENDER_RAW2 = EnvelopeEncoder.senderRaw2EncodingOffset();
    private static final int ENV_COOKIE = EnvelopeEncoder.cookieEncodingOffset();
    private static final int ENV_ACCOUNT_ID = EnvelopeEncoder.accountIdEncodingOffset();
    private static final int ENV_EVENT_TYPE = EnvelopeEncoder.eventTypeEncodingOffset();
    private static final int ENV_FLAGS = EnvelopeEncoder.flagsEncodingOffset();
    private static final int ENV_ACCOUNT_OWNER_NODE = EnvelopeEncoder.accountOwnerNodeEncodingOffset();
    private static final int ENV_COST = EnvelopeEncoder.costEncodingOffset();
    // a forwarded envelope's block is the envelope's block (same offsets, checked by EnvelopeWireTest) and then
    // the forward target
    private static final int ENV_FORWARD_RAW1 = ForwardedEnvelopeEncoder.forwardRaw1EncodingOffset();
    private static final int ENV_FORWARD_RAW2 = ForwardedEnvelopeEncoder.forwardRaw2EncodingOffset();

    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final HandshakeEncoder handshake = new HandshakeEncoder();
    private final HeartbeatEncoder heartbeat = new HeartbeatEncoder();
    private final AckEncoder ack = new AckEncoder();
    private final CreditDeltasEncoder creditDeltas = new CreditDeltasEncoder();
    private final UndeliveredNoticeEncoder undeliveredNotice = new UndeliveredNoticeEncoder();
    private final DirectoryUpdateEncoder directoryUpdate = new DirectoryUpdateEncoder();
    private final GoodbyeEncoder goodbye = new GoodbyeEncoder();
    private final ChunkEncoder chunk = new ChunkEncoder();

    /**
     * Creates an encoder; keep it and reuse it (one per sending thread).
     */
    public FrameEncoder()
    {
    }

    /**
     * Writes an envelope frame with a payload that is already encoded.
     *
     * @param buffer           where to write.
     * @param offset           at which offset.
     * @param envelope         recipient, sender, type, flags and cookie.
     * @param accountOwnerNode the node owning the credit account the event is charged to.
     * @param accountId        the credit account on that node.
     * @param cost             the cost charged.
     * @param payload          the encoded event.
     * @param payloadOffset    where it starts.
     * @param payloadLength    its length.
     * @return the frame's length, {@link WireFormat#envelopeLength(int, boolean)}{@code (payloadLength, forwarded)}
     *         where {@code forwarded} says whether the envelope has a {@link #forwardTarget forward target}.
     * @throws IllegalArgumentException if the payload length is negative or the buffer has no room.
     */
    public int encodeEnvelope(
        final MutableDirectBuffer buffer,
        final int offset,
        final Envelope envelope,
        final int accountOwnerNode,
        final long accountId,
        final int cost,
        final DirectBuffer payload,
        final int payloadOffset,
        final int payloadLength)
    {
        final int payloadAt = beginEnvelope(buffer, offset, envelope.recipient(), envelope.sender(), envelope.type(),
            envelope.flags(), envelope.cookie(), accountOwnerNode, accountId, cost, forwardTarget(envelope),
            payloadLength);
        buffer.putBytes(payloadAt, payload, payloadOffset, payloadLength);
        return payloadAt + payloadLength - offset;
    }

    /**
     * Writes an envelope frame, encoding its event with a codec straight into the buffer. An envelope that
     * arrived serialized (e.g. one being forwarded) is written with its payload bytes as they are.
     *
     * @param buffer           where to write.
     * @param offset           at which offset.
     * @param envelope         the envelope.
     * @param accountOwnerNode the node owning the credit account the event is charged to.
     * @param accountId        the credit account on that node.
     * @param cost             the cost charged.
     * @param codec            the codec of the envelope's type.
     * @param <T>              the event type.
     * @return the frame's length.
     * @throws IllegalArgumentException if the codec is for another type id or event class, or the buffer has no
     *                                  room.
     * @throws IllegalStateException    if the codec wrote another number of bytes than it announced.
     */
    public <T> int encodeEnvelope(
        final MutableDirectBuffer buffer,
        final int offset,
        final Envelope envelope,
        final int accountOwnerNode,
        final long accountId,
        final int cost,
        final EventCodec<T> codec)
    {
        final WirePayload payload = envelope.payload();
        if (payload != null)
        {
            return encodeEnvelope(buffer, offset, envelope, accountOwnerNode, accountId, cost,
                payload.buffer(), 0, payload.length());
        }
        if (codec.typeId() != envelope.type())
        {
            throw new IllegalArgumentException("codec " + codec.name() + " is for type " +
                EventTypes.describe(codec.typeId()) + ", the envelope's type is " +
                EventTypes.describe(envelope.type()));
        }
        final Object event = envelope.event();
        if (!codec.eventClass().isInstance(event))
        {
            throw new IllegalArgumentException("codec " + codec.name() + " encodes " + codec.eventClass().getName() +
                ", the envelope carries " + (event == null ? "null" : event.getClass().getName()));
        }
        final T typed = codec.eventClass().cast(event);
        final int payloadLength = codec.encodedLength(typed);
        final int payloadAt = beginEnvelope(buffer, offset, envelope.recipient(), envelope.sender(), envelope.type(),
            envelope.flags(), envelope.cookie(), accountOwnerNode, accountId, cost, forwardTarget(envelope),
            payloadLength);
        final int written = codec.encode(typed, buffer, payloadAt);
        if (written != payloadLength)
        {
            throw new IllegalStateException("codec " + codec.name() + " wrote " + written + " bytes after announcing " +
                payloadLength);
        }
        return payloadAt + payloadLength - offset;
    }

    /**
     * The forward target an envelope's frame carries: its {@link Envelope#forwardTo()} if it is flagged
     * {@link Envelope#FLAG_FORWARD_ON_NONDELIVERY}, else none.
     *
     * @param envelope the envelope.
     * @return the target, or null.
     */
    public static ActorId forwardTarget(final Envelope envelope)
    {
        return (envelope.flags() & Envelope.FLAG_FORWARD_ON_NONDELIVERY) != 0 ? envelope.forwardTo() : null;
    }

    /**
     * Writes everything of an envelope frame but the payload's bytes, so that a codec can encode the event in
     * place: the payload goes at the returned offset and must be exactly {@code payloadLength} bytes. With a
     * forward target the frame is a ForwardedEnvelope (the envelope's block, then the target; schema version 5),
     * {@link WireFormat#envelopeLength(int, boolean) 16 bytes longer}; without one, a plain Envelope.
     *
     * @param buffer           where to write.
     * @param offset           at which offset.
     * @param recipient        the recipient.
     * @param sender           the sender.
     * @param eventType        the event's type id.
     * @param flags            the envelope's flags.
     * @param cookie           the sender's cookie.
     * @param accountOwnerNode the node owning the credit account charged.
     * @param accountId        the account.
     * @param cost             the cost charged.
     * @param forwardTo        where the event goes if the recipient does not exist, or null.
     * @param payloadLength    the payload's length.
     * @return the offset at which the payload goes.
     * @throws IllegalArgumentException if the payload length is negative or the buffer has no room.
     */
    public int beginEnvelope(
        final MutableDirectBuffer buffer,
        final int offset,
        final ActorId recipient,
        final ActorId sender,
        final int eventType,
        final int flags,
        final long cookie,
        final int accountOwnerNode,
        final long accountId,
        final int cost,
        final ActorId forwardTo,
        final int payloadLength)
    {
        if (payloadLength < 0 || payloadLength > MAX_PAYLOAD_LENGTH)
        {
            throw new IllegalArgumentException("payload length " + payloadLength + " must be 0.." + MAX_PAYLOAD_LENGTH);
        }
        final boolean forwarded = forwardTo != null;
        requireRoom(buffer, offset, WireFormat.envelopeLength(payloadLength, forwarded), "envelope");
        final ActorId from = sender == null ? ActorId.NONE : sender;
        final int blockLength = forwarded ? ForwardedEnvelopeEncoder.BLOCK_LENGTH : EnvelopeEncoder.BLOCK_LENGTH;
        // the whole frame fits (checked above): write header and block without a check per field
        RawAccess.putShort(buffer, offset, (short)blockLength);
        RawAccess.putShort(buffer, offset + 2,
            (short)(forwarded ? ForwardedEnvelopeEncoder.TEMPLATE_ID : EnvelopeEncoder.TEMPLATE_ID));
        RawAccess.putShort(buffer, offset + 4, (short)EnvelopeEncoder.SCHEMA_ID);
        RawAccess.putShort(buffer, offset + 6, (short)EnvelopeEncoder.SCHEMA_VERSION);
        final int block = offset + WireFormat.HEADER_LENGTH;
        RawAccess.putLong(buffer, block + ENV_RECIPIENT_RAW1, recipient.raw1());
        RawAccess.putLong(buffer, block + ENV_RECIPIENT_RAW2, recipient.raw2());
        RawAccess.putLong(buffer, block + ENV_SENDER_RAW1, from.raw1());
        RawAccess.putLong(buffer, block + ENV_SENDER_RAW2, from.raw2());
        RawAccess.putLong(buffer, block + ENV_COOKIE, cookie);
        RawAccess.putLong(buffer, block + ENV_ACCOUNT_ID, accountId);
        RawAccess.putInt(buffer, block + ENV_EVENT_TYPE, eventType);
        RawAccess.putInt(buffer, block + ENV_FLAGS, flags);
        RawAccess.putInt(buffer, block + ENV_ACCOUNT_OWNER_NODE, accountOwnerNode);
        RawAccess.putInt(buffer, block + ENV_COST, cost);
        if (forwarded)
        {
            RawAccess.putLong(buffer, block + ENV_FORWARD_RAW1, forwardTo.raw1());
            RawAccess.putLong(buffer, block + ENV_FORWARD_RAW2, forwardTo.raw2());
        }
        final int lengthAt = block + blockLength;
        RawAccess.putInt(buffer, lengthAt, payloadLength);
        return lengthAt + WireFormat.VAR_DATA_HEADER_LENGTH;
    }

    /**
     * Writes a handshake step.
     *
     * @param buffer    where to write.
     * @param offset    at which offset.
     * @param step      the step.
     * @return the frame's length.
     * @throws IllegalArgumentException if a field is longer than its limit, a protocol version is not 0..65535,
     *                                  or the buffer has no room.
     */
    public int encodeHandshake(final MutableDirectBuffer buffer, final int offset, final Handshake step)
    {
        final byte[] clusterId = utf8(step.clusterId());
        final byte[] challenge = orEmpty(step.challenge());
        final byte[] proof = orEmpty(step.proof());
        final byte[] detail = utf8(step.detail());
        final byte[] types = orEmpty(step.types());
        final byte[] echo = orEmpty(step.echo());
        checkLimit("cluster id", clusterId.length, WireFormat.MAX_CLUSTER_ID_BYTES);
        checkLimit("echo", echo.length, WireFormat.MAX_AUTH_BYTES);
        checkLimit("type table", types.length, WireFormat.MAX_TYPE_TABLE_BYTES);
        checkLimit("challenge", challenge.length, WireFormat.MAX_AUTH_BYTES);
        checkLimit("proof", proof.length, WireFormat.MAX_AUTH_BYTES);
        checkLimit("detail", detail.length, WireFormat.MAX_DETAIL_BYTES);
        checkUint16("min protocol version", step.minProtocolVersion());
        checkUint16("max protocol version", step.maxProtocolVersion());
        if (step.phase() == HandshakePhase.UNKNOWN)
        {
            throw new IllegalArgumentException("a handshake step cannot be sent as UNKNOWN");
        }
        if (step.protection() == null || step.protection() == FrameProtection.UNKNOWN)
        {
            throw new IllegalArgumentException("a handshake step must say how frames are protected, not " +
                step.protection());
        }
        requireRoom(buffer, offset, WireFormat.HEADER_LENGTH + HandshakeEncoder.BLOCK_LENGTH +
            6 * WireFormat.VAR_DATA_HEADER_LENGTH + clusterId.length + challenge.length + proof.length + detail.length +
            types.length + echo.length,
            "handshake");
        handshake.wrapAndApplyHeader(buffer, offset, header)
            .incarnation(step.incarnation())
            .peerIncarnation(step.peerIncarnation())
            .nodeId(step.nodeId())
            .peerNodeId(step.peerNodeId())
            .minProtocolVersion(step.minProtocolVersion())
            .maxProtocolVersion(step.maxProtocolVersion())
            .phase(io.troupe.serialization.internal.sbe.HandshakePhase.get((short)step.phase().code())) // name clash
            .frameProtection((short)step.protection().code())
            .putClusterId(clusterId, 0, clusterId.length)
            .putChallenge(challenge, 0, challenge.length)
            .putProof(proof, 0, proof.length)
            .putDetail(detail, 0, detail.length)
            .putTypes(types, 0, types.length)
            .putEcho(echo, 0, echo.length);
        return handshake.limit() - offset;
    }

    /**
     * Writes a heartbeat.
     *
     * @param buffer      where to write.
     * @param offset      at which offset.
     * @param nodeId      the sender's node id.
     * @param incarnation the sender's incarnation.
     * @param sendTimeNs  the sender's clock now.
     * @param sequence    the heartbeat's sequence number.
     * @param echoTimeNs  the {@code sendTimeNs} of the last heartbeat the sender received from the peer, 0 if none.
     * @param echoDelayNs how long ago, on the sender's clock, it received that heartbeat (0 if none).
     * @return the frame's length.
     */
    public int encodeHeartbeat(
        final MutableDirectBuffer buffer, final int offset, final int nodeId, final long incarnation,
        final long sendTimeNs, final long sequence, final long echoTimeNs, final long echoDelayNs)
    {
        requireRoom(buffer, offset, WireFormat.HEADER_LENGTH + HeartbeatEncoder.BLOCK_LENGTH, "heartbeat");
        heartbeat.wrapAndApplyHeader(buffer, offset, header)
            .incarnation(incarnation)
            .sendTimeNs(sendTimeNs)
            .sequence(sequence)
            .nodeId(nodeId)
            .echoTimeNs(echoTimeNs)
            .echoDelayNs(echoDelayNs);
        return heartbeat.limit() - offset;
    }

    /**
     * Writes a cumulative acknowledgement.
     *
     * @param buffer        where to write.
     * @param offset        at which offset.
     * @param nodeId        the sender's node id.
     * @param incarnation   the sender's incarnation.
     * @param streamId      the stream acknowledged.
     * @param ackedPosition everything up to this position was received.
     * @return the frame's length.
     */
    public int encodeAck(
        final MutableDirectBuffer buffer, final int offset, final int nodeId, final long incarnation,
        final int streamId, final long ackedPosition)
    {
        requireRoom(buffer, offset, WireFormat.HEADER_LENGTH + AckEncoder.BLOCK_LENGTH, "ack");
        ack.wrapAndApplyHeader(buffer, offset, header)
            .incarnation(incarnation)
            .ackedPosition(ackedPosition)
            .nodeId(nodeId)
            .streamId(streamId);
        return ack.limit() - offset;
    }

    /**
     * Writes a batch of credit deltas from parallel arrays (no allocation).
     *
     * @param buffer      where to write.
     * @param offset      at which offset.
     * @param nodeId      the sender's node id.
     * @param incarnation the sender's incarnation.
     * @param ownerNodes  each entry's account owner node.
     * @param accountIds  each entry's account id.
     * @param deltas      each entry's net delta.
     * @param count       entries to write from the start of the arrays, at most {@link WireFormat#MAX_GROUP_ENTRIES}.
     * @return the frame's length.
     */
    public int encodeCreditDeltas(
        final MutableDirectBuffer buffer, final int offset, final int nodeId, final long incarnation,
        final int[] ownerNodes, final long[] accountIds, final long[] deltas, final int count)
    {
        checkCount(count, ownerNodes.length, accountIds.length, deltas.length);
        requireRoom(buffer, offset, WireFormat.HEADER_LENGTH + CreditDeltasEncoder.BLOCK_LENGTH +
            WireFormat.GROUP_HEADER_LENGTH + count * CreditDeltasEncoder.DeltasEncoder.sbeBlockLength(),
            "credit deltas");
        final CreditDeltasEncoder.DeltasEncoder entries = creditDeltas.wrapAndApplyHeader(buffer, offset, header)
            .incarnation(incarnation)
            .nodeId(nodeId)
            .deltasCount(count);
        for (int i = 0; i < count; i++)
        {
            entries.next().accountId(accountIds[i]).delta(deltas[i]).accountOwnerNode(ownerNodes[i]);
        }
        return creditDeltas.limit() - offset;
    }

    /**
     * Writes an undelivered notice.
     *
     * @param buffer    where to write.
     * @param offset    at which offset.
     * @param sender    the event's sender, who gets the notice.
     * @param recipient the recipient the event did not reach.
     * @param eventType the event's type id.
     * @param cookie    the event's cookie.
     * @param reason    why.
     * @param unsure    whether it may have been delivered after all.
     * @return the frame's length.
     * @throws IllegalArgumentException for {@link UndeliveredReason#REFUSED}, which this message has no code for
     *                                  (it is told to clients as an {@code Undelivered} event, in an envelope).
     */
    public int encodeUndeliveredNotice(
        final MutableDirectBuffer buffer, final int offset, final ActorId sender, final ActorId recipient,
        final int eventType, final long cookie, final UndeliveredReason reason, final boolean unsure)
    {
        if (reason.ordinal() >= REASON_CODES.length)
        {
            throw new IllegalArgumentException("an UndeliveredNotice frame has no code for reason " + reason);
        }
        requireRoom(buffer, offset, WireFormat.HEADER_LENGTH + UndeliveredNoticeEncoder.BLOCK_LENGTH,
            "undelivered notice");
        undeliveredNotice.wrapAndApplyHeader(buffer, offset, header)
            .senderRaw1(sender.raw1())
            .senderRaw2(sender.raw2())
            .recipientRaw1(recipient.raw1())
            .recipientRaw2(recipient.raw2())
            .cookie(cookie)
            .eventType(eventType)
            .reason(REASON_CODES[reason.ordinal()])
            .unsure(unsure ? BooleanType.TRUE : BooleanType.FALSE);
        return undeliveredNotice.limit() - offset;
    }

    /**
     * Writes a directory update.
     *
     * @param buffer           where to write.
     * @param offset           at which offset.
     * @param nodeId           the sender's node id.
     * @param incarnation      the sender's incarnation.
     * @param directoryVersion the version of the sender's directory the update brings the receiver to.
     * @param snapshot         whether the entries are the whole directory.
     * @param entries          the entries, at most {@link WireFormat#MAX_GROUP_ENTRIES}.
     * @return the frame's length.
     */
    public int encodeDirectoryUpdate(
        final MutableDirectBuffer buffer, final int offset, final int nodeId, final long incarnation,
        final long directoryVersion, final boolean snapshot, final List<DirectoryEntry> entries)
    {
        final int count = entries.size();
        checkCount(count, count, count, count);
        requireRoom(buffer, offset, WireFormat.HEADER_LENGTH + DirectoryUpdateEncoder.BLOCK_LENGTH +
            WireFormat.GROUP_HEADER_LENGTH + count * DirectoryUpdateEncoder.EntriesEncoder.sbeBlockLength(),
            "directory update");
        final DirectoryUpdateEncoder.EntriesEncoder group = directoryUpdate.wrapAndApplyHeader(buffer, offset, header)
            .incarnation(incarnation)
            .directoryVersion(directoryVersion)
            .nodeId(nodeId)
            .snapshot(snapshot ? BooleanType.TRUE : BooleanType.FALSE)
            .entriesCount(count);
        for (final DirectoryEntry entry : entries)
        {
            if (entry.op() == DirectoryOp.UNKNOWN)
            {
                throw new IllegalArgumentException("a directory entry cannot be sent as UNKNOWN: " + entry);
            }
            group.next()
                .serviceRaw1(entry.service().raw1())
                .serviceRaw2(entry.service().raw2())
                .actorRaw1(entry.actor().raw1())
                .actorRaw2(entry.actor().raw2())
                .op(io.troupe.serialization.internal.sbe.DirectoryOp.get((short)entry.op().code())); // name clash
        }
        return directoryUpdate.limit() - offset;
    }

    /**
     * Writes a goodbye.
     *
     * @param buffer      where to write.
     * @param offset      at which offset.
     * @param nodeId      the sender's node id.
     * @param incarnation the sender's incarnation.
     * @param reason      why the session ends.
     * @param detail      free text, at most {@link WireFormat#MAX_DETAIL_BYTES} bytes of UTF-8; may be null.
     * @return the frame's length.
     */
    public int encodeGoodbye(
        final MutableDirectBuffer buffer, final int offset, final int nodeId, final long incarnation,
        final GoodbyeReason reason, final String detail)
    {
        if (reason == GoodbyeReason.UNKNOWN)
        {
            throw new IllegalArgumentException("a goodbye cannot be sent as UNKNOWN");
        }
        final byte[] text = utf8(detail);
        checkLimit("detail", text.length, WireFormat.MAX_DETAIL_BYTES);
        requireRoom(buffer, offset, WireFormat.HEADER_LENGTH + GoodbyeEncoder.BLOCK_LENGTH +
            WireFormat.VAR_DATA_HEADER_LENGTH + text.length, "goodbye");
        goodbye.wrapAndApplyHeader(buffer, offset, header)
            .incarnation(incarnation)
            .nodeId(nodeId)
            .reason(io.troupe.serialization.internal.sbe.GoodbyeReason.get((short)reason.code())) // name clash
            .putDetail(text, 0, text.length);
        return goodbye.limit() - offset;
    }

    /**
     * Writes a chunk: one slice of a frame too large for one transport message. The receiver checks that the
     * slices fit together; the encoder writes what it is given.
     *
     * @param buffer      where to write.
     * @param offset      at which offset.
     * @param totalLength the whole frame's length.
     * @param chunkOffset where the slice goes in the whole frame.
     * @param slice       the slice's bytes.
     * @param sliceAt     where they start in {@code slice}.
     * @param length      the slice's length, 0 or more.
     * @return the chunk frame's length, {@link WireFormat#CHUNK_OVERHEAD} plus the slice.
     * @throws IllegalArgumentException if the length is negative or the buffer has no room.
     */
    public int encodeChunk(
        final MutableDirectBuffer buffer, final int offset, final int totalLength, final int chunkOffset,
        final DirectBuffer slice, final int sliceAt, final int length)
    {
        if (length < 0 || length > Integer.MAX_VALUE - WireFormat.CHUNK_OVERHEAD)
        {
            throw new IllegalArgumentException("slice length " + length + " is out of range");
        }
        requireRoom(buffer, offset, WireFormat.CHUNK_OVERHEAD + length, "chunk");
        chunk.wrapAndApplyHeader(buffer, offset, header)
            .totalLength(totalLength)
            .chunkOffset(chunkOffset)
            .putBytes(slice, sliceAt, length);
        return chunk.limit() - offset;
    }

    private static void requireRoom(final MutableDirectBuffer buffer, final int offset, final int length,
        final String what)
    {
        if (buffer.isExpandable() && offset >= 0 && (long)offset + length <= Integer.MAX_VALUE)
        {
            buffer.checkLimit(offset + length); // grows an expandable scratch buffer
        }
        if (offset < 0 || (long)offset + length > buffer.capacity())
        {
            throw new IllegalArgumentException("no room for a " + length + "-byte " + what + " frame at offset " +
                offset + " of a " + buffer.capacity() + "-byte buffer");
        }
    }

    private static void checkLimit(final String field, final int length, final int max)
    {
        if (length > max)
        {
            throw new IllegalArgumentException(field + " is " + length + " bytes; at most " + max + " may be sent");
        }
    }

    private static void checkUint16(final String field, final int value)
    {
        if (value < 0 || value > 0xFFFF)
        {
            throw new IllegalArgumentException(field + " " + value + " must be 0..65535 (a uint16 on the wire)");
        }
    }

    private static void checkCount(final int count, final int a, final int b, final int c)
    {
        if (count < 0 || count > WireFormat.MAX_GROUP_ENTRIES || count > a || count > b || count > c)
        {
            throw new IllegalArgumentException("entry count " + count + " must be 0.." + WireFormat.MAX_GROUP_ENTRIES +
                " and within the arrays given");
        }
    }

    private static byte[] utf8(final String text)
    {
        return text == null || text.isEmpty() ? EMPTY : text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] orEmpty(final byte[] bytes)
    {
        return bytes == null ? EMPTY : bytes;
    }
}
