package io.troupe.interconnect;

import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;

/**
 * Free {@link OutboundFrame}s of one interconnect: senders on any thread take one, the agent (or a collapsing
 * queue's drop handler) gives it back. Bounded and lock-free; when it is empty a sender allocates a new frame,
 * and when it is full a returned frame is left to the GC.
 *
 * <p>Two tiers, so that a saturated stream of small events allocates nothing while the pool never pins much
 * memory: frames whose buffer is at most {@value #SMALL_FRAME_BYTES} bytes are kept up to the small tier's
 * capacity (as many as an outbound queue holds, so a full queue's frames all come back), larger ones up to
 * {@value #MAX_POOLED_BYTES} bytes only up to {@value #LARGE_FRAMES}, and a frame whose buffer grew past
 * {@value #MAX_POOLED_BYTES} bytes (a large event) is not kept. At 65,536 small frames the pool holds at most
 * about 20 MiB, and only after a burst has made that many.
 */
final class OutboundFramePool
{
    /** Largest frame buffer the pool keeps. */
    static final int MAX_POOLED_BYTES = 4096;
    /** Largest frame buffer the small tier keeps. */
    static final int SMALL_FRAME_BYTES = 256;
    /** Frames with a buffer above {@link #SMALL_FRAME_BYTES} kept at most. */
    static final int LARGE_FRAMES = 1024;
    /** The small tier's largest capacity. */
    static final int MAX_SMALL_FRAMES = 65536;

    private final ManyToManyConcurrentArrayQueue<OutboundFrame> small;
    private final ManyToManyConcurrentArrayQueue<OutboundFrame> large;

    /**
     * @param smallCapacity how many free small frames to keep at most (rounded up to a power of two, at most
     *                      {@value #MAX_SMALL_FRAMES}).
     */
    OutboundFramePool(final int smallCapacity)
    {
        this.small = new ManyToManyConcurrentArrayQueue<>(Math.max(2, Math.min(smallCapacity, MAX_SMALL_FRAMES)));
        this.large = new ManyToManyConcurrentArrayQueue<>(LARGE_FRAMES);
    }

    /**
     * A frame to fill. Any thread.
     *
     * @return a free frame, or a new one.
     */
    OutboundFrame acquire()
    {
        OutboundFrame frame = small.poll();
        if (frame == null && (frame = large.poll()) == null)
        {
            frame = new OutboundFrame();
        }
        return frame;
    }

    /**
     * Gives a frame back once nothing refers to it any more: its bytes are copied out or it was dropped. Any
     * thread; exactly once per {@link #acquire}.
     *
     * @param frame the frame.
     */
    void release(final OutboundFrame frame)
    {
        frame.clear();
        final int capacity = frame.bytes.length;
        if (capacity <= SMALL_FRAME_BYTES)
        {
            small.offer(frame);
        }
        else if (capacity <= MAX_POOLED_BYTES)
        {
            large.offer(frame);
        }
    }

    /**
     * Free frames held.
     *
     * @return the count.
     */
    int size()
    {
        return small.size() + large.size();
    }
}
