package io.troupe.serialization.wire;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;
import io.troupe.actor.UndeliveredReason;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Frames for tests, written with {@link FrameEncoder}: a sample of each template, frames built from raw
 * random values (for the fuzz test), and an independent walk over a frame's structure that says where its
 * length fields and regions lie (from the schema, not from the decoder).
 */
final class FrameSamples
{
    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    static final int[] TEMPLATES = {
        WireFormat.ENVELOPE, WireFormat.HANDSHAKE, WireFormat.HEARTBEAT, WireFormat.ACK, WireFormat.CREDIT_DELTAS,
        WireFormat.UNDELIVERED_NOTICE, WireFormat.DIRECTORY_UPDATE, WireFormat.GOODBYE};
    static final long SERVICE_BIT = 1L << 31;

    private FrameSamples()
    {
    }

    /**
     * A typical frame of a template, every field set.
     *
     * @param templateId one of {@link #TEMPLATES}.
     * @return the frame's bytes, exactly.
     */
    static byte[] sample(final int templateId)
    {
        final long[] longs = {11L, 22L, 33L, 44L, 55L, 66L, 77L, 88L};
        final int[] ints = {1, 2, 3, 4, 5, 6, 7, 8};
        return build(templateId, longs, ints, "payload!".getBytes(StandardCharsets.US_ASCII),
            new byte[]{9, 8, 7}, "detail text", 3);
    }

    /**
     * A frame of a template from raw values, as the fuzz test draws them; every value fits its field.
     *
     * @param templateId one of {@link #TEMPLATES}.
     * @param longs      8 values for the long fields (and a seed for group entries).
     * @param ints       8 values for the int fields and enum choices.
     * @param bytesA     payload or challenge (at most 256 bytes used for a challenge).
     * @param bytesB     proof (at most 256 bytes used).
     * @param text       cluster id and detail (cut to their limits).
     * @param entries    group entries (at most 65,535).
     * @return the frame's bytes, exactly.
     */
    static byte[] build(
        final int templateId, final long[] longs, final int[] ints, final byte[] bytesA, final byte[] bytesB,
        final String text, final int entries)
    {
        final FrameEncoder encoder = new FrameEncoder();
        final UnsafeBuffer scratch = new UnsafeBuffer(new byte[scratchLength(bytesA, bytesB, text, entries)]);
        final int length = encode(encoder, scratch, 0, templateId, longs, ints, bytesA, bytesB, text, entries);
        return copy(scratch, 0, length);
    }

    static int encode(
        final FrameEncoder encoder, final MutableDirectBuffer buffer, final int offset, final int templateId,
        final long[] longs, final int[] ints, final byte[] bytesA, final byte[] bytesB, final String text,
        final int entries)
    {
        switch (templateId)
        {
            case WireFormat.ENVELOPE:
            {
                final int payloadAt = encoder.beginEnvelope(buffer, offset, ActorId.fromRaw(longs[0], longs[1]),
                    ActorId.fromRaw(longs[2], longs[3]), ints[0], ints[1], longs[4], ints[2], longs[5], ints[3], null,
                    bytesA.length);
                buffer.putBytes(payloadAt, bytesA);
                return payloadAt + bytesA.length - offset;
            }
            case WireFormat.HANDSHAKE:
            {
                final HandshakePhase[] phases = {
                    HandshakePhase.HELLO, HandshakePhase.WELCOME, HandshakePhase.CONFIRM, HandshakePhase.REFUSE};
                final Handshake step = new Handshake(phases[Math.floorMod(ints[0], phases.length)],
                    fit(text, WireFormat.MAX_CLUSTER_ID_BYTES), ints[1], longs[0], ints[2], longs[1], ints[3] & 0xFFFF,
                    ints[4] & 0xFFFF, head(bytesA, WireFormat.MAX_AUTH_BYTES), head(bytesB, WireFormat.MAX_AUTH_BYTES),
                    fit(new StringBuilder(text).reverse().toString(), WireFormat.MAX_DETAIL_BYTES));
                return encoder.encodeHandshake(buffer, offset, step);
            }
            case WireFormat.HEARTBEAT:
                return encoder.encodeHeartbeat(buffer, offset, ints[0], longs[0], longs[1], longs[2], longs[3],
                    longs[4]);
            case WireFormat.ACK:
                return encoder.encodeAck(buffer, offset, ints[0], longs[0], ints[1], longs[1]);
            case WireFormat.CREDIT_DELTAS:
            {
                final SplittableRandom random = new SplittableRandom(longs[6]);
                final int[] owners = new int[entries];
                final long[] accounts = new long[entries];
                final long[] deltas = new long[entries];
                for (int i = 0; i < entries; i++)
                {
                    owners[i] = random.nextInt();
                    accounts[i] = random.nextLong();
                    deltas[i] = random.nextLong();
                }
                return encoder.encodeCreditDeltas(buffer, offset, ints[0], longs[0], owners, accounts, deltas, entries);
            }
            case WireFormat.UNDELIVERED_NOTICE:
            {
                final UndeliveredReason[] reasons = Arrays.stream(UndeliveredReason.values())
                    .filter(reason -> reason != UndeliveredReason.REFUSED).toArray(UndeliveredReason[]::new);
                return encoder.encodeUndeliveredNotice(buffer, offset, ActorId.fromRaw(longs[0], longs[1]),
                    ActorId.fromRaw(longs[2], longs[3]), ints[0], longs[4],
                    reasons[Math.floorMod(ints[1], reasons.length)], (ints[2] & 1) != 0);
            }
            case WireFormat.DIRECTORY_UPDATE:
            {
                final SplittableRandom random = new SplittableRandom(longs[6]);
                final List<DirectoryEntry> list = new ArrayList<>(entries);
                for (int i = 0; i < entries; i++)
                {
                    list.add(new DirectoryEntry(service(random.nextLong(), random.nextLong()),
                        ActorId.fromRaw(random.nextLong(), random.nextLong()),
                        random.nextBoolean() ? DirectoryOp.REGISTER : DirectoryOp.UNREGISTER));
                }
                return encoder.encodeDirectoryUpdate(buffer, offset, ints[0], longs[0], longs[1], (ints[1] & 1) != 0,
                    list);
            }
            case WireFormat.GOODBYE:
            {
                final GoodbyeReason[] reasons = {
                    GoodbyeReason.SHUTDOWN, GoodbyeReason.RESTART, GoodbyeReason.REFUSED, GoodbyeReason.TIMEOUT,
                    GoodbyeReason.PROTOCOL_ERROR};
                return encoder.encodeGoodbye(buffer, offset, ints[0], longs[0],
                    reasons[Math.floorMod(ints[1], reasons.length)], fit(text, WireFormat.MAX_DETAIL_BYTES));
            }
            default:
                throw new IllegalArgumentException("no template " + templateId);
        }
    }

    /** A buffer length that holds any frame {@link #encode} writes from these values. */
    static int scratchLength(final byte[] bytesA, final byte[] bytesB, final String text, final int entries)
    {
        return 256 + bytesA.length + bytesB.length + 8 * text.length() + WireFormat.MAX_DETAIL_BYTES + 40 * entries;
    }

    /** A service id with arbitrary raw longs (the service bit set). */
    static ServiceId service(final long raw1, final long raw2)
    {
        return (ServiceId)ActorId.fromRaw(raw1, raw2 | SERVICE_BIT);
    }

    /** The longest prefix of a text whose UTF-8 fits the limit. */
    static String fit(final String text, final int maxBytes)
    {
        String fitted = text;
        while (fitted.getBytes(StandardCharsets.UTF_8).length > maxBytes)
        {
            fitted = fitted.substring(0, fitted.length() - 1);
        }
        return fitted;
    }

    static byte[] head(final byte[] bytes, final int maxLength)
    {
        return bytes.length <= maxLength ? bytes : Arrays.copyOf(bytes, maxLength);
    }

    static byte[] copy(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    /**
     * Where a valid frame of schema version 1's layout has its parts, read by walking it as the schema says.
     *
     * @param blockEnd          end of the fixed block.
     * @param groupHeaderAt     offset of the repeating group's header, or -1 if the message has none.
     * @param groupsEnd         end of the group's entries (equal to blockEnd without a group).
     * @param varLengthOffsets  offset of each var data length prefix.
     * @param end               end of the last field.
     */
    record Layout(int blockEnd, int groupHeaderAt, int groupsEnd, int[] varLengthOffsets, int end)
    {
        /**
         * The rejection a frame cut to a length gets: the region of the first missing byte.
         *
         * @param cutLength the length the frame was cut to, less than {@link #end}.
         * @return the reason.
         */
        FrameResult truncatedAt(final int cutLength)
        {
            if (cutLength < WireFormat.HEADER_LENGTH)
            {
                return FrameResult.TOO_SHORT;
            }
            if (cutLength < blockEnd)
            {
                return FrameResult.TRUNCATED_BLOCK;
            }
            if (cutLength < groupsEnd)
            {
                return FrameResult.TRUNCATED_GROUP;
            }
            return FrameResult.TRUNCATED_VAR_DATA;
        }
    }

    static Layout layout(final byte[] frame)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(frame);
        final int blockLength = buffer.getShort(0, ORDER) & 0xFFFF;
        final int templateId = buffer.getShort(2, ORDER) & 0xFFFF;
        final int blockEnd = WireFormat.HEADER_LENGTH + blockLength;
        int position = blockEnd;
        int groupHeaderAt = -1;
        if (templateId == WireFormat.CREDIT_DELTAS || templateId == WireFormat.DIRECTORY_UPDATE)
        {
            groupHeaderAt = position;
            final int entryLength = buffer.getShort(position, ORDER) & 0xFFFF;
            final int count = buffer.getShort(position + 2, ORDER) & 0xFFFF;
            position += WireFormat.GROUP_HEADER_LENGTH + entryLength * count;
        }
        final int groupsEnd = position;
        final int varCount = switch (templateId)
        {
            case WireFormat.ENVELOPE, WireFormat.GOODBYE -> 1;
            case WireFormat.HANDSHAKE -> 4;
            default -> 0;
        };
        final int[] varLengthOffsets = new int[varCount];
        for (int v = 0; v < varCount; v++)
        {
            varLengthOffsets[v] = position;
            position += WireFormat.VAR_DATA_HEADER_LENGTH + buffer.getInt(position, ORDER);
        }
        return new Layout(blockEnd, groupHeaderAt, groupsEnd, varLengthOffsets, position);
    }
}
