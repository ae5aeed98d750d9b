package io.troupe.bench;

import io.troupe.memquota.MemoryQuotaCounters;
import io.troupe.memquota.MemoryQuotaTracker;
import io.troupe.memquota.MemoryReclaimer;
import org.agrona.concurrent.Agent;

import java.util.Arrays;

/**
 * Runs a {@link MemoryReclaimer} and, after every duty cycle that did work, collects the latency of the
 * reclamation episode that cycle ended, as the tracker timed it: from the claim that took use over max to the
 * end of the round that left use at or under low water. Only this agent runs rounds, and a round ends at most
 * one episode, so no episode is missed however short its dip under low water was.
 */
final class TimedReclaimer implements Agent
{
    /** Episodes whose latencies are kept for percentiles; later ones still count for the worst and the mean. */
    private static final int KEPT = 1 << 16;

    private final MemoryReclaimer delegate;
    private final MemoryQuotaTracker tracker;
    private final long[] latencies = new long[KEPT];
    private long episodesSeen;
    private volatile boolean resetWanted;
    private volatile long worstNs;
    private volatile long episodes;
    private volatile long totalNs;

    TimedReclaimer(final MemoryReclaimer delegate, final MemoryQuotaTracker tracker)
    {
        this.delegate = delegate;
        this.tracker = tracker;
    }

    @Override
    public int doWork() throws Exception
    {
        if (resetWanted)
        {
            resetWanted = false;
            worstNs = 0;
            episodes = 0;
            totalNs = 0;
        }
        final int work = delegate.doWork();
        if (work > 0)
        {
            final MemoryQuotaCounters counters = tracker.counters();
            if (counters.reclaimEpisodes() != episodesSeen)
            {
                episodesSeen = counters.reclaimEpisodes();
                record(counters.lastReclaimLatencyNs());
            }
        }
        return work;
    }

    private void record(final long latencyNs)
    {
        final long n = episodes;
        if (n < KEPT)
        {
            latencies[(int)n] = latencyNs;
        }
        worstNs = Math.max(worstNs, latencyNs);
        totalNs += latencyNs;
        episodes = n + 1;
    }

    /** Forgets the episodes so far, from the next duty cycle on (call at the start of the measurement window). */
    void reset()
    {
        resetWanted = true;
    }

    long worstNs()
    {
        return worstNs;
    }

    long episodes()
    {
        return episodes;
    }

    double meanNs()
    {
        final long n = episodes;
        return n == 0 ? 0 : (double)totalNs / n;
    }

    /**
     * A percentile of the kept latencies; call once the agent has stopped.
     *
     * @param fraction 0..1.
     * @return nanoseconds, or 0 without episodes.
     */
    long percentileNs(final double fraction)
    {
        final int n = (int)Math.min(episodes, KEPT);
        if (n == 0)
        {
            return 0;
        }
        final long[] sorted = Arrays.copyOf(latencies, n);
        Arrays.sort(sorted);
        return sorted[Math.min(n - 1, (int)(fraction * n))];
    }

    @Override
    public String roleName()
    {
        return delegate.roleName();
    }
}
