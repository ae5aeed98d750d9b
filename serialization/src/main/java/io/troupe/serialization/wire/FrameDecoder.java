package io.troupe.serialization.wire;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The one entry point for received frames: validates a frame before it trusts a byte of it, then hands a
 * view to the {@link FrameHandler}. Checks, in order: the bounds given, minimum and maximum frame size,
 * schema id, version (not older than {@link WireFormat#MIN_SUPPORTED_VERSION}; newer versions are read
 * through the header's block length), template id, block length (at least the fields of the frame's version:
 * a version 1 heartbeat is shorter than a version 2 one), every repeating group's header and entries, and
 * every variable-length field's length against its limit and the bytes that remain. Bytes after the last
 * known field are allowed (fields a newer version appended).
 *
 * <p>Nothing is thrown into the caller's loop and nothing is allocated: {@link #decode} returns a
 * {@link FrameResult}, and every result is counted ({@link #count}). Owned by one thread (the interconnect
 * agent); the counters may be read from any thread.
 */
public final class FrameDecoder
{
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final FrameResult[] RESULTS = FrameResult.values();
    // The envelope's block is the same in every version so far (OtfIndependentReaderTest checks it); a version
    // that appends to it must make decodeEnvelope check the block per version, as the general path does.
    private static final int ENVELOPE_MIN_BLOCK_LENGTH =
        TemplateLayout.of(WireFormat.ENVELOPE).minBlockLength(WireFormat.MIN_SUPPORTED_VERSION);
    private static final int FORWARDED_ENVELOPE_MIN_BLOCK_LENGTH =
        TemplateLayout.of(WireFormat.FORWARDED_ENVELOPE).minBlockLength(WireFormat.SCHEMA_VERSION);
    private static final int ENVELOPE_MAX_PAYLOAD_LENGTH = TemplateLayout.of(WireFormat.ENVELOPE).varDataMaxLengths[0];

    private final FrameHandler handler;
    private final int maxFrameBytes;
    private final AtomicLongArray counts = new AtomicLongArray(RESULTS.length);
    private final EnvelopeFrame envelope = new EnvelopeFrame();
    private final HandshakeFrame handshake = new HandshakeFrame();
    private final HeartbeatFrame heartbeat = new HeartbeatFrame();
    private final AckFrame ack = new AckFrame();
    private final CreditDeltasFrame creditDeltas = new CreditDeltasFrame();
    private final UndeliveredNoticeFrame undeliveredNotice = new UndeliveredNoticeFrame();
    private final DirectoryUpdateFrame directoryUpdate = new DirectoryUpdateFrame();
    private final GoodbyeFrame goodbye = new GoodbyeFrame();
    private final ChunkFrame chunk = new ChunkFrame();
    private Throwable lastHandlerFailure;

    /**
     * A decoder with the default maximum frame size ({@link WireFormat#DEFAULT_MAX_FRAME_BYTES}).
     *
     * @param handler receives valid frames.
     */
    public FrameDecoder(final FrameHandler handler)
    {
        this(handler, WireFormat.DEFAULT_MAX_FRAME_BYTES);
    }

    /**
     * A decoder.
     *
     * @param handler       receives valid frames.
     * @param maxFrameBytes the largest frame accepted, at least {@link WireFormat#MIN_MAX_FRAME_BYTES}.
     */
    public FrameDecoder(final FrameHandler handler, final int maxFrameBytes)
    {
        if (handler == null)
        {
            throw new NullPointerException("handler");
        }
        if (maxFrameBytes < WireFormat.MIN_MAX_FRAME_BYTES)
        {
            throw new IllegalArgumentException("maxFrameBytes " + maxFrameBytes + " must be at least " +
                WireFormat.MIN_MAX_FRAME_BYTES);
        }
        this.handler = handler;
        this.maxFrameBytes = maxFrameBytes;
    }

    /**
     * Validates one frame and, if it is valid, hands it to the handler.
     *
     * @param buffer the bytes.
     * @param offset where the frame starts.
     * @param length the frame's length.
     * @return {@link FrameResult#OK}, or why the frame was rejected (or that the handler threw).
     */
    public FrameResult decode(final DirectBuffer buffer, final int offset, final int length)
    {
        final FrameResult result = validateAndDispatch(buffer, offset, length);
        counts.lazySet(result.ordinal(), counts.get(result.ordinal()) + 1); // single writer
        return result;
    }

    /**
     * Frames that ended with a result so far.
     *
     * @param result the result.
     * @return the count.
     */
    public long count(final FrameResult result)
    {
        return counts.get(result.ordinal());
    }

    /**
     * Frames rejected so far, for any reason.
     *
     * @return the count.
     */
    public long rejectedCount()
    {
        long total = 0;
        for (final FrameResult result : RESULTS)
        {
            if (result.isRejection())
            {
                total += counts.get(result.ordinal());
            }
        }
        return total;
    }

    /**
     * The largest frame accepted.
     *
     * @return bytes.
     */
    public int maxFrameBytes()
    {
        return maxFrameBytes;
    }

    /**
     * What the handler threw the last time it failed, for the caller's log (decoding thread only).
     *
     * @return the failure, or null.
     */
    public Throwable lastHandlerFailure()
    {
        return lastHandlerFailure;
    }

    private FrameResult validateAndDispatch(final DirectBuffer buffer, final int offset, final int length)
    {
        if (offset < 0 || length < 0 || (long)offset + length > buffer.capacity())
        {
            return FrameResult.OUT_OF_BUFFER;
        }
        if (length < WireFormat.HEADER_LENGTH)
        {
            return FrameResult.TOO_SHORT;
        }
        if (length > maxFrameBytes)
        {
            return FrameResult.TOO_LONG;
        }
        // the header lies inside the buffer (checked above): read it without a check per field
        final int blockLength = RawAccess.getUnsignedShort(buffer, offset);
        final int templateId = RawAccess.getUnsignedShort(buffer, offset + 2);
        final int schemaId = RawAccess.getUnsignedShort(buffer, offset + 4);
        final int version = RawAccess.getUnsignedShort(buffer, offset + 6);
        if (schemaId != WireFormat.SCHEMA_ID)
        {
            return FrameResult.WRONG_SCHEMA;
        }
        if (version < WireFormat.MIN_SUPPORTED_VERSION)
        {
            return FrameResult.UNSUPPORTED_VERSION;
        }
        if (templateId == WireFormat.ENVELOPE)
        {
            return decodeEnvelope(buffer, offset, length, blockLength, version, false);
        }
        if (templateId == WireFormat.FORWARDED_ENVELOPE)
        {
            return decodeEnvelope(buffer, offset, length, blockLength, version, true);
        }
        final TemplateLayout layout = TemplateLayout.of(templateId);
        if (layout == null)
        {
            return FrameResult.UNKNOWN_TEMPLATE;
        }
        if (blockLength < layout.minBlockLength(version))
        {
            return FrameResult.BLOCK_TOO_SHORT;
        }
        final Frame frame = frameFor(templateId);
        final int blockOffset = offset + WireFormat.HEADER_LENGTH;
        final int end = offset + length;
        if (blockLength > end - blockOffset)
        {
            return FrameResult.TRUNCATED_BLOCK;
        }
        final FrameResult shape = validateTail(buffer, blockOffset + blockLength, end, layout, frame, version);
        if (shape != FrameResult.OK)
        {
            return shape;
        }
        frame.wrap(buffer, blockOffset, blockLength, version, length);
        return dispatch(templateId, frame);
    }

    /**
     * The envelope, the one frame on the hot path: the same checks as the general path (its layout is a block
     * and one variable-length payload), without the loops over groups and fields. A forwarded envelope is the
     * same with a longer block.
     */
    private FrameResult decodeEnvelope(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final int blockLength,
        final int version,
        final boolean forwarded)
    {
        if (blockLength < (forwarded ? FORWARDED_ENVELOPE_MIN_BLOCK_LENGTH : ENVELOPE_MIN_BLOCK_LENGTH))
        {
            return FrameResult.BLOCK_TOO_SHORT;
        }
        final int blockOffset = offset + WireFormat.HEADER_LENGTH;
        final int end = offset + length;
        if (blockLength > end - blockOffset)
        {
            return FrameResult.TRUNCATED_BLOCK;
        }
        final int lengthAt = blockOffset + blockLength;
        if (end - lengthAt < WireFormat.VAR_DATA_HEADER_LENGTH)
        {
            return FrameResult.TRUNCATED_VAR_DATA;
        }
        final long payloadLength = RawAccess.getInt(buffer, lengthAt) & 0xFFFF_FFFFL;
        final int payloadOffset = lengthAt + WireFormat.VAR_DATA_HEADER_LENGTH;
        if (payloadLength > ENVELOPE_MAX_PAYLOAD_LENGTH)
        {
            return FrameResult.VAR_DATA_TOO_LONG;
        }
        if (payloadLength > end - payloadOffset)
        {
            return FrameResult.TRUNCATED_VAR_DATA;
        }
        envelope.wrapEnvelope(buffer, blockOffset, blockLength, version, length, payloadOffset, (int)payloadLength,
            forwarded);
        try
        {
            handler.onEnvelope(envelope);
            return FrameResult.OK;
        }
        catch (final Exception ex) // see dispatch
        {
            lastHandlerFailure = ex;
            return FrameResult.HANDLER_FAILED;
        }
    }

    /** Groups, then variable-length fields, in schema order; records where each lies for the view. */
    private static FrameResult validateTail(
        final DirectBuffer buffer,
        final int start,
        final int end,
        final TemplateLayout layout,
        final Frame frame,
        final int version)
    {
        int position = start;
        final int[] groupMins = layout.groupMinBlockLengths;
        for (int g = 0; g < groupMins.length; g++)
        {
            if (end - position < WireFormat.GROUP_HEADER_LENGTH)
            {
                return FrameResult.TRUNCATED_GROUP;
            }
            final int entryLength = buffer.getShort(position, ORDER) & 0xFFFF;
            final int count = buffer.getShort(position + 2, ORDER) & 0xFFFF;
            if (entryLength < groupMins[g])
            {
                return FrameResult.GROUP_BLOCK_TOO_SHORT;
            }
            position += WireFormat.GROUP_HEADER_LENGTH;
            final long entriesLength = (long)count * entryLength;
            if (entriesLength > end - position)
            {
                return FrameResult.TRUNCATED_GROUP;
            }
            frame.groupOffset = position;
            frame.groupCount = count;
            frame.groupBlockLength = entryLength;
            position += (int)entriesLength;
        }
        final int[] varMax = layout.varDataMaxLengths;
        final int[] varSince = layout.varDataSinceVersions;
        for (int v = 0; v < varMax.length; v++)
        {
            if (varSince[v] > version)
            {
                frame.varLengths[v] = 0; // added by a later version than the frame's: absent, reads as empty
                frame.varOffsets[v] = position;
                continue;
            }
            if (end - position < WireFormat.VAR_DATA_HEADER_LENGTH)
            {
                return FrameResult.TRUNCATED_VAR_DATA;
            }
            final long varLength = buffer.getInt(position, ORDER) & 0xFFFF_FFFFL;
            position += WireFormat.VAR_DATA_HEADER_LENGTH;
            if (varLength > varMax[v])
            {
                return FrameResult.VAR_DATA_TOO_LONG;
            }
            if (varLength > end - position)
            {
                return FrameResult.TRUNCATED_VAR_DATA;
            }
            frame.varOffsets[v] = position;
            frame.varLengths[v] = (int)varLength;
            position += (int)varLength;
        }
        return FrameResult.OK;
    }

    private Frame frameFor(final int templateId)
    {
        switch (templateId)
        {
            case WireFormat.ENVELOPE:
                return envelope;
            case WireFormat.HANDSHAKE:
                return handshake;
            case WireFormat.HEARTBEAT:
                return heartbeat;
            case WireFormat.ACK:
                return ack;
            case WireFormat.CREDIT_DELTAS:
                return creditDeltas;
            case WireFormat.UNDELIVERED_NOTICE:
                return undeliveredNotice;
            case WireFormat.DIRECTORY_UPDATE:
                return directoryUpdate;
            case WireFormat.GOODBYE:
                return goodbye;
            case WireFormat.CHUNK:
                return chunk;
            default:
                throw new IllegalStateException("template " + templateId + " has a layout but no frame view");
        }
    }

    private FrameResult dispatch(final int templateId, final Frame frame)
    {
        try
        {
            switch (templateId)
            {
                case WireFormat.ENVELOPE:
                    handler.onEnvelope((EnvelopeFrame)frame);
                    break;
                case WireFormat.HANDSHAKE:
                    handler.onHandshake((HandshakeFrame)frame);
                    break;
                case WireFormat.HEARTBEAT:
                    handler.onHeartbeat((HeartbeatFrame)frame);
                    break;
                case WireFormat.ACK:
                    handler.onAck((AckFrame)frame);
                    break;
                case WireFormat.CREDIT_DELTAS:
                    handler.onCreditDeltas((CreditDeltasFrame)frame);
                    break;
                case WireFormat.UNDELIVERED_NOTICE:
                    handler.onUndeliveredNotice((UndeliveredNoticeFrame)frame);
                    break;
                case WireFormat.DIRECTORY_UPDATE:
                    handler.onDirectoryUpdate((DirectoryUpdateFrame)frame);
                    break;
                case WireFormat.GOODBYE:
                    handler.onGoodbye((GoodbyeFrame)frame);
                    break;
                default:
                    handler.onChunk((ChunkFrame)frame);
                    break;
            }
            return FrameResult.OK;
        }
        // not only RuntimeException: a handler in Kotlin or Scala throws checked ones undeclared
        catch (final Exception ex)
        {
            lastHandlerFailure = ex;
            return FrameResult.HANDLER_FAILED;
        }
    }
}
