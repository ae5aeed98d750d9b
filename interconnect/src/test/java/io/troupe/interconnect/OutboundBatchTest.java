package io.troupe.interconnect;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.serialization.wire.EnvelopeCompaction;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.serialization.wire.WireFormat;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class OutboundBatchTest
{
    private static OutboundFrame frame(final int length, final byte fill, final boolean tracked)
    {
        final OutboundFrame frame = new OutboundFrame();
        final UnsafeBuffer buffer = new UnsafeBuffer();
        frame.wrapForEncoding(length, buffer);
        buffer.setMemory(0, length, fill);
        return frame.describe(tracked ?
            new Envelope(ActorId.of(2, 1, 0), ActorId.of(1, 1, 0), 1, Envelope.FLAG_TRACK_DELIVERY, 0L, "x", null) :
            null, 0, null, 0);
    }

    @Test
    void packsFramesAfterTheirLengthsUpToTheLimit()
    {
        final OutboundBatch batch = new OutboundBatch(100, 1000);
        assertThat(batch.accepts(frame(40, (byte)1, false))).isTrue();
        batch.add(frame(40, (byte)1, false), 3);
        batch.add(frame(40, (byte)2, true), 5);
        assertThat(batch.accepts(frame(13, (byte)3, false))).as("88 + 4 + 13 > 100").isFalse();
        assertThat(batch.accepts(frame(8, (byte)3, false))).as("88 + 4 + 8 = 100").isTrue();

        assertThat(batch.frames()).isEqualTo(2);
        assertThat(batch.length()).isEqualTo(88);
        assertThat(batch.frameBytes()).isEqualTo(80);
        assertThat(batch.bucket(0)).isEqualTo(3);
        assertThat(batch.bucket(1)).isEqualTo(5);
        assertThat(batch.tracked()).hasSize(1);
        assertThat(batch.buffer().getInt(0, ByteOrder.LITTLE_ENDIAN)).isEqualTo(40);
        assertThat(batch.buffer().getByte(4)).isEqualTo((byte)1);
        assertThat(batch.buffer().getInt(44, ByteOrder.LITTLE_ENDIAN)).isEqualTo(40);
        assertThat(batch.buffer().getByte(48)).isEqualTo((byte)2);

        batch.clear();
        assertThat(batch.isEmpty()).isTrue();
        assertThat(batch.tracked()).isEmpty();
        assertThat(batch.length()).isZero();
    }

    @Test
    void aFrameLargerThanTheLimitTravelsAlone()
    {
        final OutboundBatch batch = new OutboundBatch(100, 1000);
        assertThat(batch.accepts(frame(1000, (byte)7, false))).isTrue();
        batch.add(frame(1000, (byte)7, false), 0);
        assertThat(batch.length()).isEqualTo(1004);
        assertThat(batch.accepts(frame(1, (byte)1, false))).isFalse();
    }

    @Test
    void holdsMoreFramesThanItsBucketTableStartsWith()
    {
        final OutboundBatch batch = new OutboundBatch(10_000, 1000);
        for (int i = 0; i < 70; i++)
        {
            batch.add(frame(1, (byte)1, false), i);
        }
        assertThat(batch.frames()).isEqualTo(70);
        assertThat(batch.bucket(69)).isEqualTo(69);
        assertThat(batch.length()).isEqualTo(70 * 5);
    }

    private static final ActorId TO = ActorId.of(2, 7, 0);

    private static OutboundFrame envelopeFrame(final ActorId sender, final long cookie, final int payloadLength)
    {
        final OutboundFrame frame = new OutboundFrame();
        final UnsafeBuffer buffer = new UnsafeBuffer();
        final byte[] payload = new byte[payloadLength];
        Arrays.fill(payload, (byte)cookie);
        frame.wrapForEncoding(WireFormat.envelopeLength(payloadLength), buffer);
        new FrameEncoder().encodeEnvelope(buffer, 0, new Envelope(TO, sender, 4096 << 16, 0, cookie, null, null), 1,
            9L, 1, new UnsafeBuffer(payload), 0, payloadLength);
        return frame.describe(null, 0, null, 0);
    }

    @Test
    void framesThatRepeatTheLastWholeEnvelopeGoCompact()
    {
        final ActorId a = ActorId.of(1, 1, 0);
        final ActorId b = ActorId.of(1, 2, 0);
        final OutboundBatch batch = new OutboundBatch(1376, 4096);
        final OutboundFrame first = envelopeFrame(a, 1, 24);
        final int whole = first.length;
        batch.add(first, 0);
        batch.add(envelopeFrame(a, 2, 24), 0);
        batch.add(envelopeFrame(a, 3, 20), 0);
        batch.add(envelopeFrame(b, 4, 24), 0); // another sender: whole, and the new base
        batch.add(envelopeFrame(a, 5, 24), 0); // repeats a, but the base is b's now: whole again
        batch.add(envelopeFrame(a, 6, 24), 0);

        final UnsafeBuffer buffer = batch.buffer();
        final int[] expected = {whole, 32 | OutboundBatch.COMPACT_FLAG, 28 | OutboundBatch.COMPACT_FLAG, whole, whole,
            32 | OutboundBatch.COMPACT_FLAG};
        int at = 0;
        for (final int entry : expected)
        {
            assertThat(buffer.getInt(at, ByteOrder.LITTLE_ENDIAN)).isEqualTo(entry);
            at += OutboundBatch.LENGTH_PREFIX + (entry & ~OutboundBatch.COMPACT_FLAG);
        }
        assertThat(batch.length()).isEqualTo(at);
        assertThat(batch.frames()).isEqualTo(6);
        assertThat(batch.frameBytes()).as("compact frames count as the whole frames they stand for")
            .isEqualTo(5L * whole + whole - 4);
        // the second entry is its cookie, then its payload
        final int second = OutboundBatch.LENGTH_PREFIX + whole + OutboundBatch.LENGTH_PREFIX;
        assertThat(buffer.getLong(second, ByteOrder.LITTLE_ENDIAN)).isEqualTo(2L);
        assertThat(buffer.getByte(second + EnvelopeCompaction.COMPACT_OVERHEAD)).isEqualTo((byte)2);

        batch.clear();
        batch.add(envelopeFrame(a, 7, 24), 0);
        assertThat(batch.buffer().getInt(0, ByteOrder.LITTLE_ENDIAN)).as("a new message starts whole").isEqualTo(whole);
    }

    @Test
    void aCompactFrameCountsItsCompactLengthAgainstTheLimit()
    {
        final ActorId a = ActorId.of(1, 1, 0);
        final int whole = envelopeFrame(a, 1, 24).length;
        final int limit = OutboundBatch.LENGTH_PREFIX + whole + OutboundBatch.LENGTH_PREFIX + 32;
        final OutboundBatch batch = new OutboundBatch(limit, 4096);
        batch.add(envelopeFrame(a, 1, 24), 0);
        assertThat(batch.accepts(envelopeFrame(a, 2, 24))).as("fits compact, not whole").isTrue();
        assertThat(batch.accepts(envelopeFrame(ActorId.of(1, 2, 0), 2, 24))).as("another sender goes whole").isFalse();
        batch.add(envelopeFrame(a, 2, 24), 0);
        assertThat(batch.length()).isEqualTo(limit);
    }

    @Test
    void aFrameJudgedCompactThenLeftForTheNextMessageStartsItWhole()
    {
        final ActorId a = ActorId.of(1, 1, 0);
        final int whole = envelopeFrame(a, 1, 24).length;
        final OutboundBatch batch = new OutboundBatch(OutboundBatch.LENGTH_PREFIX + whole + 10, 4096);
        batch.add(envelopeFrame(a, 1, 24), 0);
        final OutboundFrame next = envelopeFrame(a, 2, 24);
        assertThat(batch.accepts(next)).as("not even its compact form fits").isFalse();
        batch.clear(); // the agent offered the full batch
        assertThat(batch.accepts(next)).isTrue();
        batch.add(next, 0);
        assertThat(batch.buffer().getInt(0, ByteOrder.LITTLE_ENDIAN)).as("no base in a new message").isEqualTo(whole);
    }
}
