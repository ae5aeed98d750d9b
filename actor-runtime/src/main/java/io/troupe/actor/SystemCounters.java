package io.troupe.actor;

import java.util.List;

/**
 * Counters of an actor system at the time of reading: one figure per {@link SystemCounter} ({@link #get}), and the
 * pools' counters. The accessors below are shorthands for {@code get} of the counters tests and tools read most.
 */
public final class SystemCounters
{
    private static final SystemCounter[] COUNTERS = SystemCounter.values();

    private final long[] values;
    private final List<PoolCounters> pools;

    /**
     * A snapshot.
     *
     * @param values one figure per {@link SystemCounter}, by ordinal (kept, not copied).
     * @param pools  per-pool counters, in pool-id order.
     */
    public SystemCounters(final long[] values, final List<PoolCounters> pools)
    {
        if (values.length != COUNTERS.length)
        {
            throw new IllegalArgumentException(values.length + " figures for " + COUNTERS.length + " counters");
        }
        this.values = values;
        this.pools = List.copyOf(pools);
    }

    /**
     * A counter's figure.
     *
     * @param counter which.
     * @return its value when the snapshot was taken.
     */
    public long get(final SystemCounter counter)
    {
        return values[counter.ordinal()];
    }

    /**
     * Per-pool counters.
     *
     * @return in pool-id order.
     */
    public List<PoolCounters> pools()
    {
        return pools;
    }

    /**
     * The figure of {@link SystemCounter#ACTORS_REGISTERED}.
     *
     * @return actors registered since start.
     */
    public long actorsRegistered()
    {
        return get(SystemCounter.ACTORS_REGISTERED);
    }

    /**
     * The figure of {@link SystemCounter#ACTORS_ALIVE}.
     *
     * @return actors registered and not yet passed away.
     */
    public long actorsAlive()
    {
        return get(SystemCounter.ACTORS_ALIVE);
    }

    /**
     * The figure of {@link SystemCounter#WATCHERS_HELD}.
     *
     * @return watchers this node's actors hold.
     */
    public long watchersHeld()
    {
        return get(SystemCounter.WATCHERS_HELD);
    }

    /**
     * The figure of {@link SystemCounter#MAILBOXES_CREATED}.
     *
     * @return mailboxes ever created (the table's high-water mark).
     */
    public long mailboxesCreated()
    {
        return get(SystemCounter.MAILBOXES_CREATED);
    }

    /**
     * The figure of {@link SystemCounter#MAILBOXES_VACANT}.
     *
     * @return mailboxes waiting for reuse.
     */
    public long mailboxesVacant()
    {
        return get(SystemCounter.MAILBOXES_VACANT);
    }

    /**
     * The figure of {@link SystemCounter#UNDELIVERED}.
     *
     * @return {@link Undelivered} notices sent to senders.
     */
    public long undelivered()
    {
        return get(SystemCounter.UNDELIVERED);
    }

    /**
     * The figure of {@link SystemCounter#DROPPED}.
     *
     * @return untracked events that could not be delivered (dropped without a notice).
     */
    public long dropped()
    {
        return get(SystemCounter.DROPPED);
    }

    /**
     * The figure of {@link SystemCounter#FORWARDED}.
     *
     * @return events forwarded to their forward-on-nondelivery target.
     */
    public long forwarded()
    {
        return get(SystemCounter.FORWARDED);
    }

    /**
     * The figure of {@link SystemCounter#DEAD_LETTERS}.
     *
     * @return tracked events with nobody to notify, handed to the {@link DeadLetterHandler}.
     */
    public long deadLetters()
    {
        return get(SystemCounter.DEAD_LETTERS);
    }

    /**
     * The figure of {@link SystemCounter#HANDLER_FAILURES}.
     *
     * @return exceptions thrown by handlers.
     */
    public long handlerFailures()
    {
        return get(SystemCounter.HANDLER_FAILURES);
    }

    /**
     * The figure of {@link SystemCounter#REJECTED_SENDS}.
     *
     * @return sends refused because the system was shutting down.
     */
    public long rejectedSends()
    {
        return get(SystemCounter.REJECTED_SENDS);
    }

    /**
     * The figure of {@link SystemCounter#TIMERS_SCHEDULED}.
     *
     * @return timers requested.
     */
    public long timersScheduled()
    {
        return get(SystemCounter.TIMERS_SCHEDULED);
    }

    /**
     * The figure of {@link SystemCounter#TIMERS_FIRED}.
     *
     * @return timers delivered.
     */
    public long timersFired()
    {
        return get(SystemCounter.TIMERS_FIRED);
    }

    /**
     * The figure of {@link SystemCounter#TIMERS_STALE}.
     *
     * @return timers whose cookie was detached, not delivered.
     */
    public long timersStale()
    {
        return get(SystemCounter.TIMERS_STALE);
    }

    /**
     * The figure of {@link SystemCounter#TIMERS_DISCARDED}.
     *
     * @return timers dropped by shutdown.
     */
    public long timersDiscarded()
    {
        return get(SystemCounter.TIMERS_DISCARDED);
    }

    /**
     * The figure of {@link SystemCounter#MAILBOXES_COLLAPSED}.
     *
     * @return memory-tracked mailboxes collapsed by the memory quota.
     */
    public long mailboxesCollapsed()
    {
        return get(SystemCounter.MAILBOXES_COLLAPSED);
    }

    /**
     * The figure of {@link SystemCounter#ASKS_PENDING}.
     *
     * @return asks (from outside or from actors) whose reply slot is still open.
     */
    public long asksPending()
    {
        return get(SystemCounter.ASKS_PENDING);
    }

    /**
     * The figure of {@link SystemCounter#ASKS_TIMED_OUT}.
     *
     * @return asks that ended with a timeout.
     */
    public long asksTimedOut()
    {
        return get(SystemCounter.ASKS_TIMED_OUT);
    }

    /**
     * The figure of {@link SystemCounter#LATE_REPLIES}.
     *
     * @return events sent to a reply slot that was already freed (a reply after its ask's timeout, or a second
     *         reply), dropped.
     */
    public long lateReplies()
    {
        return get(SystemCounter.LATE_REPLIES);
    }

    /**
     * The figure of {@link SystemCounter#UNHANDLED_EVENTS}.
     *
     * @return events a typed actor received that were not of its type and that its
     *         {@link TypedBehavior#receiveSignal} did not handle, dropped.
     */
    public long unhandledEvents()
    {
        return get(SystemCounter.UNHANDLED_EVENTS);
    }

    /**
     * Events handled by all pools.
     *
     * @return the sum.
     */
    public long eventsHandled()
    {
        long sum = 0;
        for (final PoolCounters pool : pools)
        {
            sum += pool.eventsHandled();
        }
        return sum;
    }

    /**
     * Counters of the pool with the given name.
     *
     * @param name the pool name.
     * @return its counters.
     * @throws IllegalArgumentException if there is no such pool.
     */
    public PoolCounters pool(final String name)
    {
        for (final PoolCounters pool : pools)
        {
            if (pool.name().equals(name))
            {
                return pool;
            }
        }
        throw new IllegalArgumentException("no pool named '" + name + "'");
    }

    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder("SystemCounters[");
        for (final SystemCounter counter : COUNTERS)
        {
            text.append(counter.metricName()).append('=').append(values[counter.ordinal()]).append(", ");
        }
        return text.append("pools=").append(pools).append(']').toString();
    }
}
