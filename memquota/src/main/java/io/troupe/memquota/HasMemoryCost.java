package io.troupe.memquota;

/** An element that knows how many bytes it costs while it sits in a {@link MemoryQueue}. */
@FunctionalInterface
public interface HasMemoryCost
{
    /**
     * Nominal bytes; need not be exact, but should not change while the element is queued.
     *
     * @return the cost, at least 0.
     */
    long memoryCost();
}
