package io.troupe.serialization.wire;

import io.troupe.serialization.internal.sbe.EnvelopeDecoder;
import io.troupe.serialization.internal.sbe.MessageHeaderDecoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Compact envelope frames: an envelope frame whose header repeats the previous envelope frame of the same
 * message in everything but its cookie is sent as its cookie and payload alone.
 *
 * <p>A stream of small events between two actors (the common case: one actor streaming to another, or replying
 * to it) sends the same recipient, sender, event type, flags and credit account in every frame: 64 of the 100
 * bytes a 24-byte event takes. Packed into one datagram, such frames share all of it. A compact frame is
 * {@code int64 cookie, payload bytes} (the payload's length is what the entry's length leaves); it stands for
 * the full envelope frame made of the base frame's bytes with this cookie, this payload and the payload's
 * length. The receiver rebuilds that full frame ({@link #expand}) and decodes it like any other, so it is
 * validated exactly as one that came whole.
 *
 * <p>The layout of a full envelope frame: the message header ({@value WireFormat#HEADER_LENGTH} bytes), the
 * block (recipient, sender, cookie at {@link #COOKIE_OFFSET}, account, type, flags, owner, cost), the payload's
 * {@code uint32} length at {@link #PAYLOAD_LENGTH_OFFSET}, then the payload at {@link #FIXED_LENGTH}.
 * Little-endian, as the schema.
 */
public final class EnvelopeCompaction
{
    /** Where a full envelope frame's cookie is. */
    public static final int COOKIE_OFFSET = MessageHeaderDecoder.ENCODED_LENGTH +
        EnvelopeDecoder.cookieEncodingOffset();
    /** Where a full envelope frame's payload length is. */
    public static final int PAYLOAD_LENGTH_OFFSET = MessageHeaderDecoder.ENCODED_LENGTH + EnvelopeDecoder.BLOCK_LENGTH;
    /** Bytes of a full envelope frame before its payload. */
    public static final int FIXED_LENGTH = PAYLOAD_LENGTH_OFFSET + WireFormat.VAR_DATA_HEADER_LENGTH;
    /** Bytes of a compact frame before its payload: the cookie. */
    public static final int COMPACT_OVERHEAD = Long.BYTES;

    private static final int AFTER_COOKIE = COOKIE_OFFSET + Long.BYTES;

    private EnvelopeCompaction()
    {
    }

    /**
     * Whether {@code frame[offset, offset + length)} is laid out as a full envelope frame of this schema version:
     * the header names the envelope template, schema and version with the current block length, and the payload
     * length fills the rest of the frame exactly. Only such a frame may be a base.
     *
     * @param frame  the bytes.
     * @param offset where the frame starts.
     * @param length the frame's length.
     * @return true if it may be a base for compact frames.
     */
    public static boolean isBase(final DirectBuffer frame, final int offset, final int length)
    {
        return length >= FIXED_LENGTH &&
            frame.getShort(offset + MessageHeaderDecoder.blockLengthEncodingOffset(), ByteOrder.LITTLE_ENDIAN) ==
                EnvelopeDecoder.BLOCK_LENGTH &&
            frame.getShort(offset + MessageHeaderDecoder.templateIdEncodingOffset(), ByteOrder.LITTLE_ENDIAN) ==
                EnvelopeDecoder.TEMPLATE_ID &&
            frame.getShort(offset + MessageHeaderDecoder.schemaIdEncodingOffset(), ByteOrder.LITTLE_ENDIAN) ==
                EnvelopeDecoder.SCHEMA_ID &&
            frame.getShort(offset + MessageHeaderDecoder.versionEncodingOffset(), ByteOrder.LITTLE_ENDIAN) ==
                EnvelopeDecoder.SCHEMA_VERSION &&
            frame.getInt(offset + PAYLOAD_LENGTH_OFFSET, ByteOrder.LITTLE_ENDIAN) == length - FIXED_LENGTH;
    }

    /**
     * Whether a full envelope frame repeats a base frame in everything but its cookie and payload, so that it
     * may be sent compact after it. Both must be {@link #isBase bases}.
     *
     * @param frame      the frame's bytes, from index 0.
     * @param base       the array holding the base frame.
     * @param baseOffset where the base frame starts.
     * @return true if the frame may be sent compact.
     */
    public static boolean repeatsHeader(final byte[] frame, final byte[] base, final int baseOffset)
    {
        return Arrays.equals(frame, 0, COOKIE_OFFSET, base, baseOffset, baseOffset + COOKIE_OFFSET) &&
            Arrays.equals(frame, AFTER_COOKIE, PAYLOAD_LENGTH_OFFSET,
                base, baseOffset + AFTER_COOKIE, baseOffset + PAYLOAD_LENGTH_OFFSET);
    }

    /**
     * As {@link #repeatsHeader(byte[], byte[], int)}, for frames in any buffers (the client's send ring is off
     * heap).
     *
     * @param frame      the buffer holding the frame.
     * @param offset     where the frame starts.
     * @param base       the buffer holding the base frame.
     * @param baseOffset where the base frame starts.
     * @return true if the frame may be sent compact.
     */
    public static boolean repeatsHeader(final DirectBuffer frame, final int offset, final DirectBuffer base,
        final int baseOffset)
    {
        return equal(frame, offset, base, baseOffset, COOKIE_OFFSET) &&
            equal(frame, offset + AFTER_COOKIE, base, baseOffset + AFTER_COOKIE, PAYLOAD_LENGTH_OFFSET - AFTER_COOKIE);
    }

    private static boolean equal(final DirectBuffer a, final int aOffset, final DirectBuffer b, final int bOffset,
        final int length)
    {
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES)
        {
            if (a.getLong(aOffset + i) != b.getLong(bOffset + i))
            {
                return false;
            }
        }
        for (; i < length; i++)
        {
            if (a.getByte(aOffset + i) != b.getByte(bOffset + i))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * As {@link #writeCompact(MutableDirectBuffer, int, byte[], int)}, from a frame in any buffer.
     *
     * @param destination where to write.
     * @param at          where the compact frame starts.
     * @param frame       the buffer holding the full frame.
     * @param offset      where the full frame starts.
     * @param frameLength the full frame's length.
     * @return the compact frame's length.
     */
    public static int writeCompact(final MutableDirectBuffer destination, final int at, final DirectBuffer frame,
        final int offset, final int frameLength)
    {
        destination.putBytes(at, frame, offset + COOKIE_OFFSET, Long.BYTES);
        destination.putBytes(at + COMPACT_OVERHEAD, frame, offset + FIXED_LENGTH, frameLength - FIXED_LENGTH);
        return compactLength(frameLength);
    }

    /**
     * Length of the compact form of a full envelope frame.
     *
     * @param frameLength the full frame's length.
     * @return the compact frame's length.
     */
    public static int compactLength(final int frameLength)
    {
        return frameLength - FIXED_LENGTH + COMPACT_OVERHEAD;
    }

    /**
     * Writes the compact form of a full envelope frame: its cookie, then its payload.
     *
     * @param destination where to write.
     * @param offset      where the compact frame starts.
     * @param frame       the full frame's bytes, from index 0.
     * @param frameLength the full frame's length.
     * @return the compact frame's length.
     */
    public static int writeCompact(
        final MutableDirectBuffer destination, final int offset, final byte[] frame, final int frameLength)
    {
        destination.putBytes(offset, frame, COOKIE_OFFSET, Long.BYTES);
        destination.putBytes(offset + COMPACT_OVERHEAD, frame, FIXED_LENGTH, frameLength - FIXED_LENGTH);
        return compactLength(frameLength);
    }

    /**
     * The length of the full frame a compact frame stands for.
     *
     * @param compactLength the compact frame's length, at least {@value #COMPACT_OVERHEAD}.
     * @return the full frame's length.
     */
    public static int expandedLength(final int compactLength)
    {
        return compactLength - COMPACT_OVERHEAD + FIXED_LENGTH;
    }

    /**
     * Rebuilds the full envelope frame a compact frame stands for, at index 0 of {@code destination}: the base
     * frame's header with the compact frame's cookie, payload length and payload.
     *
     * @param base          the buffer holding the base frame (a {@link #isBase base}).
     * @param baseOffset    where the base frame starts.
     * @param compact       the buffer holding the compact frame.
     * @param offset        where the compact frame starts.
     * @param compactLength its length, at least {@value #COMPACT_OVERHEAD}.
     * @param destination   where the full frame goes; at least {@link #expandedLength} bytes long.
     * @return the full frame's length.
     */
    public static int expand(
        final DirectBuffer base,
        final int baseOffset,
        final DirectBuffer compact,
        final int offset,
        final int compactLength,
        final MutableDirectBuffer destination)
    {
        final int payloadLength = compactLength - COMPACT_OVERHEAD;
        destination.putBytes(0, base, baseOffset, COOKIE_OFFSET);
        destination.putBytes(COOKIE_OFFSET, compact, offset, Long.BYTES);
        destination.putBytes(AFTER_COOKIE, base, baseOffset + AFTER_COOKIE, PAYLOAD_LENGTH_OFFSET - AFTER_COOKIE);
        destination.putInt(PAYLOAD_LENGTH_OFFSET, payloadLength, ByteOrder.LITTLE_ENDIAN);
        destination.putBytes(FIXED_LENGTH, compact, offset + COMPACT_OVERHEAD, payloadLength);
        return FIXED_LENGTH + payloadLength;
    }
}
