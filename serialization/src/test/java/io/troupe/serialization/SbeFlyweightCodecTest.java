package io.troupe.serialization;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.EventTypes;
import io.troupe.actor.MalformedEventException;
import io.troupe.actor.WirePayload;
import io.troupe.serialization.testsbe.FillDecoder;
import io.troupe.serialization.testsbe.FillEncoder;
import io.troupe.serialization.testsbe.QuoteDecoder;
import io.troupe.serialization.testsbe.QuoteEncoder;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

import static io.troupe.serialization.TroupeCodecsTest.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The SBE flyweight codec over the test schema {@code src/test/resources/sbe/test-events.xml} (schema 4242,
 * version 1): Fill is fixed-length with a field added in version 1, Quote has a group and var data.
 */
class SbeFlyweightCodecTest
{
    private static final int FILL_TYPE = EventTypes.typeId(EventTypes.SPACE_USER_FIRST + 1, 1);
    private static final int QUOTE_TYPE = EventTypes.typeId(EventTypes.SPACE_USER_FIRST + 1, 2);
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    record Fill(long orderId, long priceTicks, int quantity, long fee)
    {
    }

    record Level(long priceTicks, int size)
    {
    }

    record Quote(long instrumentId, List<Level> levels, String venue, byte[] blob)
    {
        @Override
        public boolean equals(final Object o)
        {
            return o instanceof Quote other && instrumentId == other.instrumentId && levels.equals(other.levels) &&
                venue.equals(other.venue) && Arrays.equals(blob, other.blob);
        }

        @Override
        public int hashCode()
        {
            return Objects.hash(instrumentId, levels, venue);
        }
    }

    static final SbeFlyweightCodec<Fill, FillEncoder, FillDecoder> FILL = SbeFlyweightCodec.fixedLength(
        FILL_TYPE, "test.Fill", Fill.class,
        FillEncoder::new,
        (encoder, fill) -> encoder.orderId(fill.orderId()).priceTicks(fill.priceTicks()).quantity(fill.quantity())
            .fee(fill.fee()),
        FillDecoder::new,
        decoder -> new Fill(decoder.orderId(), decoder.priceTicks(), decoder.quantity(), decoder.fee()));

    static final SbeFlyweightCodec<Quote, QuoteEncoder, QuoteDecoder> QUOTE = SbeFlyweightCodec.variableLength(
        QUOTE_TYPE, "test.Quote", Quote.class,
        QuoteEncoder::new, SbeFlyweightCodecTest::writeQuote,
        QuoteDecoder::new, SbeFlyweightCodecTest::readQuote,
        quote -> QuoteEncoder.BLOCK_LENGTH +
            QuoteEncoder.LevelsEncoder.sbeHeaderSize() +
            quote.levels().size() * QuoteEncoder.LevelsEncoder.sbeBlockLength() +
            QuoteEncoder.venueHeaderLength() + EventWriter.utf8Length(quote.venue()) +
            QuoteEncoder.blobHeaderLength() + quote.blob().length);

    private static void writeQuote(final QuoteEncoder encoder, final Quote quote)
    {
        encoder.instrumentId(quote.instrumentId());
        final QuoteEncoder.LevelsEncoder levels = encoder.levelsCount(quote.levels().size());
        for (final Level level : quote.levels())
        {
            levels.next().priceTicks(level.priceTicks()).size(level.size());
        }
        encoder.venue(quote.venue());
        encoder.putBlob(quote.blob(), 0, quote.blob().length);
    }

    private static Quote readQuote(final QuoteDecoder decoder)
    {
        final long instrumentId = decoder.instrumentId();
        final List<Level> levels = new ArrayList<>();
        for (final QuoteDecoder.LevelsDecoder level : decoder.levels())
        {
            levels.add(new Level(level.priceTicks(), level.size()));
        }
        final String venue = decoder.venue();
        final byte[] blob = new byte[decoder.blobLength()];
        decoder.getBlob(blob, 0, blob.length);
        return new Quote(instrumentId, levels, venue, blob);
    }

    private static Quote sampleQuote()
    {
        return new Quote(42, List.of(new Level(100, 5), new Level(-1, Integer.MAX_VALUE)), "X\u00E9\uD83D\uDE00",
            new byte[] {1, 2, 3});
    }

    @Test
    void aFixedLengthMessageRoundTripsAfterTheSbeHeader()
    {
        final Fill fill = new Fill(Long.MAX_VALUE, Long.MIN_VALUE, Integer.MIN_VALUE, 7);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);

        final int written = FILL.encode(fill, buffer, 4);

        assertThat(written).isEqualTo(FILL.encodedLength(fill)).isEqualTo(8 + FillEncoder.BLOCK_LENGTH);
        assertThat(buffer.getShort(4, LE)).isEqualTo((short)FillEncoder.BLOCK_LENGTH);
        assertThat(buffer.getShort(6, LE)).isEqualTo((short)FillEncoder.TEMPLATE_ID);
        assertThat(buffer.getShort(8, LE)).isEqualTo((short)4242);
        assertThat(buffer.getShort(10, LE)).isEqualTo((short)1);
        assertThat(FILL.decode(buffer, 4, written)).isEqualTo(fill);
        assertThat(roundTrip(FILL, new Fill(0, 0, 0, 0))).isEqualTo(new Fill(0, 0, 0, 0));
    }

    @Test
    void aVariableLengthMessageRoundTripsWithItsExactLength()
    {
        assertThat(roundTrip(QUOTE, sampleQuote())).isEqualTo(sampleQuote());
    }

    @Test
    void emptyGroupsAndVarDataRoundTrip()
    {
        final Quote empty = new Quote(0, List.of(), "", new byte[0]);

        assertThat(QUOTE.encodedLength(empty)).isEqualTo(8 + 8 + 4 + 4 + 4);
        assertThat(roundTrip(QUOTE, empty)).isEqualTo(empty);
    }

    @Test
    void theLargestGroupAndLongVarDataRoundTrip()
    {
        final int maxCount = QuoteEncoder.LevelsEncoder.countMaxValue();
        final List<Level> levels = new ArrayList<>(Collections.nCopies(maxCount, new Level(Long.MAX_VALUE, -7)));
        final byte[] blob = new byte[1 << 20];
        Arrays.fill(blob, (byte)-1);
        final Quote huge = new Quote(Long.MIN_VALUE, levels, "\u20AC".repeat(100_000), blob);

        assertThat(maxCount).isEqualTo(65_534);
        assertThat(roundTrip(QUOTE, huge)).isEqualTo(huge);
    }

    @Test
    void anOlderVersionWithAShorterBlockDecodesWithTheNewFieldAbsent()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8 + 20]);
        header(buffer, 20, FillEncoder.TEMPLATE_ID, 4242, 0);
        buffer.putLong(8, 11L, LE);
        buffer.putLong(16, 22L, LE);
        buffer.putInt(24, 33, LE);

        assertThat(FILL.decode(buffer, 0, 28)).isEqualTo(new Fill(11, 22, 33, FillDecoder.feeNullValue()));
    }

    @Test
    void aNewerVersionWithALongerBlockDecodesTheKnownFields()
    {
        final Fill fill = new Fill(1, 2, 3, 4);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8 + 40]);
        FILL.encode(fill, buffer, 0);
        header(buffer, 40, FillEncoder.TEMPLATE_ID, 4242, 2);

        assertThat(FILL.decode(buffer, 0, 48)).isEqualTo(fill);
    }

    @Test
    void aHeaderForAnotherMessageIsRejected()
    {
        final UnsafeBuffer buffer = encodedFill();

        header(buffer, FillEncoder.BLOCK_LENGTH, FillEncoder.TEMPLATE_ID, 4243, 1);
        assertMalformed(FILL, buffer, 36, "SBE schema id 4243, expected 4242 (codec 'test.Fill')");
        header(buffer, FillEncoder.BLOCK_LENGTH, QuoteEncoder.TEMPLATE_ID, 4242, 1);
        assertMalformed(FILL, buffer, 36, "SBE template id 2, expected 1");
    }

    @Test
    void aBlockLengthThatDoesNotFitOrIsTooShortIsRejected()
    {
        final UnsafeBuffer buffer = encodedFill();

        header(buffer, 29, FillEncoder.TEMPLATE_ID, 4242, 1);
        assertMalformed(FILL, buffer, 36, "SBE block length 29 exceeds the 28 bytes after the header");
        header(buffer, 0xFFFF, FillEncoder.TEMPLATE_ID, 4242, 1);
        assertMalformed(FILL, buffer, 36, "SBE block length 65535 exceeds");
        header(buffer, 20, FillEncoder.TEMPLATE_ID, 4242, 1);
        assertMalformed(FILL, buffer, 36, "SBE block length 20 of version 1 is shorter than the 28 bytes of version 1");
    }

    @Test
    void everyTruncationIsRejectedAsMalformed()
    {
        final Quote quote = sampleQuote();
        final int full = QUOTE.encodedLength(quote);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[full]);
        QUOTE.encode(quote, buffer, 0);

        for (int length = 0; length < full; length++)
        {
            final int truncated = length;
            assertThatThrownBy(() -> QUOTE.decode(buffer, 0, truncated))
                .as("%d of %d bytes", truncated, full)
                .isInstanceOf(MalformedEventException.class)
                .hasMessageContaining(EventTypes.describe(QUOTE_TYPE));
        }
        assertMalformed(FILL, encodedFill(), 7, "truncated: 7 bytes, the SBE message header alone needs 8");
    }

    @Test
    void aCorruptVarDataLengthIsRejectedBeforeTheReaderAllocates()
    {
        final Quote quote = new Quote(1, List.of(), "abc", new byte[0]);
        final int full = QUOTE.encodedLength(quote);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[full]);
        QUOTE.encode(quote, buffer, 0);
        final int venueLengthAt = 8 + QuoteEncoder.BLOCK_LENGTH + 4;

        buffer.putInt(venueLengthAt, 900_000_000, LE);
        assertMalformed(QUOTE, buffer, full, "groups and var data do not fit in the 23 bytes after the header");
        buffer.putInt(venueLengthAt, 0x7FFF_FFF0, LE);
        assertMalformed(QUOTE, buffer, full, "do not fit");
        buffer.putInt(venueLengthAt, -16, LE); // uint32 0xFFFFFFF0
        assertMalformed(QUOTE, buffer, full, "do not fit");
        buffer.putInt(venueLengthAt, 4, LE); // one byte too long: the blob length field is cut short
        assertMalformed(QUOTE, buffer, full, "do not fit");
        buffer.putInt(venueLengthAt, 3, LE);
        assertThat(QUOTE.decode(buffer, 0, full)).isEqualTo(quote);
    }

    @Test
    void aCorruptGroupCountIsRejected()
    {
        final Quote quote = sampleQuote();
        final int full = QUOTE.encodedLength(quote);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[full]);
        QUOTE.encode(quote, buffer, 0);
        final int groupHeaderAt = 8 + QuoteEncoder.BLOCK_LENGTH;

        buffer.putShort(groupHeaderAt + 2, (short)0xFFFF, LE);
        assertMalformed(QUOTE, buffer, full, "do not fit");
        buffer.putShort(groupHeaderAt + 2, (short)2, LE);
        buffer.putShort(groupHeaderAt, (short)0xFFFF, LE);
        assertMalformed(QUOTE, buffer, full, "do not fit");
    }

    @Test
    void anEncoderAndDecoderOfDifferentMessagesAreRefused()
    {
        assertThatThrownBy(() -> SbeFlyweightCodec.fixedLength(FILL_TYPE, "test.Mixed", Fill.class,
            FillEncoder::new, (encoder, fill) -> { }, QuoteDecoder::new, decoder -> null))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("the encoder writes schema 4242 template 1 but the decoder reads schema 4242 " +
                "template 2");
        assertThatThrownBy(() -> SbeFlyweightCodec.variableLength(QUOTE_TYPE, "test.Quote", Quote.class,
            QuoteEncoder::new, SbeFlyweightCodecTest::writeQuote, QuoteDecoder::new, SbeFlyweightCodecTest::readQuote,
            null))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a body length");
    }

    @Test
    void encodingAFixedLengthMessageAllocatesNothing()
    {
        final Fill fill = new Fill(1, 2, 3, 4);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);

        final long allocated =
            Allocations.allocatedBy(() -> FILL.encode(fill, buffer, FILL.encodedLength(fill) & 7));

        assertThat(allocated).as("bytes allocated by %d encodes", Allocations.CALLS).isLessThan(Allocations.CALLS);
    }

    @Test
    void anEnvelopeFromTheWireDecodesThroughTheRegisteredCodec()
    {
        final EventCodecRegistry registry = EventCodecRegistry.builder().withTroupeCodecs().register(FILL)
            .register(QUOTE).build();
        final ExpandableArrayBuffer receive = new ExpandableArrayBuffer();
        final Quote quote = sampleQuote();
        final int length = registry.codecFor(Quote.class).encode(quote, receive, 100);

        final WirePayload payload = WirePayload.copyOf(QUOTE_TYPE, receive, 100, length, registry.codec(QUOTE_TYPE));
        receive.setMemory(0, 200 + length, (byte)0);
        final Envelope envelope = new Envelope(ActorId.of(1, 2, 3), ActorId.of(4, 5, 6), QUOTE_TYPE, 0, 0L, payload,
            null);

        assertThat(envelope.memoryCost()).isEqualTo(Envelope.ENVELOPE_COST_BYTES + length);
        assertThat(envelope.event()).isEqualTo(quote);
        final Quote typed = envelope.event(QUOTE);
        assertThat(typed).isSameAs(envelope.event());
        assertThat(QUOTE.toString()).contains("test.Quote", "schema=4242", "template=2", "version=1");
    }

    private static UnsafeBuffer encodedFill()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[36]);
        FILL.encode(new Fill(1, 2, 3, 4), buffer, 0);
        return buffer;
    }

    private static void header(
        final UnsafeBuffer buffer, final int blockLength, final int templateId, final int schemaId, final int version)
    {
        buffer.putShort(0, (short)blockLength, LE);
        buffer.putShort(2, (short)templateId, LE);
        buffer.putShort(4, (short)schemaId, LE);
        buffer.putShort(6, (short)version, LE);
    }

    private static void assertMalformed(
        final EventCodec<?> codec, final UnsafeBuffer buffer, final int length, final String message)
    {
        assertThatThrownBy(() -> codec.decode(buffer, 0, length))
            .isInstanceOf(MalformedEventException.class)
            .hasMessageContaining(message)
            .hasMessageContaining(EventTypes.describe(codec.typeId()));
    }
}
