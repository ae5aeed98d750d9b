package io.troupe.actor;

/**
 * Counters of one executor pool, summed over its workers at the time of reading.
 *
 * @param name          the pool's name.
 * @param threads       number of worker threads.
 * @param activations   mailbox activations run.
 * @param eventsHandled events handed to actors.
 * @param busyNs        time workers spent running activations.
 * @param idleNs        time workers spent spinning or parked.
 * @param lateWakeups   wake-ups that came from the safety timeout with work queued and every other worker
 *                      parked, so that nobody had been woken for it: a missed wake-up (expected 0).
 * @param steals        mailboxes idle workers took from other workers' queues.
 */
public record PoolCounters(
    String name, int threads, long activations, long eventsHandled, long busyNs, long idleNs, long lateWakeups,
    long steals)
{
}
