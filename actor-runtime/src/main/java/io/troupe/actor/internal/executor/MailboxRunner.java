package io.troupe.actor.internal.executor;

import io.troupe.actor.internal.mailbox.Mailbox;

/**
 * Runs one activation of a mailbox on a worker thread: handles up to the pool's quantum of events, then
 * either marks the mailbox idle (re-checking for late arrivals) or queues it again.
 */
@FunctionalInterface
public interface MailboxRunner
{
    /**
     * Runs one activation.
     *
     * @param mailbox a mailbox in state SCHEDULED, now owned by the calling worker.
     * @param worker  the calling worker.
     */
    void run(Mailbox mailbox, Worker worker);
}
