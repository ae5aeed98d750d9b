package io.troupe.serialization.wire;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;
import io.troupe.actor.UndeliveredReason;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;
import net.jqwik.api.statistics.Statistics;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static io.troupe.serialization.wire.FrameSamples.ORDER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Fuzzes {@link FrameDecoder} with random, truncated, bit-flipped, stretched and oversized frames. Every
 * frame goes in through an {@link UnsafeBuffer} that wraps exactly its bytes, so a read outside the frame
 * trips Agrona's bounds check. For every input: nothing escapes {@code decode}; the handler, which reads
 * every accessor of the view it is given, never fails; the result is OK or a rejection, and exactly that
 * result's count went up by one.
 *
 * <p>Each property runs {@value #CI_TRIES} tries in the normal build (the class takes a few seconds). For a
 * long run set the system property {@value FuzzTries#PROPERTY}, which the Maven profile {@code fuzz} does:
 * {@code ./mvnw -B verify -pl serialization -am -Pfuzz [-Dtroupe.fuzz.tries=N]}.
 */
@AddLifecycleHook(FrameDecoderFuzzTest.FuzzTries.class)
class FrameDecoderFuzzTest
{
    static final int CI_TRIES = 2000;

    /** Sets every property's tries from {@value #PROPERTY} when it is set. */
    public static final class FuzzTries implements AroundPropertyHook
    {
        static final String PROPERTY = "troupe.fuzz.tries";

        @Override
        public PropertyExecutionResult aroundProperty(final PropertyLifecycleContext context,
            final PropertyExecutor property)
        {
            final String tries = System.getProperty(PROPERTY, "").trim();
            if (!tries.isEmpty() && context.attributes().tries().orElse(Integer.MAX_VALUE) > 1) // not an @Example
            {
                context.attributes().setTries(Integer.parseInt(tries));
            }
            return property.execute();
        }

        @Override
        public PropagationMode propagateTo()
        {
            return PropagationMode.ALL_DESCENDANTS;
        }
    }

    /** A frame and the one result it must get. */
    record Expected(byte[] frame, String change, FrameResult result)
    {
        @Override
        public String toString()
        {
            return change + " -> " + result + " (" + frame.length + " bytes)";
        }
    }

    /** A decoder's maximum frame and a frame near it. */
    record Sized(int maxFrameBytes, byte[] frame)
    {
        @Override
        public String toString()
        {
            return frame.length + " bytes against a maximum of " + maxFrameBytes;
        }
    }

    @Example
    void boundsChecksAreOnSoAReadPastTheFrameThrows()
    {
        assertThat(DirectBuffer.SHOULD_BOUNDS_CHECK).isTrue();
        final UnsafeBuffer exact = new UnsafeBuffer(new byte[8]);
        assertThatThrownBy(() -> exact.getInt(6)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> exact.getByte(8)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Property(tries = CI_TRIES)
    void randomBytesNeverEscape(@ForAll("randomBytes") final byte[] bytes)
    {
        final FrameResult result = decodeChecked(bytes, 0, bytes.length, WireFormat.DEFAULT_MAX_FRAME_BYTES);
        Statistics.label("result").collect(result);
    }

    @Property(tries = CI_TRIES)
    void randomBodiesBehindAPlausibleHeaderNeverEscape(@ForAll("plausibleFrames") final byte[] bytes)
    {
        final FrameResult result = decodeChecked(bytes, 0, bytes.length, WireFormat.DEFAULT_MAX_FRAME_BYTES);
        Statistics.label("result").collect(result);
        // the handler must see garbage often enough that its reads are fuzzed too
        Statistics.label("result").coverage(checker -> checker.check(FrameResult.OK).percentage(p -> p >= 5));
    }

    @Property(tries = CI_TRIES)
    void validFramesDecodeAndReEncodeByteForByte(@ForAll("validFrames") final byte[] frame)
    {
        final RecordingFrameHandler handler = new RecordingFrameHandler();
        final FrameResult result = decodeChecked(new FrameDecoder(handler), handler, new UnsafeBuffer(frame), 0,
            frame.length);

        assertThat(result).isEqualTo(FrameResult.OK);
        assertThat(reEncode(handler.last())).isEqualTo(frame);
    }

    @Property(tries = CI_TRIES)
    void truncatedFramesAreRejectedForWhereTheyWereCut(@ForAll("truncatedFrames") final Expected truncated)
    {
        final byte[] frame = truncated.frame();
        assertThat(decodeChecked(frame, 0, frame.length, WireFormat.DEFAULT_MAX_FRAME_BYTES))
            .isEqualTo(truncated.result());
        Statistics.label("result").collect(truncated.result());
    }

    @Property(tries = CI_TRIES)
    void bitFlippedFramesNeverEscape(@ForAll("bitFlippedFrames") final byte[] frame)
    {
        final FrameResult result = decodeChecked(frame, 0, frame.length, WireFormat.DEFAULT_MAX_FRAME_BYTES);
        Statistics.label("result").collect(result);
    }

    @Property(tries = CI_TRIES)
    void bytesAppendedAfterTheLastFieldAreSkipped(
        @ForAll("validFrames") final byte[] frame, @ForAll("randomBytes") final byte[] appended)
    {
        final byte[] longer = Arrays.copyOf(frame, frame.length + appended.length);
        System.arraycopy(appended, 0, longer, frame.length, appended.length);
        final RecordingFrameHandler handler = new RecordingFrameHandler();

        final FrameResult result = decodeChecked(new FrameDecoder(handler), handler, new UnsafeBuffer(longer), 0,
            longer.length);

        assertThat(result).isEqualTo(FrameResult.OK);
        final Map<String, Object> decoded = handler.last();
        assertThat(decoded.get("frameLength")).isEqualTo(longer.length);
        decoded.put("frameLength", frame.length);
        assertThat(reEncode(decoded)).isEqualTo(frame);
    }

    @Property(tries = CI_TRIES)
    void hugeLengthFieldsAreRejected(@ForAll("hugeLengths") final Expected stretched)
    {
        final byte[] frame = stretched.frame();
        assertThat(decodeChecked(frame, 0, frame.length, WireFormat.DEFAULT_MAX_FRAME_BYTES))
            .isEqualTo(stretched.result());
        Statistics.label("result").collect(stretched.result());
    }

    @Property(tries = CI_TRIES)
    void framesOverTheMaximumAreTooLong(@ForAll("sizedFrames") final Sized sized)
    {
        final byte[] frame = sized.frame();
        final FrameResult result = decodeChecked(frame, 0, frame.length, sized.maxFrameBytes());
        assertThat(result).isEqualTo(frame.length > sized.maxFrameBytes() ? FrameResult.TOO_LONG : FrameResult.OK);
        Statistics.label("result").collect(result);
    }

    @Property(tries = CI_TRIES)
    void offsetsAndLengthsOutsideTheBufferAreRejected(
        @ForAll("validFrames") final byte[] frame, @ForAll("anyOffset") final int offsetDelta,
        @ForAll("anyOffset") final int lengthDelta)
    {
        final int prefix = 5;
        final byte[] bytes = new byte[prefix + frame.length];
        System.arraycopy(frame, 0, bytes, prefix, frame.length);
        final int offset = prefix + offsetDelta;
        final int length = frame.length + lengthDelta;

        final FrameResult result = decodeChecked(bytes, offset, length, WireFormat.DEFAULT_MAX_FRAME_BYTES);

        final boolean outside = offset < 0 || length < 0 || (long)offset + length > bytes.length;
        assertThat(result == FrameResult.OUT_OF_BUFFER).isEqualTo(outside);
        if (offsetDelta == 0 && lengthDelta == 0)
        {
            assertThat(result).isEqualTo(FrameResult.OK);
        }
        Statistics.label("result").collect(result);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Generators

    @Provide
    Arbitrary<byte[]> randomBytes()
    {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
    }

    @Provide
    Arbitrary<Integer> anyOffset()
    {
        return Arbitraries.oneOf(
            Arbitraries.integers().between(-10, 10),
            Arbitraries.of(Integer.MIN_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE - 4, -Integer.MAX_VALUE));
    }

    /**
     * A header with Troupe's schema id, mostly a known template with about its block length and a version
     * this build reads, then a body of mostly zero and small bytes, so that group counts and var data lengths
     * often fit and many frames pass validation with garbage in every field the handler reads.
     */
    @Provide
    Arbitrary<byte[]> plausibleFrames()
    {
        final Arbitrary<Integer> templateId = Arbitraries.frequencyOf(List.of(
            Tuple.of(9, Arbitraries.integers().between(1, FrameSamples.TEMPLATES.length)),
            Tuple.of(1, Arbitraries.integers().between(0, 0xFFFF))));
        final Arbitrary<Integer> blockExtra = Arbitraries.frequencyOf(List.of(
            Tuple.of(6, Arbitraries.just(0)),
            Tuple.of(3, Arbitraries.integers().between(-2, 16)),
            Tuple.of(1, Arbitraries.integers().between(-0xFFFF, 0xFFFF))));
        final Arbitrary<Integer> version = Arbitraries.frequencyOf(List.of(
            Tuple.of(8,
                Arbitraries.integers().between(WireFormat.MIN_SUPPORTED_VERSION, WireFormat.SCHEMA_VERSION + 2)),
            Tuple.of(1, Arbitraries.integers().between(0, 0xFFFF))));
        final Arbitrary<byte[]> body = Arbitraries.frequencyOf(List.of(
            Tuple.of(5, Arbitraries.just((byte)0)),
            Tuple.of(2, Arbitraries.bytes().between((byte)1, (byte)4)),
            Tuple.of(2, Arbitraries.bytes()))).array(byte[].class).ofMaxSize(300)
            .withSizeDistribution(RandomDistribution.uniform());
        return Combinators.combine(templateId, blockExtra, version, body).as((t, extra, v, rest) ->
        {
            final TemplateLayout layout = TemplateLayout.of(t);
            final int blockLength = Math.max(0,
                Math.min(0xFFFF, (layout == null ? 0 : layout.minBlockLength(v)) + extra));
            final byte[] frame = new byte[WireFormat.HEADER_LENGTH + rest.length];
            final UnsafeBuffer buffer = new UnsafeBuffer(frame);
            buffer.putShort(0, (short)blockLength, ORDER);
            buffer.putShort(2, t.shortValue(), ORDER);
            buffer.putShort(4, (short)WireFormat.SCHEMA_ID, ORDER);
            buffer.putShort(6, v.shortValue(), ORDER);
            buffer.putBytes(WireFormat.HEADER_LENGTH, rest);
            return frame;
        });
    }

    @Provide
    Arbitrary<byte[]> validFrames()
    {
        return validFrames(300, 40);
    }

    static Arbitrary<byte[]> validFrames(final int maxPayload, final int maxEntries)
    {
        final Integer[] templates = Arrays.stream(FrameSamples.TEMPLATES).boxed().toArray(Integer[]::new);
        return Combinators.combine(
            Arbitraries.of(templates),
            Arbitraries.longs().array(long[].class).ofSize(8),
            Arbitraries.integers().array(int[].class).ofSize(8),
            Arbitraries.bytes().array(byte[].class).ofMaxSize(maxPayload),
            Arbitraries.bytes().array(byte[].class).ofMaxSize(64),
            Arbitraries.strings().ofMaxLength(40),
            Arbitraries.integers().between(0, maxEntries))
            .as(FrameSamples::build);
    }

    @Provide
    Arbitrary<Expected> truncatedFrames()
    {
        return validFrames().flatMap(frame -> Arbitraries.integers().between(0, frame.length - 1).map(cut ->
            new Expected(Arrays.copyOf(frame, cut), "cut to " + cut, FrameSamples.layout(frame).truncatedAt(cut))));
    }

    @Provide
    Arbitrary<byte[]> bitFlippedFrames()
    {
        return validFrames().flatMap(frame -> Arbitraries.integers().between(0, frame.length * 8 - 1)
            .list().ofMinSize(1).ofMaxSize(8)
            .map(bits ->
            {
                final byte[] flipped = frame.clone();
                for (final int bit : bits)
                {
                    flipped[bit >>> 3] ^= (byte)(1 << (bit & 7));
                }
                return flipped;
            }));
    }

    /** A valid frame with one length field (block, group count or entry length, var data) set past the frame. */
    @Provide
    Arbitrary<Expected> hugeLengths()
    {
        return validFrames().flatMap(frame ->
        {
            final FrameSamples.Layout layout = FrameSamples.layout(frame);
            final int templateId = u16(frame, 2);
            final List<Arbitrary<Expected>> choices = new ArrayList<>();
            final int afterHeader = frame.length - WireFormat.HEADER_LENGTH;
            if (afterHeader < 0xFFFF)
            {
                choices.add(Arbitraries.integers().between(afterHeader + 1, 0xFFFF).map(v ->
                    new Expected(withU16(frame, 0, v), "block length " + v, FrameResult.TRUNCATED_BLOCK)));
            }
            if (layout.groupHeaderAt() >= 0)
            {
                final int at = layout.groupHeaderAt();
                final int entryLength = u16(frame, at);
                final int count = u16(frame, at + 2);
                final int remaining = frame.length - at - WireFormat.GROUP_HEADER_LENGTH;
                choices.add(Arbitraries.integers().between(remaining / entryLength + 1, 0xFFFF).map(v ->
                    new Expected(withU16(frame, at + 2, v), "group count " + v, FrameResult.TRUNCATED_GROUP)));
                if (count > 0)
                {
                    choices.add(Arbitraries.integers().between(remaining / count + 1, 0xFFFF).map(v ->
                        new Expected(withU16(frame, at, v), "group entry length " + v, FrameResult.TRUNCATED_GROUP)));
                }
                else
                {
                    choices.add(Arbitraries.integers().between(entryLength, 0xFFFF).map(v ->
                        new Expected(withU16(frame, at, v), "entry length " + v + " of no entries", FrameResult.OK)));
                }
            }
            final int[] varAt = layout.varLengthOffsets();
            for (int v = 0; v < varAt.length; v++)
            {
                final int at = varAt[v];
                final long limit = varLimit(templateId, v);
                final long remaining = frame.length - at - WireFormat.VAR_DATA_HEADER_LENGTH;
                final int index = v;
                choices.add(Arbitraries.longs().between(remaining + 1, 0xFFFF_FFFFL).map(length ->
                    new Expected(withU32(frame, at, length), "var data " + index + " length " + length,
                        length > limit ? FrameResult.VAR_DATA_TOO_LONG : FrameResult.TRUNCATED_VAR_DATA)));
            }
            return Arbitraries.oneOf(choices);
        });
    }

    @Provide
    Arbitrary<Sized> sizedFrames()
    {
        final Arbitrary<Integer> maxFrameBytes = Arbitraries.integers().between(WireFormat.MIN_MAX_FRAME_BYTES, 4096);
        final Arbitrary<Sized> aroundTheMaximum = Combinators.combine(maxFrameBytes,
            Arbitraries.integers().between(-16, 1024))
            .as((max, excess) ->
            {
                final int payloadLength = max + excess - WireFormat.envelopeLength(0);
                final byte[] frame = FrameSamples.build(WireFormat.ENVELOPE, new long[8], new int[8],
                    new byte[payloadLength], new byte[0], "", 0);
                return new Sized(max, frame);
            });
        final Arbitrary<Sized> anyFrame = Combinators.combine(maxFrameBytes, validFrames(4096, 200)).as(Sized::new);
        return Arbitraries.oneOf(aroundTheMaximum, anyFrame);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Checks

    /** Decodes bytes through a buffer that wraps exactly them, with a fresh decoder, and checks the invariants. */
    private static FrameResult decodeChecked(final byte[] bytes, final int offset, final int length,
        final int maxFrameBytes)
    {
        final RecordingFrameHandler handler = new RecordingFrameHandler();
        return decodeChecked(new FrameDecoder(handler, maxFrameBytes), handler, new UnsafeBuffer(bytes), offset,
            length);
    }

    private static FrameResult decodeChecked(
        final FrameDecoder decoder, final RecordingFrameHandler handler, final DirectBuffer buffer, final int offset,
        final int length)
    {
        final FrameResult[] results = FrameResult.values();
        final long[] before = new long[results.length];
        for (final FrameResult result : results)
        {
            before[result.ordinal()] = decoder.count(result);
        }
        final int callsBefore = handler.calls();

        final FrameResult result;
        try
        {
            result = decoder.decode(buffer, offset, length);
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("decode threw", ex);
        }

        if (!handler.readFailures.isEmpty())
        {
            throw new AssertionError("the handler failed reading a view of a " + result + " frame",
                handler.readFailures.get(0));
        }
        assertThat(result).isNotNull().isNotEqualTo(FrameResult.HANDLER_FAILED);
        assertThat(result.isOk() || result.isRejection()).isTrue();
        for (final FrameResult each : results)
        {
            assertThat(decoder.count(each) - before[each.ordinal()]).as(each.name()).isEqualTo(each == result ? 1 : 0);
        }
        assertThat(handler.calls() - callsBefore).isEqualTo(result.isOk() ? 1 : 0);
        return result;
    }

    /** Writes the frame a snapshot describes again, with the encoder. */
    private static byte[] reEncode(final Map<String, Object> frame)
    {
        final FrameEncoder encoder = new FrameEncoder();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[(int)frame.get("frameLength")]);
        final int templateId = (int)frame.get("templateId");
        final int length;
        switch (templateId)
        {
            case WireFormat.ENVELOPE:
            {
                final byte[] payload = (byte[])frame.get("payload");
                final int payloadAt = encoder.beginEnvelope(buffer, 0, (ActorId)frame.get("recipient"),
                    (ActorId)frame.get("sender"), (int)frame.get("eventType"), (int)frame.get("flags"),
                    (long)frame.get("cookie"), (int)frame.get("accountOwnerNode"), (long)frame.get("accountId"),
                    (int)frame.get("cost"), null, payload.length);
                buffer.putBytes(payloadAt, payload);
                length = payloadAt + payload.length;
                break;
            }
            case WireFormat.HANDSHAKE:
                length = encoder.encodeHandshake(buffer, 0, new Handshake((HandshakePhase)frame.get("phase"),
                    (String)frame.get("clusterId"), (int)frame.get("nodeId"), (long)frame.get("incarnation"),
                    (int)frame.get("peerNodeId"), (long)frame.get("peerIncarnation"),
                    (int)frame.get("minProtocolVersion"), (int)frame.get("maxProtocolVersion"),
                    (byte[])frame.get("challenge"), (byte[])frame.get("proof"),
                    (String)frame.get("detail"), (byte[])frame.get("types"),
                    frame.get("protection") == FrameProtection.UNKNOWN ? FrameProtection.AUTHENTICATED :
                        (FrameProtection)frame.get("protection"), (byte[])frame.get("echo")));
                break;
            case WireFormat.HEARTBEAT:
                length = encoder.encodeHeartbeat(buffer, 0, (int)frame.get("nodeId"), (long)frame.get("incarnation"),
                    (long)frame.get("sendTimeNs"), (long)frame.get("sequence"), (long)frame.get("echoTimeNs"),
                    (long)frame.get("echoDelayNs"));
                break;
            case WireFormat.ACK:
                length = encoder.encodeAck(buffer, 0, (int)frame.get("nodeId"), (long)frame.get("incarnation"),
                    (int)frame.get("streamId"), (long)frame.get("ackedPosition"));
                break;
            case WireFormat.CREDIT_DELTAS:
            {
                final List<Map<String, Object>> deltas = entries(frame, "deltas");
                final int count = deltas.size();
                final int[] owners = new int[count];
                final long[] accounts = new long[count];
                final long[] values = new long[count];
                for (int i = 0; i < count; i++)
                {
                    owners[i] = (int)deltas.get(i).get("accountOwnerNode");
                    accounts[i] = (long)deltas.get(i).get("accountId");
                    values[i] = (long)deltas.get(i).get("delta");
                }
                length = encoder.encodeCreditDeltas(buffer, 0, (int)frame.get("nodeId"), (long)frame.get("incarnation"),
                    owners, accounts, values, count);
                break;
            }
            case WireFormat.UNDELIVERED_NOTICE:
                length = encoder.encodeUndeliveredNotice(buffer, 0, (ActorId)frame.get("sender"),
                    (ActorId)frame.get("recipient"), (int)frame.get("eventType"), (long)frame.get("cookie"),
                    (UndeliveredReason)frame.get("reason"), (boolean)frame.get("unsure"));
                break;
            case WireFormat.DIRECTORY_UPDATE:
            {
                final List<DirectoryEntry> entries = new ArrayList<>();
                for (final Map<String, Object> entry : entries(frame, "entries"))
                {
                    entries.add(new DirectoryEntry((ServiceId)entry.get("service"), (ActorId)entry.get("actor"),
                        (DirectoryOp)entry.get("op")));
                }
                length = encoder.encodeDirectoryUpdate(buffer, 0, (int)frame.get("nodeId"),
                    (long)frame.get("incarnation"), (long)frame.get("directoryVersion"), (boolean)frame.get("snapshot"),
                    entries);
                break;
            }
            case WireFormat.GOODBYE:
                length = encoder.encodeGoodbye(buffer, 0, (int)frame.get("nodeId"), (long)frame.get("incarnation"),
                    (GoodbyeReason)frame.get("reason"), (String)frame.get("detail"));
                break;
            case WireFormat.CHUNK:
            {
                final byte[] bytes = (byte[])frame.get("bytes");
                length = encoder.encodeChunk(buffer, 0, (int)frame.get("totalLength"), (int)frame.get("chunkOffset"),
                    new UnsafeBuffer(bytes), 0, bytes.length);
                break;
            }
            default:
                throw new AssertionError("template " + templateId);
        }
        assertThat(length).isEqualTo(buffer.capacity());
        return buffer.byteArray();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> entries(final Map<String, Object> frame, final String group)
    {
        return (List<Map<String, Object>>)frame.get(group);
    }

    /** The limit the wire format sets on a var data field (WireFormat's, not the decoder's table). */
    private static long varLimit(final int templateId, final int index)
    {
        switch (templateId)
        {
            case WireFormat.ENVELOPE:
                return Integer.MAX_VALUE;
            case WireFormat.HANDSHAKE:
                return new int[]{
                    WireFormat.MAX_CLUSTER_ID_BYTES, WireFormat.MAX_AUTH_BYTES, WireFormat.MAX_AUTH_BYTES,
                    WireFormat.MAX_DETAIL_BYTES}[index];
            case WireFormat.GOODBYE:
                return WireFormat.MAX_DETAIL_BYTES;
            default:
                throw new AssertionError("template " + templateId + " has no var data");
        }
    }

    private static int u16(final byte[] frame, final int offset)
    {
        return new UnsafeBuffer(frame).getShort(offset, ORDER) & 0xFFFF;
    }

    private static byte[] withU16(final byte[] frame, final int offset, final int value)
    {
        final byte[] copy = frame.clone();
        new UnsafeBuffer(copy).putShort(offset, (short)value, ORDER);
        return copy;
    }

    private static byte[] withU32(final byte[] frame, final int offset, final long value)
    {
        final byte[] copy = frame.clone();
        new UnsafeBuffer(copy).putInt(offset, (int)value, ORDER);
        return copy;
    }
}
