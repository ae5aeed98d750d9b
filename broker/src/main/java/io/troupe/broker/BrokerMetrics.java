package io.troupe.broker;

/**
 * What a broker (or regulator) tells its meters after each batch of messages: the delay of its own message
 * queue and the state of both queues. Owned by the broker's actor.
 */
public final class BrokerMetrics
{
    private final QueueMetrics ask = new QueueMetrics();
    private final QueueMetrics askR = new QueueMetrics();
    private long messageQueueSojournNs;

    /**
     * Metrics with nothing measured yet (brokers and tests fill them).
     */
    public BrokerMetrics()
    {
    }

    /**
     * The {@code ask} queue (clients; for a regulator, the regulated requests).
     *
     * @return the view.
     */
    public QueueMetrics ask()
    {
        return ask;
    }

    /**
     * The {@code askR} queue (workers; for a regulator, the valve's holders: length is the valve's size).
     *
     * @return the view.
     */
    public QueueMetrics askR()
    {
        return askR;
    }

    /**
     * How long the last message the broker handled waited in its mailbox (the broker's own load).
     *
     * @return nanoseconds.
     */
    public long messageQueueSojournNs()
    {
        return messageQueueSojournNs;
    }

    /**
     * Sets the message-queue sojourn.
     *
     * @param nanos nanoseconds.
     * @return this.
     */
    public BrokerMetrics messageQueueSojournNs(final long nanos)
    {
        this.messageQueueSojournNs = nanos;
        return this;
    }
}
