package io.troupe.interconnect.scheduler;

import io.troupe.memquota.CounterDescriptor;

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
    /**
     * What is counted, each declared once (type ids 950..999, names {@code scheduler_} and the constant's name in lower
     * case); read with {@link #get}.
     */
    public enum Counter implements CounterDescriptor.Of<SchedulerCounters>
    {
        /** Gauge: senders waiting for an offer. */
        WAITING_SENDERS(950, Kind.GAUGE, "senders waiting for an offer of open channels"),
        /** Gauge: closed channels over all peers (requests and notifications in flight). */
        IN_FLIGHT(951, Kind.GAUGE, "requests and notifications in flight to all peers (closed channels)"),
        /** The highest {@link #IN_FLIGHT} has been (never above {@link SchedulerConfig#maxInFlight}). */
        IN_FLIGHT_PEAK(952, Kind.GAUGE, "the most ever in flight at once (never above troupe.scheduler.max-in-flight)"),
        /** Offers made to senders. */
        OFFERS(953, Kind.COUNT, "offers of open channels made to senders"),
        /** Requests sent. */
        REQUESTS(954, Kind.COUNT, "requests sent through offers"),
        /** Notifications sent. */
        NOTIFICATIONS(955, Kind.COUNT, "notifications sent through offers"),
        /** Responses delivered to receivers. */
        RESPONSES(956, Kind.COUNT, "responses delivered to receivers"),
        /** Requests failed by their timeout. */
        TIMEOUTS(957, Kind.COUNT, "requests failed by their timeout"),
        /** Requests failed because their peer disconnected. */
        DISCONNECT_FAILURES(958, Kind.COUNT, "requests failed because their peer disconnected"),
        /** Requests failed because the peer reported them undelivered for another reason. */
        UNDELIVERED_FAILURES(959, Kind.COUNT, "requests the peer reported undelivered for another reason"),
        /** Responses to a request that was no longer waiting (after its timeout, a duplicate): dropped. */
        LATE_RESPONSES(960, Kind.COUNT, "responses after their request ended (timed out, answered twice): dropped"),
        /** Responses from another node than the request's, or with no request id: dropped. */
        STRAY_RESPONSES(961, Kind.COUNT,
            "responses from another node than the request's, or with no request id: dropped"),
        /** Requests cancelled ({@link RequestFailure#WITHDRAWN}). */
        CANCELLED(962, Kind.COUNT, "requests cancelled (failed WITHDRAWN)"),
        /** Senders discarded: scheduled after the stop or beyond the waiting limit. */
        SENDERS_DISCARDED(963, Kind.COUNT, "senders discarded: after the stop or beyond max-waiting-senders"),
        /** Sender or receiver callbacks that threw (the scheduler goes on). */
        CALLBACK_ERRORS(964, Kind.COUNT, "sender or receiver callbacks that threw");

        private final Declaration<SchedulerCounters> declaration;

        Counter(final int typeId, final Kind kind, final String doc)
        {
            this.declaration = new Declaration<>(typeId, "scheduler_" + name().toLowerCase(Locale.ROOT), kind, "", doc,
                counters -> counters.get(this));
        }

        @Override
        public Declaration<SchedulerCounters> declaration()
        {
            return declaration;
        }
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
