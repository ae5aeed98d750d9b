package io.troupe.interconnect.scheduler;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The peer scheduler's counts: written by the scheduler's thread only (ordered stores, no read-modify-write on a
 * shared line), read by any thread (the node's counters file, tests).
 */
public final class SchedulerCounters
{
    /** What is counted; gauges are marked. */
    public enum Counter
    {
        /** Gauge: senders waiting for an offer. */
        WAITING_SENDERS,
        /** Gauge: closed channels over all peers (requests and notifications in flight). */
        IN_FLIGHT,
        /** The highest {@link #IN_FLIGHT} has been (never above {@link SchedulerConfig#maxInFlight}). */
        IN_FLIGHT_PEAK,
        /** Offers made to senders. */
        OFFERS,
        /** Requests sent. */
        REQUESTS,
        /** Notifications sent. */
        NOTIFICATIONS,
        /** Responses delivered to receivers. */
        RESPONSES,
        /** Requests failed by their timeout. */
        TIMEOUTS,
        /** Requests failed because their peer disconnected. */
        DISCONNECT_FAILURES,
        /** Requests failed because the peer reported them undelivered for another reason. */
        UNDELIVERED_FAILURES,
        /** Responses to a request that was no longer waiting (after its timeout, a duplicate): dropped. */
        LATE_RESPONSES,
        /** Responses from another node than the request's, or with no request id: dropped. */
        STRAY_RESPONSES,
        /** Requests cancelled ({@link RequestFailure#WITHDRAWN}). */
        CANCELLED,
        /** Senders discarded: scheduled after the stop or beyond the waiting limit. */
        SENDERS_DISCARDED,
        /** Sender or receiver callbacks that threw (the scheduler goes on). */
        CALLBACK_ERRORS
    }

    private static final Counter[] COUNTERS = Counter.values();
    private final AtomicLongArray values = new AtomicLongArray(COUNTERS.length);
    private final ConcurrentHashMap<Integer, AtomicLong> inFlightByPeer = new ConcurrentHashMap<>();

    /** Counts that all start at zero. */
    public SchedulerCounters()
    {
        // every count starts at zero
    }

    /**
     * A counter's value now.
     *
     * @param counter which.
     * @return its value.
     */
    public long get(final Counter counter)
    {
        return values.get(counter.ordinal());
    }

    /**
     * Requests and notifications in flight per connected peer.
     *
     * @return node id to count, a copy.
     */
    public Map<Integer, Long> inFlightByPeer()
    {
        final Map<Integer, Long> copy = new TreeMap<>();
        inFlightByPeer.forEach((node, count) -> copy.put(node, count.get()));
        return copy;
    }

    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder("SchedulerCounters{");
        for (final Counter counter : COUNTERS)
        {
            text.append(counter.name().toLowerCase(Locale.ROOT)).append('=').append(get(counter)).append(' ');
        }
        return text.append("in_flight_by_peer=").append(inFlightByPeer()).append('}').toString();
    }

    void add(final Counter counter, final long delta)
    {
        final int i = counter.ordinal();
        values.lazySet(i, values.get(i) + delta);
    }

    void set(final Counter counter, final long value)
    {
        values.lazySet(counter.ordinal(), value);
    }

    /** The gauge of a peer that connected. */
    AtomicLong peerGauge(final int nodeId)
    {
        final AtomicLong gauge = new AtomicLong();
        inFlightByPeer.put(nodeId, gauge);
        return gauge;
    }

    void peerGone(final int nodeId)
    {
        inFlightByPeer.remove(nodeId);
    }
}
