package io.troupe.membership.internal;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.time.Duration;

/**
 * How the membership's threads (its media driver, the voter's archive, consensus module and service, the membership
 * client) wait when idle: they never spin or yield, and park from 1 ms (or the maximum, if shorter) up to the
 * configured maximum. The membership answers in milliseconds and its work is a few messages a second; spinning or
 * yielding through the back-off after each of them, as the interconnect's threads do, cost an idle voter a fifth of a
 * core on a 2-core host (membership.scale, 4 idle nodes: their membership threads took 57% of one core in all, 11-14%
 * with this).
 */
public final class MembershipIdle
{
    private static final long FIRST_PARK_NS = Duration.ofMillis(1).toNanos();

    private MembershipIdle()
    {
    }

    /**
     * A new strategy for one thread.
     *
     * @param maxPark the longest park ({@code troupe.membership.max-idle-park}).
     * @return the strategy.
     */
    public static IdleStrategy strategy(final Duration maxPark)
    {
        final long maxParkNs = maxPark.toNanos();
        return new BackoffIdleStrategy(0, 0, Math.min(FIRST_PARK_NS, maxParkNs), maxParkNs);
    }
}
