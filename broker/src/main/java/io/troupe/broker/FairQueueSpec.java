package io.troupe.broker;

/**
 * A queue that shares matches fairly between groups of requests: one inner queue per key, created when a
 * request with a new key arrives and removed when it empties, served round robin (each match takes from the
 * next inner queue in turn, a new key joining at the end of the turn). Each inner queue applies its own
 * policy to its own requests. Immutable.
 *
 * @param inner the policy of each inner queue.
 * @param key   what requests are grouped by.
 */
public record FairQueueSpec(QueueSpec inner, FairKey key) implements QueueSpec
{
    /**
     * Validates the arguments.
     *
     * @param inner the policy of each inner queue.
     * @param key   what requests are grouped by.
     * @throws IllegalArgumentException if an argument is null.
     */
    public FairQueueSpec
    {
        SpecChecks.notNull("FairQueueSpec", "inner", inner);
        SpecChecks.notNull("FairQueueSpec", "key", key);
    }

    @Override
    public RequestQueue newQueue()
    {
        return new FairQueue(this);
    }
}
