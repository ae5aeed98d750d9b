package io.troupe.broker;

/**
 * One of a broker's two queues: {@code ask} (clients; for a regulator, the regulated requests) or
 * {@code askR} (workers; for a regulator, the valve's holders).
 */
public enum Side
{
    /** The {@code ask} queue: requests of {@code ask}, matched with {@code askR} requests. */
    ASK,
    /** The {@code askR} queue: requests of {@code askR}, matched with {@code ask} requests. */
    ASK_R;

    /**
     * The metrics of this side's queue.
     *
     * @param metrics the broker's metrics.
     * @return {@link BrokerMetrics#ask()} or {@link BrokerMetrics#askR()}.
     */
    public QueueMetrics queue(final BrokerMetrics metrics)
    {
        return this == ASK ? metrics.ask() : metrics.askR();
    }

    /**
     * The queue a request of this side is matched against.
     *
     * @return the other side.
     */
    public Side other()
    {
        return this == ASK ? ASK_R : ASK;
    }
}
