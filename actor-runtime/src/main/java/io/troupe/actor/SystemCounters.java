package io.troupe.actor;

import java.util.List;

/**
 * Counters of an actor system at the time of reading.
 *
 * @param actorsRegistered actors registered since start.
 * @param actorsAlive      actors registered and not yet passed away.
 * @param mailboxesCreated mailboxes ever created (the table's high-water mark).
 * @param mailboxesVacant  mailboxes waiting for reuse.
 * @param undelivered      {@link Undelivered} notices sent to senders.
 * @param dropped          untracked events that could not be delivered (dropped without a notice).
 * @param forwarded        events forwarded to their forward-on-nondelivery target.
 * @param deadLetters      tracked events with nobody to notify, handed to the {@link DeadLetterHandler}.
 * @param handlerFailures  exceptions thrown by handlers.
 * @param rejectedSends    sends refused because the system was shutting down.
 * @param timersScheduled  timers requested.
 * @param timersFired      timers delivered.
 * @param timersStale      timers whose cookie was detached, not delivered.
 * @param timersDiscarded  timers dropped by shutdown.
 * @param mailboxesCollapsed memory-tracked mailboxes collapsed by the memory quota.
 * @param asksPending      asks (from outside or from actors) whose reply slot is still open.
 * @param asksTimedOut     asks that ended with a timeout.
 * @param lateReplies      events sent to a reply slot that was already freed (a reply after its ask's timeout,
 *                         or a second reply), dropped.
 * @param unhandledEvents  events a typed actor received that were not of its type and that its
 *                         {@link TypedBehavior#receiveSignal} did not handle, dropped.
 * @param pools            per-pool counters, in pool-id order.
 */
public record SystemCounters(
    long actorsRegistered,
    long actorsAlive,
    long mailboxesCreated,
    long mailboxesVacant,
    long undelivered,
    long dropped,
    long forwarded,
    long deadLetters,
    long handlerFailures,
    long rejectedSends,
    long timersScheduled,
    long timersFired,
    long timersStale,
    long timersDiscarded,
    long mailboxesCollapsed,
    long asksPending,
    long asksTimedOut,
    long lateReplies,
    long unhandledEvents,
    List<PoolCounters> pools)
{
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
}
