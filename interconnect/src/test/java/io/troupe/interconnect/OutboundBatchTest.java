package io.troupe.interconnect;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

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
            new Envelope(ActorId.of(2, 1, 0), ActorId.of(1, 1, 0), 1, Envelope.FLAG_TRACK_DELIVERY, 0L, "x", null) : null, 0,
            null, 0);
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
}
