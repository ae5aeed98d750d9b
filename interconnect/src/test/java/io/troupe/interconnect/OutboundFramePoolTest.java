package io.troupe.interconnect;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The pool of outbound frames: what it keeps, and that a full queue's worth of small frames is reused. */
class OutboundFramePoolTest
{
    private static final UnsafeBuffer BUFFER = new UnsafeBuffer();

    private static List<OutboundFrame> acquire(final OutboundFramePool pool, final int count, final int frameLength)
    {
        final List<OutboundFrame> frames = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            final OutboundFrame frame = pool.acquire();
            frame.wrapForEncoding(frameLength, BUFFER);
            frames.add(frame);
        }
        return frames;
    }

    private static Set<OutboundFrame> identities(final List<OutboundFrame> frames)
    {
        final Set<OutboundFrame> set = Collections.newSetFromMap(new IdentityHashMap<>());
        set.addAll(frames);
        return set;
    }

    @Test
    void aFullQueuesWorthOfSmallFramesComesBackAndIsReusedWithoutNewOnes()
    {
        final int queueCapacity = 65536;
        final OutboundFramePool pool = new OutboundFramePool(queueCapacity);
        final List<OutboundFrame> first = acquire(pool, queueCapacity, 100);
        first.forEach(pool::release);
        assertThat(pool.size()).isEqualTo(queueCapacity);

        final List<OutboundFrame> second = acquire(pool, queueCapacity, 100);
        assertThat(identities(second)).isEqualTo(identities(first));
        assertThat(pool.size()).isZero();
        // the reused frames kept their buffers: no byte array was made for the second round
        assertThat(second).allSatisfy(frame -> assertThat(frame.bytes.length).isEqualTo(100));
    }

    @Test
    void releasedFramesAreCleared()
    {
        final OutboundFramePool pool = new OutboundFramePool(16);
        final OutboundFrame frame = pool.acquire();
        frame.wrapForEncoding(40, BUFFER);
        frame.describe(null, 7, null, 3);
        pool.release(frame);
        final OutboundFrame again = pool.acquire();
        assertThat(again).isSameAs(frame);
        assertThat(again.length).isZero();
        assertThat(again.cost).isZero();
        assertThat(again.tracked).isNull();
        assertThat(again.account).isNull();
    }

    @Test
    void largerFramesAreKeptOnlyUpToTheLargeTierAndHugeOnesNever()
    {
        final OutboundFramePool pool = new OutboundFramePool(64);
        final List<OutboundFrame> large = acquire(pool, OutboundFramePool.LARGE_FRAMES + 100,
            OutboundFramePool.SMALL_FRAME_BYTES + 1);
        large.forEach(pool::release);
        assertThat(pool.size()).isEqualTo(OutboundFramePool.LARGE_FRAMES);

        final OutboundFramePool other = new OutboundFramePool(64);
        final OutboundFrame huge = other.acquire();
        huge.wrapForEncoding(OutboundFramePool.MAX_POOLED_BYTES + 1, BUFFER);
        other.release(huge);
        assertThat(other.size()).isZero();
    }

    @Test
    void theSmallTierIsBoundedWhateverTheQueueCapacity()
    {
        final OutboundFramePool pool = new OutboundFramePool(1 << 24);
        final List<OutboundFrame> frames = acquire(pool, OutboundFramePool.MAX_SMALL_FRAMES + 10, 8);
        frames.forEach(pool::release);
        assertThat(pool.size()).isEqualTo(OutboundFramePool.MAX_SMALL_FRAMES);
    }
}
