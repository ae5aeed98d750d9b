package io.troupe.interconnect;

import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;

/**
 * Free {@link OutboundFrame}s of one interconnect: senders on any thread take one, the agent (or a collapsing
 * queue's drop handler) gives it back. Bounded and lock-free; when it is empty a sender allocates a new frame,
 * and when it is full a returned frame is left to the GC. A frame whose buffer grew past
 * {@link #MAX_POOLED_BYTES} (a large event) is not kept, so the pool never pins large arrays.
 */
final class OutboundFramePool
{
    /** Largest frame buffer the pool keeps. */
    static final int MAX_POOLED_BYTES = 4096;

    private final ManyToManyConcurrentArrayQueue<OutboundFrame> free;

    /**
     * @param capacity how many free frames to keep at most (rounded up to a power of two).
     */
    OutboundFramePool(final int capacity)
    {
        this.free = new ManyToManyConcurrentArrayQueue<>(capacity);
    }

    /**
     * A frame to fill. Any thread.
     *
     * @return a free frame, or a new one.
     */
    OutboundFrame acquire()
    {
        final OutboundFrame frame = free.poll();
        return frame != null ? frame : new OutboundFrame();
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
        if (frame.bytes.length <= MAX_POOLED_BYTES)
        {
            free.offer(frame);
        }
    }

    /**
     * Free frames held.
     *
     * @return the count.
     */
    int size()
    {
        return free.size();
    }
}
