package io.troupe.actor.internal;

import io.troupe.actor.internal.executor.ExecutorPool;
import io.troupe.actor.internal.mailbox.Mailbox;
import io.troupe.actor.internal.mailbox.MailboxTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * The last steps of an actor system's shutdown, once it no longer takes sends: the pools' threads stop, and what is
 * still queued is reported ({@code Undelivered(SHUTDOWN)} to senders that track it), except in mailboxes a stuck
 * handler still holds. On the shutting-down thread.
 */
final class PoolShutdown
{
    private static final Logger LOG = LoggerFactory.getLogger(LocalActorSystem.class);

    private PoolShutdown()
    {
    }

    /**
     * Stops the pools' threads, waiting for each until the deadline (at least a second).
     *
     * @return true if every thread exited.
     */
    static boolean stopPools(final ExecutorPool[] pools, final long deadlineNs, final int nodeId)
    {
        boolean exited = true;
        for (final ExecutorPool pool : pools)
        {
            try
            {
                exited &= pool.stop(Math.max(TimeUnit.SECONDS.toNanos(1), deadlineNs - System.nanoTime()));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                exited = false;
            }
        }
        if (!exited)
        {
            LOG.warn("node {}: some worker threads did not exit; a handler may be stuck", nodeId);
        }
        return exited;
    }

    /**
     * Reports every tracked event still queued as a dead letter, but in mailboxes a stuck handler still holds.
     *
     * @return the events reported.
     */
    static long failQueued(final MailboxTable table, final Router router, final boolean threadsGone,
        final int nodeId)
    {
        final long[] left = new long[2];
        table.forEach(mailbox ->
        {
            if (!threadsGone && mailbox.state() == Mailbox.RUNNING)
            {
                left[1]++; // a stuck handler's thread owns this queue; it reports the rest when it returns
                return;
            }
            left[0] += router.failQueued(mailbox);
        });
        if (left[1] > 0)
        {
            LOG.warn("node {}: {} mailboxes are held by handlers that overran shutdown; their queued events are " +
                "reported when those handlers return", nodeId, left[1]);
        }
        return left[0];
    }
}
