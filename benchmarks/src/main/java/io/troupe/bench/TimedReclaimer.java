package io.troupe.bench;

import io.troupe.memquota.MemoryQuotaConfig;
import io.troupe.memquota.MemoryQuotaTracker;
import io.troupe.memquota.MemoryReclaimer;
import org.agrona.concurrent.Agent;

/**
 * Runs a {@link MemoryReclaimer} and times its reclamations from its own thread: from the duty cycle that
 * first finds use over max to the end of the duty cycle after which use is at or under low water. Unlike the
 * 1 ms samples of a monitor thread this cannot miss a short dip under low water, but it does not see how long
 * the reclaimer took to wake up.
 */
final class TimedReclaimer implements Agent
{
    private final MemoryReclaimer delegate;
    private final MemoryQuotaTracker tracker;
    private final long maxBytes;
    private final long lowWaterBytes;
    private long overSinceNs = -1;
    private volatile long worstNs;
    private volatile long episodes;

    TimedReclaimer(final MemoryReclaimer delegate, final MemoryQuotaTracker tracker)
    {
        final MemoryQuotaConfig config = tracker.config();
        this.delegate = delegate;
        this.tracker = tracker;
        this.maxBytes = config.maxBytes();
        this.lowWaterBytes = config.lowWaterBytes();
    }

    @Override
    public int doWork() throws Exception
    {
        if (overSinceNs < 0 && tracker.usedBytes() > maxBytes)
        {
            overSinceNs = System.nanoTime();
            episodes++;
        }
        final int work = delegate.doWork();
        if (overSinceNs >= 0 && tracker.usedBytes() <= lowWaterBytes)
        {
            worstNs = Math.max(worstNs, System.nanoTime() - overSinceNs);
            overSinceNs = -1;
        }
        return work;
    }

    /** Forgets the reclamations so far (call at the start of the measurement window; racy by one episode). */
    void reset()
    {
        worstNs = 0;
        episodes = 0;
    }

    long worstNs()
    {
        return worstNs;
    }

    long episodes()
    {
        return episodes;
    }

    @Override
    public String roleName()
    {
        return delegate.roleName();
    }
}
