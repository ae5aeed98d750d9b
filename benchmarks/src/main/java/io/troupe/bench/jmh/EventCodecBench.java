package io.troupe.bench.jmh;

import io.troupe.actor.ActorId;
import io.troupe.actor.EventTypes;
import io.troupe.serialization.DerivedCodec;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.RecordCodec;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * An event codec's cost: encode a 3-field record ({@code long}, {@code String} of 4 ASCII characters,
 * {@code ActorId}) into a direct buffer, measure it, and decode it back, with the {@link DerivedCodec} (the
 * default, chained method handles) against a hand-written {@link RecordCodec} of the same wire form.
 *
 * <pre>{@code java -jar benchmarks/target/troupe-benchmarks.jar jmh EventCodecBench -prof gc}</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class EventCodecBench
{
    /** The record both codecs carry. */
    public record Fill(long orderId, String venue, ActorId trader)
    {
    }

    static final RecordCodec<Fill> HAND_WRITTEN = RecordCodec.of(
        EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 1), "bench.Fill", Fill.class,
        (out, fill) -> out.writeLong(fill.orderId()).writeString(fill.venue()).writeActorId(fill.trader()),
        in -> new Fill(in.readLong(), in.readString(), in.readActorId()));
    static final DerivedCodec<Fill> DERIVED = DerivedCodec.of(Fill.class, "bench.Fill");

    /** The codec under test and its buffer. */
    @State(Scope.Thread)
    public static class Codecs
    {
        @Param({"derived", "handWritten"})
        public String codec;

        EventCodec<Fill> selected;
        final Fill fill = new Fill(1_234_567L, "XLON", ActorId.of(3, 42, 7));
        final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(256, 64));

        @Setup
        public void setUp()
        {
            selected = "derived".equals(codec) ? DERIVED : HAND_WRITTEN;
        }
    }

    /**
     * Measures, encodes and decodes one event.
     *
     * @param state the codec and buffer.
     * @return the decoded event.
     */
    @Benchmark
    public Fill encodeDecode(final Codecs state)
    {
        final EventCodec<Fill> codec = state.selected;
        final int length = codec.encodedLength(state.fill);
        codec.encode(state.fill, state.buffer, 0);
        return codec.decode(state.buffer, 0, length);
    }

    /**
     * Measures and encodes one event.
     *
     * @param state the codec and buffer.
     * @return bytes written.
     */
    @Benchmark
    public int encode(final Codecs state)
    {
        final EventCodec<Fill> codec = state.selected;
        return codec.encodedLength(state.fill) + codec.encode(state.fill, state.buffer, 0);
    }
}
