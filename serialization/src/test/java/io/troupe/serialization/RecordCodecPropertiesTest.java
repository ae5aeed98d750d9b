package io.troupe.serialization;

import io.troupe.actor.ActorId;
import io.troupe.actor.MalformedEventException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.IntRange;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

import static io.troupe.serialization.RecordCodecTest.ALL_KINDS;
import static io.troupe.serialization.RecordCodecTest.AllKinds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Random records and strings: the writer's UTF-8 matches the JDK's, lengths are exact, every record round trips,
 * and random garbage never escapes as anything but a decoded event or a {@link MalformedEventException}.
 */
class RecordCodecPropertiesTest
{
    @Property
    void utf8MatchesTheJdkByteForByte(@ForAll @CharRange(from = 0, to = 0xFFFF) final String text)
    {
        final byte[] expected = text.getBytes(StandardCharsets.UTF_8);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[expected.length + 8]);

        final int written = Utf8.encode(text, buffer, 3);

        assertThat(Utf8.encodedLength(text)).isEqualTo(expected.length);
        assertThat(written).isEqualTo(expected.length);
        final byte[] actual = new byte[written];
        buffer.getBytes(3, actual);
        assertThat(actual).isEqualTo(expected);
    }

    @Property
    void everyRecordRoundTripsWithItsExactLength(@ForAll("records") final AllKinds event,
        @ForAll @IntRange(max = 9) final int offset)
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(16);

        final int written = ALL_KINDS.encode(event, buffer, offset);

        assertThat(written).isEqualTo(ALL_KINDS.encodedLength(event));
        assertThat(ALL_KINDS.decode(buffer, offset, written)).isEqualTo(event);
    }

    @Property
    void garbageDecodesOrIsRejectedAsMalformed(@ForAll final byte[] garbage)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(garbage);

        try
        {
            ALL_KINDS.decode(buffer, 0, garbage.length);
        }
        catch (final MalformedEventException expected)
        {
            assertThat(expected.typeId()).isEqualTo(RecordCodecTest.ALL_KINDS_TYPE);
        }
    }

    @Property
    void aTruncatedRecordIsAlwaysRejected(@ForAll("records") final AllKinds event,
        @ForAll @IntRange(min = 1) final int cut)
    {
        final int full = ALL_KINDS.encodedLength(event);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[full]);
        ALL_KINDS.encode(event, buffer, 0);
        final int length = full - 1 - (cut % full);

        assertThatThrownBy(() -> ALL_KINDS.decode(buffer, 0, length)).isInstanceOf(MalformedEventException.class);
    }

    @Provide
    Arbitrary<AllKinds> records()
    {
        final Arbitrary<ActorId> ids = Arbitraries.longs().tuple2()
            .map(raw -> ActorId.fromRaw(raw.get1(), raw.get2())).injectNull(0.2);
        final Arbitrary<String> texts = Arbitraries.strings().ofMaxLength(50).injectNull(0.2);
        final Arbitrary<byte[]> bytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(50).injectNull(0.2);
        final Arbitrary<AllKinds> numbers = Combinators.combine(Arbitraries.bytes(), Arbitraries.shorts(),
            Arbitraries.integers(), Arbitraries.longs(), Arbitraries.floats(), Arbitraries.doubles(),
            Arbitraries.of(true, false))
            .as((b, s, i, l, f, d, z) -> new AllKinds(b, s, i, l, f, d, z, null, null, null));
        return Combinators.combine(numbers, texts, bytes, ids)
            .as((n, t, a, id) -> new AllKinds(n.b(), n.s(), n.i(), n.l(), n.f(), n.d(), n.z(), t, a, id));
    }
}
