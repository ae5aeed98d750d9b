package io.troupe.broker;

/**
 * Where a queue policy puts the requests it drops: the broker answers each with a {@code Drop} carrying its
 * sojourn time and counts it.
 */
@FunctionalInterface
public interface DropSink
{
    /**
     * A request was dropped from its queue.
     *
     * @param request the request, no longer queued.
     * @param nowNs   the broker's clock when it was dropped.
     */
    void drop(BrokerRequest request, long nowNs);
}
