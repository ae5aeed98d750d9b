package io.troupe.bench;

import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.PoolConfig;
import io.troupe.actor.PoolCounters;
import io.troupe.actor.SystemCounters;

/**
 * Starts the actor system every workload runs on: one executor pool with the requested number of threads and
 * otherwise default settings, so that results reflect what a user gets out of the box.
 */
final class BenchSystems
{
    private BenchSystems()
    {
    }

    /**
     * Starts a system with one pool.
     *
     * @param threads worker threads of the pool.
     * @return the running system.
     */
    static ActorSystem start(final int threads)
    {
        return start(threads, 1);
    }

    /**
     * Starts a system with one pool as a given node of a cluster.
     *
     * @param threads worker threads of the pool.
     * @param nodeId  the node id.
     * @return the running system.
     */
    static ActorSystem start(final int threads, final int nodeId)
    {
        return ActorSystem.start(config(threads, nodeId));
    }

    /**
     * The settings {@link #start(int, int)} uses, for a workload that changes one of them.
     *
     * @param threads worker threads of the pool.
     * @param nodeId  the node id.
     * @return the settings.
     */
    static ActorSystemConfig config(final int threads, final int nodeId)
    {
        return new ActorSystemConfig()
            .nodeId(nodeId)
            .threadNamePrefix("bench-")
            .pool(PoolConfig.named(ActorSystemConfig.DEFAULT_POOL).threads(threads));
    }

    /**
     * Prints the counters that reveal a broken run (failures, lost events, late wake-ups) on stderr.
     *
     * @param system the system to read.
     */
    static void reportHealth(final ActorSystem system)
    {
        final SystemCounters counters = system.counters();
        long lateWakeups = 0;
        long activations = 0;
        long steals = 0;
        for (final PoolCounters pool : counters.pools())
        {
            lateWakeups += pool.lateWakeups();
            activations += pool.activations();
            steals += pool.steals();
        }
        Report.progress("  counters: events=%d activations=%d steals=%d failures=%d dropped=%d undelivered=%d " +
            "lateWakeups=%d", counters.eventsHandled(), activations, steals, counters.handlerFailures(),
            counters.dropped(), counters.undelivered(), lateWakeups);
    }
}
