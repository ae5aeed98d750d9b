package io.troupe.broker;

import io.troupe.actor.ActorId;
import io.troupe.actor.MalformedEventException;
import io.troupe.serialization.EventCodec;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random payloads through every broker codec, each in a buffer of exactly its bytes (so a read outside it
 * throws): a codec either decodes or rejects with {@link MalformedEventException}, never anything else; and
 * random requests and matches round-trip.
 */
class BrokerCodecsPropertiesTest
{
    @Provide
    Arbitrary<EventCodec<?>> codecs()
    {
        return Arbitraries.of(BrokerCodecs.ALL);
    }

    @Provide
    Arbitrary<byte[]> payloads()
    {
        // small tags, sides and lengths are likelier than in uniform bytes: mostly plausible, sometimes not
        final Arbitrary<Byte> plausible = Arbitraries.oneOf(Arbitraries.bytes().between((byte)-1, (byte)6),
            Arbitraries.bytes());
        return plausible.array(byte[].class).ofMaxSize(64);
    }

    @Provide
    Arbitrary<Object> counterparties()
    {
        return Arbitraries.oneOf(
            Arbitraries.just(null),
            Combinators.combine(Arbitraries.longs(), Arbitraries.longs()).as(ActorId::fromRaw),
            Arbitraries.strings().ofMaxLength(40),
            Arbitraries.longs().map(Long::valueOf),
            Arbitraries.integers().map(Integer::valueOf),
            Arbitraries.bytes().array(byte[].class).ofMaxSize(40));
    }

    @Property(tries = 2000, edgeCases = EdgeCasesMode.MIXIN)
    void randomBytesDecodeOrAreMalformed(@ForAll("codecs") final EventCodec<?> codec,
        @ForAll("payloads") final byte[] payload)
    {
        try
        {
            final Object event = codec.decode(new UnsafeBuffer(payload), 0, payload.length);
            assertThat(event).isInstanceOf(codec.eventClass());
        }
        catch (final MalformedEventException ex)
        {
            assertThat(ex.typeId()).isEqualTo(codec.typeId());
        }
    }

    @Property(tries = 2000, edgeCases = EdgeCasesMode.NONE) // the boundaries are BrokerCodecsTest's
    void requestsRoundTrip(@ForAll("counterparties") final Object counterparty, @ForAll final long ref,
        @ForAll final long sentNs, @ForAll final boolean nonBlocking, @ForAll final boolean askR)
    {
        final BrokerAsk ask = new BrokerAsk(askR ? Side.ASK_R : Side.ASK, ref, counterparty, sentNs, nonBlocking);
        final BrokerAsk decoded = decode(BrokerCodecs.BROKER_ASK, encode(BrokerCodecs.BROKER_ASK, ask));
        assertThat(new BrokerAsk(decoded.side(), decoded.ref(), null, decoded.sentNs(), decoded.nonBlocking()))
            .isEqualTo(new BrokerAsk(ask.side(), ref, null, sentNs, nonBlocking));
        assertSameCounterparty(decoded.counterparty(), counterparty);
    }

    @Property(tries = 2000, edgeCases = EdgeCasesMode.NONE)
    void matchesRoundTrip(@ForAll("counterparties") final Object counterparty, @ForAll final long ref,
        @ForAll final long relativeNs, @ForAll final long sojournNs)
    {
        final Go decoded = decode(BrokerCodecs.GO,
            encode(BrokerCodecs.GO, new Go(ref, counterparty, relativeNs, sojournNs)));
        assertThat(new Go(decoded.ref(), null, decoded.relativeTimeNs(), decoded.sojournTimeNs()))
            .isEqualTo(new Go(ref, null, relativeNs, sojournNs));
        assertSameCounterparty(decoded.counterparty(), counterparty);
    }

    private static void assertSameCounterparty(final Object decoded, final Object counterparty)
    {
        if (counterparty instanceof byte[] bytes)
        {
            assertThat(Arrays.equals((byte[])decoded, bytes)).isTrue();
        }
        else if (counterparty instanceof String text)
        {
            // a lone surrogate is written as '?', as the JDK's UTF-8 encoder does; anything else comes back as it was
            assertThat(decoded).isEqualTo(new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
        }
        else
        {
            assertThat(decoded).isEqualTo(counterparty);
        }
    }

    private static <T> byte[] encode(final EventCodec<T> codec, final T event)
    {
        final byte[] bytes = new byte[codec.encodedLength(event)];
        assertThat(codec.encode(event, new UnsafeBuffer(bytes), 0)).isEqualTo(bytes.length);
        return bytes;
    }

    private static <T> T decode(final EventCodec<T> codec, final byte[] bytes)
    {
        return codec.decode(new UnsafeBuffer(bytes), 0, bytes.length);
    }
}
