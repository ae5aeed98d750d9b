package io.troupe.membership.internal;

import java.util.Arrays;

/**
 * A member's side of its lease, on its own monotonic clock: when to renew, and when it must stop because the
 * membership service may already have downed it. The service measures a lease from the log time of the renewal it
 * accepted, which comes after the member sent it; the member measures from the time it sent the newest renewal
 * that was accepted. So the member's deadline falls before the service's, by at least the safety margin (which
 * covers the two clocks running at slightly different rates and a pause between reading the clock and sending):
 * a member that lost contact stops before the majority can have downed it. Owned by the membership thread.
 */
final class LeaseKeeper
{
    /** How many renewals may be outstanding; older ones are forgotten (their replies then extend nothing). */
    private static final int TRACKED = 16;

    private final long leaseNs;
    private final long renewIntervalNs;
    private final long marginNs;
    private final long[] sentCorrelation = new long[TRACKED];
    private final long[] sentAtNs = new long[TRACKED];
    private long lastAcceptedSendNs;
    private long nextRenewNs;
    private boolean granted;

    /**
     * A keeper for one lease.
     *
     * @param leaseNs         the lease length the service applies.
     * @param renewIntervalNs how often to renew.
     * @param marginNs        how long before the service's deadline the member stops.
     */
    LeaseKeeper(final long leaseNs, final long renewIntervalNs, final long marginNs)
    {
        if (renewIntervalNs <= 0 || marginNs <= 0 || renewIntervalNs + marginNs >= leaseNs)
        {
            throw new IllegalArgumentException("the renew interval (" + renewIntervalNs / 1_000_000 +
                " ms) and the safety margin (" + marginNs / 1_000_000 + " ms) must be positive and add up to less " +
                "than the lease (" + leaseNs / 1_000_000 + " ms)");
        }
        this.leaseNs = leaseNs;
        this.renewIntervalNs = renewIntervalNs;
        this.marginNs = marginNs;
        Arrays.fill(sentCorrelation, -1);
    }

    /**
     * The lease starts: the join (sent at {@code sentNs}) was accepted.
     *
     * @param sentNs when the join was sent.
     */
    void granted(final long sentNs)
    {
        granted = true;
        lastAcceptedSendNs = sentNs;
        nextRenewNs = sentNs + renewIntervalNs;
    }

    /**
     * Whether a renewal is due.
     *
     * @param nowNs the clock.
     * @return true once the interval passed since the last one was sent.
     */
    boolean renewDue(final long nowNs)
    {
        return granted && nowNs - nextRenewNs >= 0;
    }

    /**
     * A renewal was sent.
     *
     * @param correlationId its id.
     * @param nowNs         when.
     */
    void sent(final long correlationId, final long nowNs)
    {
        final int slot = (int)(correlationId & (TRACKED - 1));
        sentCorrelation[slot] = correlationId;
        sentAtNs[slot] = nowNs;
        nextRenewNs = nowNs + renewIntervalNs;
    }

    /**
     * A renewal could not be sent (back-pressure, no leader): try again soon rather than after a whole interval.
     *
     * @param nowNs the clock.
     * @param retryNs how soon.
     */
    void notSent(final long nowNs, final long retryNs)
    {
        nextRenewNs = nowNs + retryNs;
    }

    /**
     * The service accepted a request: if it was a renewal still tracked, the lease runs from its send.
     *
     * @param correlationId its id.
     * @return whether it was a tracked renewal.
     */
    boolean accepted(final long correlationId)
    {
        final int slot = (int)(correlationId & (TRACKED - 1));
        if (sentCorrelation[slot] != correlationId)
        {
            return false;
        }
        sentCorrelation[slot] = -1;
        if (sentAtNs[slot] - lastAcceptedSendNs > 0)
        {
            lastAcceptedSendNs = sentAtNs[slot];
        }
        return true;
    }

    /**
     * Whether the member must stop now: the service may down it soon, or already has.
     *
     * @param nowNs the clock.
     * @return true once the lease, less the margin, passed since the newest accepted renewal was sent.
     */
    boolean lapsed(final long nowNs)
    {
        return granted && nowNs - (lastAcceptedSendNs + leaseNs - marginNs) > 0;
    }

    /**
     * How long the lease has left before the member must stop.
     *
     * @param nowNs the clock.
     * @return nanoseconds, negative once lapsed; the whole lease before it was granted.
     */
    long remainingNs(final long nowNs)
    {
        return granted ? lastAcceptedSendNs + leaseNs - marginNs - nowNs : leaseNs;
    }
}
