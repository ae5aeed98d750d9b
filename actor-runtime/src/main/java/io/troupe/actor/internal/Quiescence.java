package io.troupe.actor.internal;

import io.troupe.actor.internal.executor.ExecutorPool;

/**
 * Waits, during shutdown, until no pool has work: every queue empty and every worker idle, seen twice in a
 * row (outside sends are refused by then, so only running actors could add work).
 */
final class Quiescence
{
    private Quiescence()
    {
    }

    /**
     * Waits for the pools to go quiet.
     *
     * @param pools      the pools.
     * @param deadlineNs {@link System#nanoTime()} deadline; an idle node is seen quiet even when it has passed.
     * @return true if quiet, false at the deadline or on interrupt.
     */
    static boolean await(final ExecutorPool[] pools, final long deadlineNs)
    {
        int quietChecks = 0;
        while (true)
        {
            boolean quiet = true;
            for (final ExecutorPool pool : pools)
            {
                quiet &= pool.isQuiescent();
            }
            quietChecks = quiet ? quietChecks + 1 : 0;
            if (quietChecks >= 2)
            {
                return true;
            }
            if (quietChecks == 1)
            {
                continue; // confirm at once: even a zero deadline drains an idle node
            }
            if (deadlineNs - System.nanoTime() <= 0)
            {
                return false;
            }
            try
            {
                Thread.sleep(1);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
