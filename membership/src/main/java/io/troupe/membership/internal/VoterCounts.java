package io.troupe.membership.internal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What this voter's membership service and authenticator have done: each figure counted by one thread alone (the
 * service's or the consensus module's; an ordered write each, no read-modify-write across threads), read by the
 * node's counters thread. A follower counts what it applies as the leader does, because it applies the same log.
 */
public final class VoterCounts
{
    /** The figures. */
    public enum Figure
    {
        /** Incarnations recorded as joining. */
        JOINS,
        /** Incarnations that left gracefully. */
        LEAVES,
        /** Incarnations downed because their lease lapsed. */
        LEASE_DOWNS,
        /** Incarnations downed by an operator, or replaced by a restart of the same node. */
        OTHER_DOWNS,
        /** Lease renewals accepted. */
        RENEWALS,
        /** Requests refused (id taken, ended incarnation, unknown member, bad field, full). */
        REFUSALS,
        /** Messages that were not a request of this protocol, or were cut short; dropped. */
        MALFORMED,
        /** Messages to a node dropped because its egress was full or gone (it asks again). */
        EGRESS_DROPPED,
        /** Sessions that proved the cluster secret (authenticator, on the leader). */
        SESSIONS_ADMITTED,
        /** Sessions rejected: malformed credentials, another cluster id, a wrong proof, too slow or too many. */
        SESSIONS_REJECTED,
        /** Archive control sessions that proved the cluster secret (the voters' own, for log replication). */
        ARCHIVE_SESSIONS_ADMITTED,
        /** Archive control sessions rejected, for the same reasons as the service's. */
        ARCHIVE_SESSIONS_REJECTED,
        /** Sessions that proved the cluster secret but were rejected for listing other voters (in either count). */
        VOTER_LISTS_DIFFER,
        /** Requests dropped because they did not carry their session's tag, or were replayed. */
        REQUESTS_REJECTED
    }

    private final AtomicLongArray figures = new AtomicLongArray(Figure.values().length);

    /**
     * All figures at 0.
     */
    public VoterCounts()
    {
    }

    void add(final Figure figure, final long delta)
    {
        final int i = figure.ordinal();
        figures.lazySet(i, figures.get(i) + delta);
    }

    void increment(final Figure figure)
    {
        add(figure, 1);
    }

    /**
     * A figure.
     *
     * @param figure which.
     * @return its count since the voter started.
     */
    public long get(final Figure figure)
    {
        return figures.get(figure.ordinal());
    }
}
