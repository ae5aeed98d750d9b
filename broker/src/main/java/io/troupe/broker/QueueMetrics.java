package io.troupe.broker;

/**
 * What a broker knows about one of its queues after a batch, for meters. Written by the broker's actor, read
 * by its meters on the same thread.
 */
public final class QueueMetrics
{
    int length;
    long lastSojournNs;
    long lastRelativeNs;
    long headSentNs = Long.MIN_VALUE;
    long matches;
    long drops;

    /**
     * A view with nothing measured yet (brokers and tests fill it).
     */
    public QueueMetrics()
    {
    }

    /**
     * Requests queued now.
     *
     * @return the count.
     */
    public int length()
    {
        return length;
    }

    /**
     * The sojourn time of the last request that left the queue matched or dropped.
     *
     * @return nanoseconds (0 before the first).
     */
    public long lastSojournNs()
    {
        return lastSojournNs;
    }

    /**
     * The relative time of the last match of a request of this queue (see {@link BrokerRequest}).
     *
     * @return nanoseconds (0 before the first).
     */
    public long lastRelativeNs()
    {
        return lastRelativeNs;
    }

    /**
     * How long the oldest queued request has waited by {@code nowNs}.
     *
     * @param nowNs the broker's clock.
     * @return nanoseconds; 0 if the queue is empty.
     */
    public long headSojournNs(final long nowNs)
    {
        return length == 0 || headSentNs == Long.MIN_VALUE ? 0 : Math.max(0, nowNs - headSentNs);
    }

    /**
     * Matches so far.
     *
     * @return the count.
     */
    public long matches()
    {
        return matches;
    }

    /**
     * Drops so far (by the queue's policy, a full queue or a non-blocking ask that found no match).
     *
     * @return the count.
     */
    public long drops()
    {
        return drops;
    }

    /**
     * Sets every value (for brokers and for tests of meters).
     *
     * @param length         requests queued.
     * @param lastSojournNs  sojourn of the last request that left.
     * @param lastRelativeNs relative time of the last match.
     * @param headSentNs     sent time of the oldest queued request ({@code Long.MIN_VALUE} if none).
     * @param matches        matches so far.
     * @param drops          drops so far.
     * @return this.
     */
    public QueueMetrics set(final int length, final long lastSojournNs, final long lastRelativeNs,
        final long headSentNs, final long matches, final long drops)
    {
        this.length = length;
        this.lastSojournNs = lastSojournNs;
        this.lastRelativeNs = lastRelativeNs;
        this.headSentNs = headSentNs;
        this.matches = matches;
        this.drops = drops;
        return this;
    }
}
