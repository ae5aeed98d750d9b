package io.troupe.serialization.wire;

import io.troupe.actor.ActorId;
import io.troupe.serialization.internal.sbe.AckDecoder;
import io.troupe.serialization.internal.sbe.CreditDeltasDecoder;
import io.troupe.serialization.internal.sbe.DirectoryUpdateDecoder;
import io.troupe.serialization.internal.sbe.EnvelopeDecoder;
import io.troupe.serialization.internal.sbe.GoodbyeDecoder;
import io.troupe.serialization.internal.sbe.HandshakeDecoder;
import io.troupe.serialization.internal.sbe.HeartbeatDecoder;
import io.troupe.serialization.internal.sbe.UndeliveredNoticeDecoder;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static io.troupe.serialization.wire.FrameSamples.ORDER;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hand-crafted bad frames, one or more per rejection reason: each is rejected with exactly that reason,
 * counted once under it and under nothing else, and never reaches the handler. Also: a handler that throws
 * (the decoder counts HANDLER_FAILED and the next frame still decodes), and frames that do not start at 0 or
 * lie at the very end of their buffer, with bytes after the frame's end that must never be read.
 */
class FrameValidationTest
{
    private static final int MAX_FRAME_BYTES = 16384;
    private static final byte POISON = (byte)0xA5;

    private final RecordingFrameHandler handler = new RecordingFrameHandler();
    private final FrameDecoder decoder = new FrameDecoder(handler, MAX_FRAME_BYTES);

    /** A bad frame: where it lies, and the one reason it must be rejected for. */
    record Bad(String name, FrameResult reason, DirectBuffer buffer, int offset, int length)
    {
        static Bad of(final String name, final FrameResult reason, final byte[] frame)
        {
            return new Bad(name, reason, new UnsafeBuffer(frame), 0, frame.length);
        }

        @Override
        public String toString()
        {
            return reason + ": " + name;
        }
    }

    static Stream<Arguments> badFrames()
    {
        return bad().stream().map(Arguments::of);
    }

    static List<Bad> bad()
    {
        final List<Bad> list = new ArrayList<>();
        final byte[] heartbeat = heartbeat().bytes();
        final UnsafeBuffer exact = new UnsafeBuffer(heartbeat);

        list.add(new Bad("negative offset", FrameResult.OUT_OF_BUFFER, exact, -1, heartbeat.length));
        list.add(new Bad("negative length", FrameResult.OUT_OF_BUFFER, exact, 0, -1));
        list.add(new Bad("one byte past the buffer", FrameResult.OUT_OF_BUFFER, exact, 0, heartbeat.length + 1));
        list.add(new Bad("offset at the end", FrameResult.OUT_OF_BUFFER, exact, heartbeat.length, 1));
        list.add(new Bad("offset + length overflows an int", FrameResult.OUT_OF_BUFFER, exact, 8, Integer.MAX_VALUE));

        list.add(Bad.of("empty", FrameResult.TOO_SHORT, new byte[0]));
        list.add(new Bad("7 bytes of a valid frame", FrameResult.TOO_SHORT, exact, 0, 7));

        list.add(Bad.of("one byte over the maximum", FrameResult.TOO_LONG,
            envelope().var(MAX_FRAME_BYTES - WireFormat.envelopeLength(0) + 1).bytes()));

        list.add(Bad.of("schema id one less", FrameResult.WRONG_SCHEMA,
            heartbeat().u16At(4, WireFormat.SCHEMA_ID - 1).bytes()));
        list.add(Bad.of("schema id 0", FrameResult.WRONG_SCHEMA, heartbeat().u16At(4, 0).bytes()));
        list.add(Bad.of("schema id 65535", FrameResult.WRONG_SCHEMA, heartbeat().u16At(4, 0xFFFF).bytes()));
        list.add(Bad.of("schema id right, byte order wrong", FrameResult.WRONG_SCHEMA,
            heartbeat().u16At(4, Short.reverseBytes((short)WireFormat.SCHEMA_ID) & 0xFFFF).bytes()));

        list.add(Bad.of("version 0", FrameResult.UNSUPPORTED_VERSION, heartbeat().u16At(6, 0).bytes()));

        for (final int templateId : new int[]{0, 9, 63, WireFormat.CLIENT_TEMPLATES_FIRST,
            WireFormat.CLIENT_TEMPLATES_LAST, TemplateLayout.TABLE_SIZE, 0xFFFF})
        {
            list.add(Bad.of("template " + templateId, FrameResult.UNKNOWN_TEMPLATE,
                heartbeat().u16At(2, templateId).bytes()));
        }

        list.add(Bad.of("envelope block one byte short", FrameResult.BLOCK_TOO_SHORT,
            Craft.frame(WireFormat.ENVELOPE, EnvelopeDecoder.BLOCK_LENGTH - 1).var(3).bytes()));
        list.add(Bad.of("heartbeat block 0", FrameResult.BLOCK_TOO_SHORT,
            Craft.frame(WireFormat.HEARTBEAT, 0).bytes()));
        list.add(Bad.of("heartbeat of this version with version 1's block", FrameResult.BLOCK_TOO_SHORT,
            Craft.frame(WireFormat.HEARTBEAT, HeartbeatDecoder.echoTimeNsEncodingOffset()).bytes()));
        list.add(Bad.of("heartbeat of version 1 one byte short", FrameResult.BLOCK_TOO_SHORT,
            Craft.frame(WireFormat.HEARTBEAT, HeartbeatDecoder.echoTimeNsEncodingOffset() - 1).u16At(6, 1).bytes()));
        list.add(Bad.of("goodbye block one byte short", FrameResult.BLOCK_TOO_SHORT,
            Craft.frame(WireFormat.GOODBYE, GoodbyeDecoder.BLOCK_LENGTH - 1).var(0).bytes()));

        list.add(new Bad("heartbeat cut one byte short", FrameResult.TRUNCATED_BLOCK, exact, 0, heartbeat.length - 1));
        list.add(Bad.of("block length 65535", FrameResult.TRUNCATED_BLOCK, heartbeat().u16At(0, 0xFFFF).bytes()));
        list.add(Bad.of("header only", FrameResult.TRUNCATED_BLOCK,
            Arrays.copyOf(heartbeat, WireFormat.HEADER_LENGTH)));

        list.add(Bad.of("credit delta entry one byte short", FrameResult.GROUP_BLOCK_TOO_SHORT,
            creditDeltas().group(CreditDeltasDecoder.DeltasDecoder.sbeBlockLength() - 1, 2).bytes()));
        list.add(Bad.of("directory entry block 0", FrameResult.GROUP_BLOCK_TOO_SHORT,
            directoryUpdate().group(0, 0).bytes()));

        list.add(Bad.of("no group header", FrameResult.TRUNCATED_GROUP, creditDeltas().bytes()));
        list.add(Bad.of("half a group header", FrameResult.TRUNCATED_GROUP, creditDeltas().u16(20).bytes()));
        list.add(Bad.of("3 entries counted, 2 present", FrameResult.TRUNCATED_GROUP,
            creditDeltas().group(20, 2).u16At(WireFormat.HEADER_LENGTH + CreditDeltasDecoder.BLOCK_LENGTH + 2, 3)
                .bytes()));
        list.add(Bad.of("65535 entries counted", FrameResult.TRUNCATED_GROUP,
            directoryUpdate().group(33, 1)
                .u16At(WireFormat.HEADER_LENGTH + DirectoryUpdateDecoder.BLOCK_LENGTH + 2, 0xFFFF)
                .bytes()));

        list.add(Bad.of("envelope without its payload's length", FrameResult.TRUNCATED_VAR_DATA, envelope().bytes()));
        list.add(Bad.of("envelope payload one byte short", FrameResult.TRUNCATED_VAR_DATA,
            envelope().var(10).truncate(1).bytes()));
        list.add(Bad.of("handshake without its detail", FrameResult.TRUNCATED_VAR_DATA,
            handshake().var(3).var(0).var(0).bytes()));
        list.add(Bad.of("goodbye detail's length cut", FrameResult.TRUNCATED_VAR_DATA, goodbye().u16(0).bytes()));
        list.add(Bad.of("payload length 2^31 - 1", FrameResult.TRUNCATED_VAR_DATA,
            envelope().u32(Integer.MAX_VALUE).u32(0).bytes()));

        list.add(Bad.of("cluster id 256 bytes", FrameResult.VAR_DATA_TOO_LONG,
            handshake().var(WireFormat.MAX_CLUSTER_ID_BYTES + 1).var(0).var(0).var(0).bytes()));
        list.add(Bad.of("challenge 257 bytes", FrameResult.VAR_DATA_TOO_LONG,
            handshake().var(1).var(WireFormat.MAX_AUTH_BYTES + 1).var(0).var(0).bytes()));
        list.add(Bad.of("proof 257 bytes", FrameResult.VAR_DATA_TOO_LONG,
            handshake().var(1).var(0).var(WireFormat.MAX_AUTH_BYTES + 1).var(0).bytes()));
        list.add(Bad.of("handshake detail 1025 bytes", FrameResult.VAR_DATA_TOO_LONG,
            handshake().var(1).var(0).var(0).var(WireFormat.MAX_DETAIL_BYTES + 1).bytes()));
        list.add(Bad.of("handshake type table 6145 bytes", FrameResult.VAR_DATA_TOO_LONG,
            handshake().var(1).var(0).var(0).var(0).var(WireFormat.MAX_TYPE_TABLE_BYTES + 1).bytes()));
        list.add(Bad.of("handshake without its type table", FrameResult.TRUNCATED_VAR_DATA,
            handshake().var(1).var(0).var(0).var(0).bytes()));
        list.add(Bad.of("version 4 handshake without its echo", FrameResult.TRUNCATED_VAR_DATA,
            handshake().var(1).var(0).var(0).var(0).var(0).bytes()));
        list.add(Bad.of("handshake echo 257 bytes", FrameResult.VAR_DATA_TOO_LONG,
            handshake().var(1).var(0).var(0).var(0).var(0).var(WireFormat.MAX_AUTH_BYTES + 1).bytes()));
        list.add(Bad.of("version 4 handshake with a version 3 block", FrameResult.BLOCK_TOO_SHORT,
            Craft.frame(WireFormat.HANDSHAKE, HandshakeDecoder.frameProtectionEncodingOffset())
                .var(1).var(0).var(0).var(0).var(0).var(0).bytes()));
        list.add(Bad.of("goodbye detail 1025 bytes", FrameResult.VAR_DATA_TOO_LONG,
            goodbye().var(WireFormat.MAX_DETAIL_BYTES + 1).bytes()));
        list.add(Bad.of("payload length 2^32 - 1", FrameResult.VAR_DATA_TOO_LONG,
            envelope().u32(0xFFFF_FFFFL).bytes()));
        list.add(Bad.of("payload length 2^31", FrameResult.VAR_DATA_TOO_LONG, envelope().u32(1L << 31).u32(0).bytes()));
        return list;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badFrames")
    void badFrameIsRejectedWithItsReasonAndCountedOnce(final Bad bad)
    {
        final long[] before = counts(decoder);

        final FrameResult result = decoder.decode(bad.buffer(), bad.offset(), bad.length());

        assertThat(result).isEqualTo(bad.reason());
        assertThat(result.isRejection()).isTrue();
        assertThat(result.isOk()).isFalse();
        assertThat(result.description()).isNotBlank();
        final long[] after = counts(decoder);
        for (final FrameResult each : FrameResult.values())
        {
            assertThat(after[each.ordinal()] - before[each.ordinal()]).as(each.name())
                .isEqualTo(each == bad.reason() ? 1 : 0);
        }
        assertThat(decoder.rejectedCount()).isEqualTo(1);
        assertThat(handler.calls()).isZero();
    }

    @Test
    void everyRejectionReasonHasABadFrame()
    {
        final Set<FrameResult> covered = EnumSet.noneOf(FrameResult.class);
        for (final Bad bad : bad())
        {
            covered.add(bad.reason());
        }
        final Set<FrameResult> rejections = EnumSet.noneOf(FrameResult.class);
        for (final FrameResult result : FrameResult.values())
        {
            if (result.isRejection())
            {
                rejections.add(result);
            }
        }

        assertThat(covered).isEqualTo(rejections);
        assertThat(FrameResult.HANDLER_FAILED.isRejection()).isFalse();
        assertThat(FrameResult.OK.isRejection()).isFalse();
    }

    @Test
    void craftedFramesWithoutADefectAreValid()
    {
        final List<byte[]> valid = List.of(
            heartbeat().bytes(),
            Craft.frame(WireFormat.ACK, AckDecoder.BLOCK_LENGTH).bytes(),
            Craft.frame(WireFormat.UNDELIVERED_NOTICE, UndeliveredNoticeDecoder.BLOCK_LENGTH).bytes(),
            envelope().var(MAX_FRAME_BYTES - WireFormat.envelopeLength(0)).bytes(),
            handshake().var(WireFormat.MAX_CLUSTER_ID_BYTES).var(WireFormat.MAX_AUTH_BYTES)
                .var(WireFormat.MAX_AUTH_BYTES)
                .var(WireFormat.MAX_DETAIL_BYTES).var(WireFormat.MAX_TYPE_TABLE_BYTES).var(WireFormat.MAX_AUTH_BYTES)
                .bytes(),
            // a version 2 handshake ends before the type table, which version 3 appended, and has a shorter block
            // (version 4 appended the frame protection) and no echo
            Craft.frame(WireFormat.HANDSHAKE, HandshakeDecoder.frameProtectionEncodingOffset())
                .var(1).var(1).var(1).var(1).u16At(6, 2).bytes(),
            Craft.frame(WireFormat.HANDSHAKE, HandshakeDecoder.frameProtectionEncodingOffset())
                .var(1).var(1).var(1).var(1).var(8).u16At(6, 3).bytes(),
            goodbye().var(WireFormat.MAX_DETAIL_BYTES).bytes(),
            creditDeltas().group(CreditDeltasDecoder.DeltasDecoder.sbeBlockLength(), 3).bytes(),
            directoryUpdate().group(DirectoryUpdateDecoder.EntriesDecoder.sbeBlockLength(), 0).bytes(),
            // a longer block or entry than this version knows (a newer sender) and bytes after the last field
            Craft.frame(WireFormat.HEARTBEAT, HeartbeatDecoder.BLOCK_LENGTH + 8).bytes(),
            creditDeltas().group(CreditDeltasDecoder.DeltasDecoder.sbeBlockLength() + 8, 2).u32(7).bytes(),
            envelope().var(1).var(5).bytes(),
            // a count of 0 needs no entry bytes, whatever the entry length says
            creditDeltas().group(0xFFFF, 0).bytes(),
            // a newer version is read through its block length
            heartbeat().u16At(6, 0xFFFF).bytes(),
            // an older version has a shorter block: version 1 heartbeats carry no echo
            Craft.frame(WireFormat.HEARTBEAT, HeartbeatDecoder.echoTimeNsEncodingOffset()).u16At(6, 1).bytes());

        for (final byte[] frame : valid)
        {
            assertThat(decoder.decode(new UnsafeBuffer(frame), 0, frame.length)).isEqualTo(FrameResult.OK);
        }

        assertThat(decoder.count(FrameResult.OK)).isEqualTo(valid.size());
        assertThat(decoder.rejectedCount()).isZero();
        assertThat(handler.frames).hasSize(valid.size());
        assertThat(handler.readFailures).isEmpty();
    }

    @Test
    void handlerThatThrowsIsCountedAndTheNextFrameStillDecodes()
    {
        final IllegalStateException boom = new IllegalStateException("boom");
        final List<Long> seen = new ArrayList<>();
        final FrameDecoder throwing = new FrameDecoder(new FrameHandler()
        {
            @Override
            public void onEnvelope(final EnvelopeFrame frame)
            {
                if (frame.cookie() == 1L)
                {
                    throw boom;
                }
                seen.add(frame.cookie());
            }
        });
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final FrameEncoder encoder = new FrameEncoder();
        final ActorId to = ActorId.of(1, 2, 3);

        final int first = encoder.beginEnvelope(buffer, 0, to, null, 1, 0, 1L, 0, 0L, 0, null, 0);
        assertThat(throwing.decode(buffer, 0, first)).isEqualTo(FrameResult.HANDLER_FAILED);
        assertThat(throwing.lastHandlerFailure()).isSameAs(boom);
        final int second = encoder.beginEnvelope(buffer, 0, to, null, 1, 0, 2L, 0, 0L, 0, null, 0);
        assertThat(throwing.decode(buffer, 0, second)).isEqualTo(FrameResult.OK);

        assertThat(seen).containsExactly(2L);
        assertThat(throwing.count(FrameResult.HANDLER_FAILED)).isEqualTo(1);
        assertThat(throwing.count(FrameResult.OK)).isEqualTo(1);
        assertThat(throwing.rejectedCount()).isZero();
    }

    @Test
    void handlerThatThrowsACheckedExceptionUndeclaredIsCaughtToo()
    {
        // e.g. a handler written in Kotlin, where nothing declares IOException
        final IOException checked = new IOException("socket gone");
        final FrameDecoder throwing = new FrameDecoder(frame -> sneakyThrow(checked));
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
        final int length = new FrameEncoder()
            .beginEnvelope(buffer, 0, ActorId.of(1, 2, 3), null, 1, 0, 0L, 0, 0L, 0, null, 0);

        assertThat(throwing.decode(buffer, 0, length)).isEqualTo(FrameResult.HANDLER_FAILED);
        assertThat(throwing.lastHandlerFailure()).isSameAs(checked);
        assertThat(throwing.count(FrameResult.HANDLER_FAILED)).isEqualTo(1);
    }

    @Test
    void framesMidBufferDecodeAsAtOffsetZero()
    {
        for (final int templateId : FrameSamples.TEMPLATES)
        {
            final byte[] frame = FrameSamples.sample(templateId);
            final Map<String, Object> atZero = decodeOk(new UnsafeBuffer(frame), 0, frame.length);
            for (final int offset : new int[]{1, 3, 13, 4093})
            {
                final byte[] larger = new byte[offset + frame.length + 64];
                Arrays.fill(larger, POISON);
                System.arraycopy(frame, 0, larger, offset, frame.length);

                FrameRoundTripTest.assertFields(decodeOk(new UnsafeBuffer(larger), offset, frame.length), atZero);
            }
        }
    }

    @Test
    void frameAtTheVeryEndOfAnExactlySizedBufferNeverReadsPastIt()
    {
        for (final int templateId : FrameSamples.TEMPLATES)
        {
            final byte[] frame = FrameSamples.sample(templateId);
            final byte[] prefixed = new byte[37 + frame.length];
            Arrays.fill(prefixed, POISON);
            System.arraycopy(frame, 0, prefixed, 37, frame.length);

            // a read past the frame's end would be a read past the buffer: Agrona's bounds check would throw
            final Map<String, Object> decoded = decodeOk(new UnsafeBuffer(prefixed), 37, frame.length);

            assertThat(decoded.get("frameLength")).isEqualTo(frame.length);
            assertThat(decoded.get("templateId")).isEqualTo(templateId);
        }
    }

    @Test
    void lengthFieldsThatReachIntoTheBytesAfterTheFrameAreRejected()
    {
        final byte[] envelope = envelope().var(10).bytes();
        final int payloadLengthAt = WireFormat.HEADER_LENGTH + EnvelopeDecoder.BLOCK_LENGTH;
        assertRejectedThoughPoisonFollows(patchU32(envelope, payloadLengthAt, 11), 1, FrameResult.TRUNCATED_VAR_DATA);
        assertRejectedThoughPoisonFollows(patchU32(envelope, payloadLengthAt, 14), 4, FrameResult.TRUNCATED_VAR_DATA);

        final byte[] deltas = creditDeltas().group(CreditDeltasDecoder.DeltasDecoder.sbeBlockLength(), 2).bytes();
        final int countAt = WireFormat.HEADER_LENGTH + CreditDeltasDecoder.BLOCK_LENGTH + 2;
        assertRejectedThoughPoisonFollows(patchU16(deltas, countAt, 3),
            CreditDeltasDecoder.DeltasDecoder.sbeBlockLength(), FrameResult.TRUNCATED_GROUP);

        final byte[] heartbeat = heartbeat().bytes();
        assertRejectedThoughPoisonFollows(patchU16(heartbeat, 0, HeartbeatDecoder.BLOCK_LENGTH + 4), 4,
            FrameResult.TRUNCATED_BLOCK);

        final byte[] goodbye = goodbye().var(4).bytes();
        assertRejectedThoughPoisonFollows(Arrays.copyOf(goodbye, goodbye.length - 1), 1,
            FrameResult.TRUNCATED_VAR_DATA);

        assertThat(handler.calls()).isZero();
        assertThat(decoder.rejectedCount()).isEqualTo(5);
    }

    private void assertRejectedThoughPoisonFollows(final byte[] frame, final int poisonLength, final FrameResult reason)
    {
        final byte[] withPoison = Arrays.copyOf(frame, frame.length + poisonLength);
        Arrays.fill(withPoison, frame.length, withPoison.length, POISON);
        final long before = decoder.count(reason);

        assertThat(decoder.decode(new UnsafeBuffer(withPoison), 0, frame.length)).isEqualTo(reason);
        assertThat(decoder.count(reason)).isEqualTo(before + 1);
        // the same bytes with the poison inside the length given would pass: the length alone decides
        assertThat(new FrameDecoder(new RecordingFrameHandler(), MAX_FRAME_BYTES)
            .decode(new UnsafeBuffer(withPoison), 0, withPoison.length)).isEqualTo(FrameResult.OK);
    }

    private Map<String, Object> decodeOk(final DirectBuffer buffer, final int offset, final int length)
    {
        assertThat(decoder.decode(buffer, offset, length)).isEqualTo(FrameResult.OK);
        assertThat(handler.readFailures).isEmpty();
        return handler.last();
    }

    private static long[] counts(final FrameDecoder decoder)
    {
        final FrameResult[] results = FrameResult.values();
        final long[] counts = new long[results.length];
        for (final FrameResult result : results)
        {
            counts[result.ordinal()] = decoder.count(result);
        }
        return counts;
    }

    private static byte[] patchU16(final byte[] frame, final int offset, final int value)
    {
        final byte[] copy = frame.clone();
        new UnsafeBuffer(copy).putShort(offset, (short)value, ORDER);
        return copy;
    }

    private static byte[] patchU32(final byte[] frame, final int offset, final long value)
    {
        final byte[] copy = frame.clone();
        new UnsafeBuffer(copy).putInt(offset, (int)value, ORDER);
        return copy;
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneakyThrow(final Throwable t) throws T
    {
        throw (T)t;
    }

    private static Craft heartbeat()
    {
        return Craft.frame(WireFormat.HEARTBEAT, HeartbeatDecoder.BLOCK_LENGTH);
    }

    private static Craft envelope()
    {
        return Craft.frame(WireFormat.ENVELOPE, EnvelopeDecoder.BLOCK_LENGTH);
    }

    private static Craft handshake()
    {
        return Craft.frame(WireFormat.HANDSHAKE, HandshakeDecoder.BLOCK_LENGTH);
    }

    private static Craft goodbye()
    {
        return Craft.frame(WireFormat.GOODBYE, GoodbyeDecoder.BLOCK_LENGTH);
    }

    private static Craft creditDeltas()
    {
        return Craft.frame(WireFormat.CREDIT_DELTAS, CreditDeltasDecoder.BLOCK_LENGTH);
    }

    private static Craft directoryUpdate()
    {
        return Craft.frame(WireFormat.DIRECTORY_UPDATE, DirectoryUpdateDecoder.BLOCK_LENGTH);
    }

    /** Writes a frame byte by byte, as the schema lays it out, without the encoder. */
    static final class Craft
    {
        private final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(256);
        private int length;

        static Craft frame(final int templateId, final int blockLength)
        {
            final Craft craft = new Craft()
                .u16(blockLength).u16(templateId).u16(WireFormat.SCHEMA_ID).u16(WireFormat.SCHEMA_VERSION);
            for (int i = 0; i < blockLength; i++)
            {
                craft.buffer.putByte(craft.length++, (byte)(i + 1));
            }
            return craft;
        }

        Craft u16(final int value)
        {
            buffer.putShort(length, (short)value, ORDER);
            length += 2;
            return this;
        }

        Craft u32(final long value)
        {
            buffer.putInt(length, (int)value, ORDER);
            length += 4;
            return this;
        }

        Craft u16At(final int offset, final int value)
        {
            buffer.putShort(offset, (short)value, ORDER);
            return this;
        }

        /** A var data field: its length, then that many bytes. */
        Craft var(final int dataLength)
        {
            u32(dataLength);
            for (int i = 0; i < dataLength; i++)
            {
                buffer.putByte(length++, (byte)('a' + i % 26));
            }
            return this;
        }

        /** A group header and the entries' bytes. */
        Craft group(final int entryLength, final int count)
        {
            u16(entryLength).u16(count);
            for (int i = 0; i < entryLength * count; i++)
            {
                buffer.putByte(length++, (byte)i);
            }
            return this;
        }

        Craft truncate(final int bytes)
        {
            length -= bytes;
            return this;
        }

        byte[] bytes()
        {
            return FrameSamples.copy(buffer, 0, length);
        }
    }
}
