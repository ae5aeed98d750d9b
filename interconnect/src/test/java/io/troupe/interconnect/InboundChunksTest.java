package io.troupe.interconnect;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.memquota.Account;
import io.troupe.memquota.MemoryQuotaConfig;
import io.troupe.memquota.MemoryQuotaTracker;
import io.troupe.memquota.Participant;
import io.troupe.serialization.wire.ChunkAssembler;
import io.troupe.serialization.wire.ChunkFrame;
import io.troupe.serialization.wire.EnvelopeFrame;
import io.troupe.serialization.wire.FrameDecoder;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.serialization.wire.FrameHandler;
import io.troupe.serialization.wire.FrameResult;
import io.troupe.serialization.wire.WireFormat;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A peer's chunk reassembly charged to its memory-quota account: the charge follows the buffer, a frame in
 * progress is data of its first chunk's age, and when the quota cannot hold it (or reclaims it) the frame is
 * dropped, which the caller answers by ending the session.
 */
class InboundChunksTest
{
    private static final int SLICE = 16 * 1024;
    private final AtomicLong now = new AtomicLong(1_000_000L);
    private final FrameEncoder encoder = new FrameEncoder();
    private final List<Integer> results = new ArrayList<>();
    private MemoryQuotaTracker tracker;
    private InboundChunks chunks;
    private final FrameDecoder decoder = new FrameDecoder(new FrameHandler()
    {
        @Override
        public void onEnvelope(final EnvelopeFrame frame)
        {
        }

        @Override
        public void onChunk(final ChunkFrame frame)
        {
            results.add(chunks.onChunk(frame));
        }
    });

    @AfterEach
    void closeTracker()
    {
        if (tracker != null)
        {
            tracker.close();
        }
    }

    private Account accountUnder(final long maxBytes)
    {
        tracker = MemoryQuotaTracker.create(MemoryQuotaConfig.of(maxBytes, maxBytes / 2), now::get);
        return tracker.newAccount();
    }

    private static byte[] bigFrame(final int payloadLength)
    {
        final byte[] frame = new byte[WireFormat.envelopeLength(payloadLength)];
        new FrameEncoder().encodeEnvelope(new UnsafeBuffer(frame), 0, new Envelope(ActorId.of(1, 2, 3), ActorId.NONE,
            4096 << 16, 0, 0L, "x", null), 0, 0L, 1, new UnsafeBuffer(new byte[payloadLength]), 0, payloadLength);
        return frame;
    }

    /** Feeds the frame's chunks from {@code from} up to {@code to} (exclusive); returns the last result. */
    private int feed(final byte[] frame, final int from, final int to)
    {
        int last = 0;
        for (int offset = from; offset < to; offset += SLICE)
        {
            final int length = Math.min(SLICE, frame.length - offset);
            final UnsafeBuffer out = new UnsafeBuffer(new byte[WireFormat.CHUNK_OVERHEAD + length]);
            final int chunkLength = encoder.encodeChunk(out, 0, frame.length, offset, new UnsafeBuffer(frame), offset,
                length);
            assertThat(decoder.decode(out, 0, chunkLength)).isEqualTo(FrameResult.OK);
            last = results.get(results.size() - 1);
        }
        return last;
    }

    @Test
    void theChargeFollowsTheBufferAndALargeOneIsGivenBackAfterTheFrameIsRead()
    {
        chunks = new InboundChunks(8 << 20, accountUnder(64L << 20), now::get);
        final long idle = tracker.usedBytes();
        assertThat(chunks.chargedBytes()).isPositive().isLessThanOrEqualTo(ChunkAssembler.KEPT_BYTES);
        assertThat(chunks.oldestDataTimeNs()).isEqualTo(Participant.NO_DATA);

        final byte[] frame = bigFrame(1 << 20);
        assertThat(feed(frame, 0, 512 * 1024)).isZero();
        assertThat(chunks.oldestDataTimeNs()).as("a frame in progress is data of its first chunk's age")
            .isEqualTo(1_000_000L);
        assertThat(chunks.chargedBytes()).isGreaterThanOrEqualTo(512 * 1024);
        assertThat(tracker.usedBytes()).isGreaterThanOrEqualTo(512 * 1024);

        now.addAndGet(5_000);
        assertThat(feed(frame, 512 * 1024, frame.length)).isEqualTo(frame.length);
        assertThat(chunks.oldestDataTimeNs()).isEqualTo(Participant.NO_DATA);
        chunks.afterRead();
        assertThat(chunks.chargedBytes()).isLessThanOrEqualTo(ChunkAssembler.KEPT_BYTES);
        assertThat(tracker.usedBytes()).as("back to what an idle assembler holds")
            .isLessThanOrEqualTo(idle + 16 * 1024); // the participation's local cache
        assertThat(chunks.framesDropped()).isZero();
    }

    @Test
    void aFrameTheQuotaCannotHoldIsDroppedAndTheNextOneThatFitsAssembles()
    {
        chunks = new InboundChunks(8 << 20, accountUnder(1 << 20), now::get);

        final int result = feed(bigFrame(4 << 20), 0, 4 << 20);
        assertThat(results).contains(InboundChunks.NO_MEMORY);
        assertThat(result).as("the chunks after the drop no longer continue a frame").isNotPositive();
        assertThat(chunks.framesDropped()).isEqualTo(1);
        assertThat(tracker.usedBytes()).as("the dropped frame's memory went back").isLessThan(256 * 1024);

        results.clear();
        final byte[] small = bigFrame(256 * 1024);
        assertThat(feed(small, 0, small.length)).isEqualTo(small.length);
        assertThat(results).doesNotContain(InboundChunks.NO_MEMORY);
    }

    @Test
    void aReclaimedFrameIsDroppedAtTheAgentsNextLookAndTheAssemblerJoinsTheQuotaAgain()
    {
        final Account account = accountUnder(64L << 20);
        chunks = new InboundChunks(8 << 20, account, now::get);
        final byte[] frame = bigFrame(1 << 20);
        feed(frame, 0, 256 * 1024);

        chunks.reclaim(Long.MAX_VALUE, 1);
        assertThat(chunks.reclaimRequested()).isTrue();
        assertThat(chunks.onReclaimed()).as("a frame was in progress: end the session").isTrue();
        assertThat(chunks.reclaimRequested()).isFalse();
        assertThat(chunks.framesDropped()).isEqualTo(1);

        results.clear();
        final byte[] next = bigFrame(300 * 1024);
        assertThat(feed(next, 0, next.length)).isEqualTo(next.length);
        assertThat(chunks.chargedBytes()).as("charged under the new participation").isGreaterThanOrEqualTo(300 * 1024);

        chunks.afterRead();
        chunks.reclaim(Long.MAX_VALUE, 1);
        assertThat(chunks.onReclaimed()).as("nothing in progress: the session stays").isFalse();
    }

    @Test
    void aResetSessionGivesTheFrameInProgressBack()
    {
        chunks = new InboundChunks(8 << 20, accountUnder(64L << 20), now::get);
        feed(bigFrame(2 << 20), 0, 1 << 20);
        assertThat(chunks.chargedBytes()).isGreaterThanOrEqualTo(1 << 20);

        chunks.reset();
        assertThat(chunks.chargedBytes()).isLessThanOrEqualTo(ChunkAssembler.KEPT_BYTES);
        assertThat(chunks.oldestDataTimeNs()).isEqualTo(Participant.NO_DATA);
    }
}
