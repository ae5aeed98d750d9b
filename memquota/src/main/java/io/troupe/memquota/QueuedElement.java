package io.troupe.memquota;

/**
 * An element that keeps its own enqueue stamp, so that a {@link MemoryQueue} can hold it as it is instead of
 * wrapping it in an entry: one allocation less per send. Its {@link #memoryCost()} must not change while it is
 * queued (the queue releases what it claimed by asking again), and it may be in one queue at a time.
 */
public interface QueuedElement extends HasMemoryCost
{
    /**
     * Records when the element was queued. Called by the queue.
     *
     * @param nowNs the queue's clock.
     */
    void enqueuedAt(long nowNs);

    /**
     * When the element was queued.
     *
     * @return the stamp given to {@link #enqueuedAt}.
     */
    long enqueuedNs();
}
