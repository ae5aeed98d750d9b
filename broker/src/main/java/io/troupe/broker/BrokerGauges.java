package io.troupe.broker;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A broker's figures as any thread may read them: the broker's own thread writes them after every batch of events
 * (ordered stores, no lock), a reader such as the node's counters thread reads them whenever it likes and sees each
 * figure as of some recent batch. A broker started through a {@link BrokerDirectory} has one.
 */
public final class BrokerGauges
{
    private static final int ASK_LENGTH = 0;
    private static final int ASK_R_LENGTH = 1;
    private static final int ASK_OLDEST_SENT_NS = 2;
    private static final int ASK_R_OLDEST_SENT_NS = 3;
    private static final int ASK_MATCHES = 4;
    private static final int ASK_R_MATCHES = 5;
    private static final int ASK_DROPS = 6;
    private static final int ASK_R_DROPS = 7;
    private static final int ASK_LAST_SOJOURN_NS = 8;
    private static final int ASK_R_LAST_SOJOURN_NS = 9;
    private static final int CANCELS = 10;
    private static final int ALARMS_RAISED = 11;
    private static final int RECONFIGURATIONS = 12;
    private static final int PURGED = 13;
    private static final int SIZE = 14;

    private final AtomicLongArray values = new AtomicLongArray(SIZE);
    private volatile BrokerSpec spec;

    BrokerGauges(final BrokerSpec spec)
    {
        this.spec = spec;
        values.set(ASK_OLDEST_SENT_NS, Long.MIN_VALUE);
        values.set(ASK_R_OLDEST_SENT_NS, Long.MIN_VALUE);
    }

    /** The broker's thread, after a batch. */
    void publish(final BrokerMetrics metrics, final long cancels, final int alarmsRaised, final long purged)
    {
        final QueueMetrics ask = metrics.ask();
        final QueueMetrics askR = metrics.askR();
        values.lazySet(ASK_LENGTH, ask.length());
        values.lazySet(ASK_R_LENGTH, askR.length());
        values.lazySet(ASK_OLDEST_SENT_NS, ask.length() == 0 ? Long.MIN_VALUE : ask.headSentNs);
        values.lazySet(ASK_R_OLDEST_SENT_NS, askR.length() == 0 ? Long.MIN_VALUE : askR.headSentNs);
        values.lazySet(ASK_MATCHES, ask.matches());
        values.lazySet(ASK_R_MATCHES, askR.matches());
        values.lazySet(ASK_DROPS, ask.drops());
        values.lazySet(ASK_R_DROPS, askR.drops());
        values.lazySet(ASK_LAST_SOJOURN_NS, ask.lastSojournNs());
        values.lazySet(ASK_R_LAST_SOJOURN_NS, askR.lastSojournNs());
        values.lazySet(CANCELS, cancels);
        values.lazySet(ALARMS_RAISED, alarmsRaised);
        values.lazySet(PURGED, purged);
    }

    /** The broker's thread, when a {@link Reconfigure} has been applied. */
    void reconfigured(final BrokerSpec applied)
    {
        spec = applied;
        values.lazySet(RECONFIGURATIONS, values.get(RECONFIGURATIONS) + 1);
    }

    /**
     * The configuration the broker runs with now (after the last {@link Reconfigure} it applied).
     *
     * @return the spec.
     */
    public BrokerSpec spec()
    {
        return spec;
    }

    /**
     * Requests waiting on one side.
     *
     * @param side the side.
     * @return the queue's length.
     */
    public long length(final Side side)
    {
        return values.get(side == Side.ASK ? ASK_LENGTH : ASK_R_LENGTH);
    }

    /**
     * How long the oldest request waiting on one side has waited, by the broker's clock ({@code System.nanoTime()}
     * for a broker started with the default clock).
     *
     * @param side  the side.
     * @param nowNs the time now, on that clock.
     * @return nanoseconds, 0 when nothing waits.
     */
    public long headSojournNs(final Side side, final long nowNs)
    {
        final long sentNs = values.get(side == Side.ASK ? ASK_OLDEST_SENT_NS : ASK_R_OLDEST_SENT_NS);
        return sentNs == Long.MIN_VALUE ? 0 : Math.max(0, nowNs - sentNs);
    }

    /**
     * The sojourn of the last request that left one side (matched or dropped).
     *
     * @param side the side.
     * @return nanoseconds.
     */
    public long lastSojournNs(final Side side)
    {
        return values.get(side == Side.ASK ? ASK_LAST_SOJOURN_NS : ASK_R_LAST_SOJOURN_NS);
    }

    /**
     * Requests of one side that got {@link Go}.
     *
     * @param side the side.
     * @return the count since the broker started.
     */
    public long matches(final Side side)
    {
        return values.get(side == Side.ASK ? ASK_MATCHES : ASK_R_MATCHES);
    }

    /**
     * Requests of one side that got {@link Drop} (policy, full queue, non-blocking with nobody waiting).
     *
     * @param side the side.
     * @return the count since the broker started.
     */
    public long drops(final Side side)
    {
        return values.get(side == Side.ASK ? ASK_DROPS : ASK_R_DROPS);
    }

    /**
     * Requests cancelled by their askers.
     *
     * @return the count.
     */
    public long cancels()
    {
        return values.get(CANCELS);
    }

    /**
     * Queued requests forgotten because their node disconnected.
     *
     * @return the count.
     */
    public long purged()
    {
        return values.get(PURGED);
    }

    /**
     * Alarms raised now.
     *
     * @return how many of the broker's alarms are up.
     */
    public long alarmsRaised()
    {
        return values.get(ALARMS_RAISED);
    }

    /**
     * Configurations applied since the broker started.
     *
     * @return the count.
     */
    public long reconfigurations()
    {
        return values.get(RECONFIGURATIONS);
    }
}
