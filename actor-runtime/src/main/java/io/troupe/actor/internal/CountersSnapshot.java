package io.troupe.actor.internal;

import io.troupe.actor.PoolCounters;
import io.troupe.actor.SystemCounter;
import io.troupe.actor.SystemCounters;
import io.troupe.actor.internal.executor.ExecutorPool;
import io.troupe.actor.internal.executor.Worker;
import io.troupe.actor.internal.mailbox.MailboxTable;
import io.troupe.actor.internal.scheduler.TimerAgent;

import java.util.ArrayList;
import java.util.List;

/** Builds a {@link SystemCounters} snapshot from the counters each component keeps. Safe from any thread. */
final class CountersSnapshot
{
    private CountersSnapshot()
    {
    }

    static SystemCounters read(
        final ExecutorPool[] pools, final MailboxTable table, final RuntimeCounters counters, final TimerAgent timer)
    {
        final List<PoolCounters> poolCounters = new ArrayList<>(pools.length);
        for (final ExecutorPool pool : pools)
        {
            poolCounters.add(read(pool));
        }
        final long[] values = counters.read();
        values[SystemCounter.MAILBOXES_CREATED.ordinal()] = table.created();
        values[SystemCounter.MAILBOXES_VACANT.ordinal()] = table.vacant();
        values[SystemCounter.TIMERS_SCHEDULED.ordinal()] = timer.scheduledCount();
        values[SystemCounter.TIMERS_FIRED.ordinal()] = timer.firedCount();
        values[SystemCounter.TIMERS_STALE.ordinal()] = timer.staleCount();
        values[SystemCounter.TIMERS_DISCARDED.ordinal()] = timer.discardedCount();
        return new SystemCounters(values, poolCounters);
    }

    private static PoolCounters read(final ExecutorPool pool)
    {
        long activations = 0;
        long events = 0;
        long busy = 0;
        long idle = 0;
        long late = 0;
        long steals = 0;
        for (final Worker worker : pool.workers())
        {
            activations += worker.activations();
            events += worker.eventsHandled();
            busy += worker.busyNs();
            idle += worker.idleNs();
            late += worker.lateWakeups();
            steals += worker.steals();
        }
        return new PoolCounters(pool.name(), pool.workers().length, activations, events, busy, idle, late, steals);
    }
}
