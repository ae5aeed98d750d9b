package io.troupe.memquota;

/**
 * A cheap monotonic time source for data ages. Ages only need to order data roughly, so implementations may
 * return a cached value that is refreshed now and then.
 */
@FunctionalInterface
public interface CoarseClock
{
    /**
     * Monotonic time in nanoseconds, possibly a little stale.
     *
     * @return the time.
     */
    long nowNs();

    /**
     * A clock that reads {@link System#nanoTime()} at most once per {@code resolutionNs} per calling pattern:
     * the cached value is refreshed by {@link CachedClock#update()} (the reclaimer calls it every duty cycle),
     * and a reader finding it older than the resolution refreshes it itself, so the cost is bounded either way.
     *
     * @param resolutionNs how stale a reading may be.
     * @return the clock.
     */
    static CachedClock cached(final long resolutionNs)
    {
        return new CachedClock(resolutionNs);
    }

    /** A {@link CoarseClock} over a cached {@link System#nanoTime()} value. Thread safe. */
    final class CachedClock implements CoarseClock
    {
        private final long resolutionNs;
        private volatile long cachedNs = System.nanoTime();
        private int readsSinceCheck;
        private volatile boolean updatedByAgent;

        private CachedClock(final long resolutionNs)
        {
            this.resolutionNs = resolutionNs;
        }

        /**
         * Refreshes the cached time.
         *
         * @return the new time.
         */
        public long update()
        {
            final long now = System.nanoTime();
            cachedNs = now;
            return now;
        }

        /**
         * Says that an agent calls {@link #update} at least once per resolution from now on (the memory
         * reclaimer does): reads then return the cached time and write nothing, so the threads that stamp
         * elements (every remote send) share no written cache line through the clock.
         */
        public void updatedByAgent()
        {
            updatedByAgent = true;
        }

        @Override
        public long nowNs()
        {
            if (updatedByAgent)
            {
                return cachedNs;
            }
            // every 64th read checks the real clock: bounded staleness without a timer thread, and the counter
            // race between threads only changes which read does the check
            if ((++readsSinceCheck & 63) == 0)
            {
                final long now = System.nanoTime();
                if (now - cachedNs > resolutionNs)
                {
                    cachedNs = now;
                }
                return now;
            }
            return cachedNs;
        }
    }
}
