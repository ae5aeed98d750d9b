package io.troupe.serialization.wire;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** A large envelope frame cut into chunks, and chunks that do not fit together. */
class ChunkAssemblerTest
{
    private final FrameEncoder encoder = new FrameEncoder();
    private final List<Integer> results = new ArrayList<>();
    private final List<byte[]> payloads = new ArrayList<>();
    private final ChunkAssembler assembler = new ChunkAssembler(1 << 20);
    private final FrameDecoder whole = new FrameDecoder(frame -> payloads.add(frame.payloadBytes()), 1 << 20);
    private final FrameDecoder decoder = new FrameDecoder(new FrameHandler()
    {
        @Override
        public void onEnvelope(final EnvelopeFrame frame)
        {
        }

        @Override
        public void onChunk(final ChunkFrame frame)
        {
            final int length = assembler.onChunk(frame);
            results.add(length);
            if (length > 0)
            {
                whole.decode(assembler.buffer(), 0, length);
            }
        }
    });

    private byte[] bigFrame(final int payloadLength)
    {
        final byte[] payload = new byte[payloadLength];
        new Random(7).nextBytes(payload);
        final byte[] frame = new byte[WireFormat.envelopeLength(payloadLength)];
        encoder.encodeEnvelope(new UnsafeBuffer(frame), 0,
            new Envelope(ActorId.of(1, 2, 3), ActorId.NONE, 4096 << 16, 0, 0L, "x", null), 0, 0L, 1,
            new UnsafeBuffer(payload), 0, payloadLength);
        return frame;
    }

    private void sendChunk(final byte[] frame, final int total, final int offset, final int length)
    {
        final UnsafeBuffer out = new UnsafeBuffer(new byte[WireFormat.CHUNK_OVERHEAD + length]);
        final int chunkLength = encoder.encodeChunk(out, 0, total, offset, new UnsafeBuffer(frame), offset, length);
        assertThat(decoder.decode(out, 0, chunkLength)).isEqualTo(FrameResult.OK);
    }

    @Test
    void chunksInOrderMakeTheWholeFrameAgain()
    {
        final byte[] frame = bigFrame(300_000);
        for (int offset = 0; offset < frame.length; offset += 65_000)
        {
            sendChunk(frame, frame.length, offset, Math.min(65_000, frame.length - offset));
        }
        assertThat(results).containsExactly(0, 0, 0, 0, frame.length);
        assertThat(payloads).hasSize(1);
        assertThat(payloads.get(0)).hasSize(300_000);
        assertThat(assembler.rejected()).isZero();
        assertThat(assembler.inProgress()).isFalse();
    }

    @Test
    void chunksThatDoNotFitTogetherAreRejectedAndTheNextFrameStillAssembles()
    {
        final byte[] frame = bigFrame(10_000);
        sendChunk(frame, frame.length, 1_000, 1_000);            // no frame in progress
        sendChunk(frame, frame.length, 0, 1_000);
        sendChunk(frame, frame.length, 2_000, 1_000);            // a gap
        sendChunk(frame, 2 << 20, 0, 1_000);                     // larger than the limit
        sendChunk(frame, frame.length, 0, 5_000);
        sendChunk(frame, frame.length + 1, 5_000, 1_000);        // claims another total
        sendChunk(frame, frame.length, 0, 6_000);
        sendChunk(frame, frame.length, 6_000, frame.length - 6_000);
        assertThat(results).containsExactly(-1, 0, -1, -1, 0, -1, 0, frame.length);
        assertThat(assembler.rejected()).isEqualTo(4);
        assertThat(payloads).hasSize(1);
    }

    @Test
    void aNewFrameStartingMidwayDropsTheUnfinishedOne()
    {
        final byte[] frame = bigFrame(5_000);
        sendChunk(frame, frame.length, 0, 1_000);
        sendChunk(frame, frame.length, 0, frame.length);
        assertThat(results).containsExactly(0, frame.length);
        assertThat(assembler.rejected()).isEqualTo(1);
    }

    @Test
    void theBufferGrowsWithTheBytesThatArriveNotWithTheClaimAndShrinksAfterUse()
    {
        // a first chunk claiming a frame of the largest size, then nothing more: no buffer of that size
        final byte[] claim = bigFrame(100);
        sendChunk(claim, 1 << 20, 0, 100);
        assertThat(results).containsExactly(0);
        assertThat(assembler.capacity()).isLessThan(8 * 1024);
        assembler.reset();

        // a real large frame: the buffer grows to hold it, and is let go once the frame was read
        final byte[] frame = bigFrame(300_000);
        for (int offset = 0; offset < frame.length; offset += 16 * 1024)
        {
            sendChunk(frame, frame.length, offset, Math.min(16 * 1024, frame.length - offset));
        }
        assertThat(payloads).hasSize(1);
        assertThat(assembler.capacity()).isGreaterThanOrEqualTo(frame.length);
        assembler.shrink();
        assertThat(assembler.capacity()).isLessThanOrEqualTo(ChunkAssembler.KEPT_BYTES);

        // not while a frame is in progress
        sendChunk(frame, frame.length, 0, 100_000);
        sendChunk(frame, frame.length, 100_000, 100_000);
        final int held = assembler.capacity();
        assembler.shrink();
        assertThat(assembler.capacity()).isEqualTo(held);
    }
}
