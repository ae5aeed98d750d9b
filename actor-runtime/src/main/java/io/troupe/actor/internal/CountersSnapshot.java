package io.troupe.actor.internal;

import io.troupe.actor.PoolCounters;
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
        final long registered = counters.registered.get();
        return new SystemCounters(
            registered,
            registered - counters.passedAway.get(),
            table.created(),
            table.vacant(),
            counters.undelivered.get(),
            counters.dropped.get(),
            counters.forwarded.get(),
            counters.deadLetters.get(),
            counters.handlerFailures.get(),
            counters.rejectedSends.get(),
            timer.scheduledCount(),
            timer.firedCount(),
            timer.staleCount(),
            timer.discardedCount(),
            counters.collapsedMailboxes.get(),
            counters.asksPending.get(),
            counters.asksTimedOut.get(),
            counters.lateReplies.get(),
            counters.unhandledEvents.get(),
            List.copyOf(poolCounters));
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
