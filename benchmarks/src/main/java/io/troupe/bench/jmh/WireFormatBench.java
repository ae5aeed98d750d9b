package io.troupe.bench.jmh;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.EventTypes;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.wire.EnvelopeFrame;
import io.troupe.serialization.wire.FrameDecoder;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.serialization.wire.FrameHandler;
import io.troupe.serialization.wire.FrameResult;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;

/**
 * Cost of the wire format on the envelope path, in ns per operation, over a direct buffer (as an Aeron term
 * buffer is). The event is a record of two longs with a fixed-size 16-byte {@link EventCodec}; the envelope
 * is encoded with {@link FrameEncoder#encodeEnvelope(org.agrona.MutableDirectBuffer, int, Envelope, int, long,
 * int, EventCodec)}, the codec writing straight into the frame, and the payload is read back in place from
 * the frame view (materialising the event object is the recipient's lazy decode, not part of this figure).
 *
 * <ul>
 *   <li>{@link #encodeDecode}: encode an envelope frame (ids, type, flags, cookie, credit account and cost,
 *       the 16-byte payload), then validate and decode it: every field is read and the payload's two longs
 *       are decoded. Target: at most 40 ns per pair, no allocation (run with {@code -prof gc}).</li>
 *   <li>{@link #encode}: the encoding half alone.</li>
 *   <li>{@link #validate}: {@link FrameDecoder#decode} of a ready frame with a handler that reads nothing:
 *       the cost of validation and dispatch alone.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class WireFormatBench
{
    static final int PAYLOAD_LENGTH = 16;
    static final int EVENT_TYPE = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 1);

    /**
     * Encodes and decodes one envelope frame.
     *
     * @param state buffers, encoder and decoder.
     * @return a checksum of what was decoded.
     */
    @Benchmark
    public long encodeDecode(final WireState state)
    {
        final int length = state.encodeOne();
        if (state.decoder.decode(state.buffer, 0, length) != FrameResult.OK)
        {
            throw new IllegalStateException("frame rejected");
        }
        return state.reader.checksum;
    }

    /**
     * Encodes one envelope frame.
     *
     * @param state buffers and encoder.
     * @return the frame's length.
     */
    @Benchmark
    public int encode(final WireState state)
    {
        return state.encodeOne();
    }

    /**
     * Validates and decodes a ready frame: every field and the payload's two longs.
     *
     * @param state the ready frame and a decoder with a reading handler.
     * @return a checksum of what was decoded.
     */
    @Benchmark
    public long decode(final WireState state)
    {
        if (state.decoder.decode(state.ready, 0, state.readyLength) != FrameResult.OK)
        {
            throw new IllegalStateException("frame rejected");
        }
        return state.reader.checksum;
    }

    /**
     * Validates and dispatches a ready frame to a handler that reads nothing.
     *
     * @param state the ready frame and a decoder with an empty handler.
     * @return the result.
     */
    @Benchmark
    public FrameResult validate(final WireState state)
    {
        return state.validator.decode(state.ready, 0, state.readyLength);
    }

    /** Buffers, encoder and decoders, one per benchmark thread. */
    @State(Scope.Thread)
    public static class WireState
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(256, 64));
        final UnsafeBuffer ready = new UnsafeBuffer(BufferUtil.allocateDirectAligned(256, 64));
        final FrameEncoder encoder = new FrameEncoder();
        final Reader reader = new Reader();
        final FrameDecoder decoder = new FrameDecoder(reader);
        final FrameDecoder validator = new FrameDecoder(frame ->
        {
        });
        final Envelope envelope = new Envelope(ActorId.of(3, 1729, 17), ActorId.of(5, 4242, 9), EVENT_TYPE, 0, 7L,
            new Pair(0x0123_4567_89AB_CDEFL, 42), null);
        int readyLength;

        /** Prepares the ready frame. */
        @Setup
        public void setUp()
        {
            readyLength = encodeInto(ready);
        }

        int encodeOne()
        {
            return encodeInto(buffer);
        }

        private int encodeInto(final UnsafeBuffer target)
        {
            return encoder.encodeEnvelope(target, 0, envelope, 5, 11L, 1, PairCodec.INSTANCE);
        }
    }

    /** The benchmark's event: 16 bytes. */
    record Pair(long first, long second)
    {
    }

    /** A fixed-size codec of {@link Pair}, as a user would write one. */
    static final class PairCodec implements EventCodec<Pair>
    {
        static final PairCodec INSTANCE = new PairCodec();

        @Override
        public int typeId()
        {
            return EVENT_TYPE;
        }

        @Override
        public String name()
        {
            return "bench.Pair";
        }

        @Override
        public Class<Pair> eventClass()
        {
            return Pair.class;
        }

        @Override
        public int encodedLength(final Pair event)
        {
            return PAYLOAD_LENGTH;
        }

        @Override
        public int encode(final Pair event, final MutableDirectBuffer buffer, final int offset)
        {
            buffer.putLong(offset, event.first(), ByteOrder.LITTLE_ENDIAN);
            buffer.putLong(offset + 8, event.second(), ByteOrder.LITTLE_ENDIAN);
            return PAYLOAD_LENGTH;
        }

        @Override
        public Pair decode(final DirectBuffer buffer, final int offset, final int length)
        {
            return new Pair(buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN),
                buffer.getLong(offset + 8, ByteOrder.LITTLE_ENDIAN));
        }
    }

    /** Reads every field of an envelope frame and decodes the payload's two longs. */
    static final class Reader implements FrameHandler
    {
        long checksum;

        @Override
        public void onEnvelope(final EnvelopeFrame frame)
        {
            final int at = frame.payloadOffset();
            checksum = frame.recipientRaw1() + frame.recipientRaw2() + frame.senderRaw1() + frame.senderRaw2() +
                frame.eventType() + frame.flags() + frame.cookie() + frame.accountOwnerNode() + frame.accountId() +
                frame.cost() + frame.payloadLength() +
                frame.buffer().getLong(at, ByteOrder.LITTLE_ENDIAN) +
                frame.buffer().getLong(at + 8, ByteOrder.LITTLE_ENDIAN);
        }
    }
}
