package io.troupe.memquota;

import org.agrona.concurrent.Agent;

/**
 * The agent that runs a tracker's reclamation: each duty cycle refreshes a cached clock and, when use is over
 * max, runs a round; otherwise it runs a few of the clean-ups collapsed participants left behind (such as
 * unlinking a collapsed queue's dropped contents). Its thread is woken early when a claim crosses max (see
 * {@link #wakeUpWith}).
 */
public final class MemoryReclaimer implements Agent
{
    /** Clean-ups per duty cycle: small enough that a new round is never kept waiting long. */
    static final int CLEANUPS_PER_DUTY_CYCLE = 16;

    private final MemoryQuotaTracker tracker;
    private final CoarseClock.CachedClock cachedClock;

    /**
     * Creates the agent.
     *
     * @param tracker the tracker to reclaim for.
     */
    public MemoryReclaimer(final MemoryQuotaTracker tracker)
    {
        this.tracker = tracker;
        this.cachedClock = tracker.clock() instanceof CoarseClock.CachedClock ?
            (CoarseClock.CachedClock)tracker.clock() : null;
        if (cachedClock != null)
        {
            cachedClock.updatedByAgent(); // our duty cycle updates it (the runner must idle at most ~resolution)
        }
    }

    /**
     * Sets what a claim that crosses max calls to wake this agent's thread (e.g. unpark it).
     *
     * @param wakeUp called on the claiming thread; must be cheap and must not block.
     */
    public void wakeUpWith(final Runnable wakeUp)
    {
        tracker.onReclaimWanted(wakeUp);
    }

    @Override
    public int doWork()
    {
        if (cachedClock != null)
        {
            cachedClock.update();
        }
        if (tracker.reclaimWanted())
        {
            return Math.max(1, tracker.reclaimOnce());
        }
        return tracker.runCleanups(CLEANUPS_PER_DUTY_CYCLE); // only between rounds, a few at a time

    }

    @Override
    public String roleName()
    {
        return "troupe-memquota-reclaimer";
    }
}
