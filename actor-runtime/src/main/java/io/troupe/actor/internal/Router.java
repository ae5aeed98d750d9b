package io.troupe.actor.internal;

import io.troupe.actor.ActorId;
import io.troupe.actor.DeadLetterHandler;
import io.troupe.actor.Envelope;
import io.troupe.actor.SystemCounter;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import io.troupe.actor.spi.RemoteTransport;

import io.troupe.actor.internal.layout.LinePadding;
import io.troupe.actor.internal.executor.ExecutorPool;
import io.troupe.actor.internal.executor.Worker;
import io.troupe.actor.internal.mailbox.Mailbox;
import io.troupe.actor.internal.mailbox.MailboxMemory;
import io.troupe.actor.internal.mailbox.MailboxTable;
import io.troupe.actor.QueueLink;

/** The router's fields, behind {@link LinePadding}: every worker reads them on every send. */
abstract class RouterFields extends LinePadding
{
    static final int RUNNING = 0;
    static final int DRAINING = 1;
    static final int STOPPED = 2;

    final int nodeId;
    final MailboxTable table;
    final ServiceTable services;
    final RuntimeCounters counters;
    final DeadLetterHandler deadLetters;
    ExecutorPool[] pools;
    volatile int phase = RUNNING;
    volatile RemoteTransport remote;

    RouterFields(
        final int nodeId,
        final MailboxTable table,
        final ServiceTable services,
        final RuntimeCounters counters,
        final DeadLetterHandler deadLetters)
    {
        this.nodeId = nodeId;
        this.table = table;
        this.services = services;
        this.counters = counters;
        this.deadLetters = deadLetters;
    }
}

/**
 * Finds the mailbox of an envelope's recipient and enqueues it, or takes the non-delivery path. Called on
 * any thread: a worker passes itself so that a mailbox it activates can be handed off to it directly.
 *
 * <p>Non-delivery: forward to the forward target if set; else, if tracked, send {@link Undelivered} to the
 * sender on behalf of the recipient; else drop and count. A tracked event with nobody to notify (sent from
 * outside, or the node is stopping) goes to the {@link DeadLetterHandler}.
 */
final class Router extends RouterFields
{

    /** Padding behind the fields (see {@link LinePadding}). */
    long q00;
    long q01;
    long q02;
    long q03;
    long q04;
    long q05;
    long q06;
    long q07;
    long q08;
    long q09;
    long q10;
    long q11;
    long q12;
    long q13;
    long q14;
    long q15;

    Router(
        final int nodeId,
        final MailboxTable table,
        final ServiceTable services,
        final RuntimeCounters counters,
        final DeadLetterHandler deadLetters)
    {
        super(nodeId, table, services, counters, deadLetters);
    }

    void pools(final ExecutorPool[] pools)
    {
        this.pools = pools;
    }

    int phase()
    {
        return phase;
    }

    void phase(final int phase)
    {
        this.phase = phase;
    }

    void route(final Envelope envelope, final Worker worker)
    {
        ActorId to = envelope.recipient();
        if (to.isService())
        {
            if (!isLocal(to.nodeId()))
            {
                remote(envelope, worker);
                return;
            }
            final ActorId actor = services.lookup(to);
            if (actor == null)
            {
                undeliverable(envelope, UndeliveredReason.ACTOR_UNKNOWN, worker);
                return;
            }
            envelope.rewriteRecipient(actor);
            to = actor;
        }
        if (!isLocal(to.nodeId()))
        {
            remote(envelope, worker);
            return;
        }
        if (phase == STOPPED)
        {
            undeliverable(envelope, UndeliveredReason.SHUTDOWN, worker);
            return;
        }
        final Mailbox mailbox = table.get(to.hint());
        if (mailbox == null || mailbox.poolId() != to.poolId())
        {
            undeliverable(envelope, UndeliveredReason.ACTOR_UNKNOWN, worker);
            return;
        }
        final MailboxMemory memory = mailbox.memory();
        if (memory != null)
        {
            final int admitted = memory.admit(envelope);
            if (admitted != MailboxMemory.ADMITTED)
            {
                undeliverable(envelope, admitted == MailboxMemory.REFUSED_EXHAUSTED ?
                    UndeliveredReason.SHED : UndeliveredReason.COLLAPSED, worker);
                return;
            }
        }
        if (mailbox.tryMarkScheduled())
        {
            // idle: this send activates it, and an empty queue is skipped altogether
            mailbox.pushActivating(envelope);
            schedule(mailbox, worker);
            return;
        }
        mailbox.push(envelope);
        if (mailbox.tryMarkScheduled())
        {
            schedule(mailbox, worker);
        }
    }

    boolean isLocal(final int node)
    {
        return node == 0 || node == nodeId;
    }

    /** Hands a mailbox that the caller moved to SCHEDULED to its pool, from a thread that is not a worker. */
    void scheduleFromOutside(final Mailbox mailbox)
    {
        pools[mailbox.poolId()].schedule(mailbox);
    }

    private void schedule(final Mailbox mailbox, final Worker worker)
    {
        // the worker's own pool is read from the worker: the pools array is a small shared object that a
        // collection may put beside a busy mailbox
        if (worker != null && worker.pool().poolId() == mailbox.poolId())
        {
            worker.activate(mailbox, ((ContextImpl)worker.context()).currentFinishing());
        }
        else
        {
            pools[mailbox.poolId()].schedule(mailbox);
        }
    }

    void remote(final RemoteTransport transport)
    {
        this.remote = transport;
    }

    RemoteTransport remote()
    {
        return remote;
    }

    private void remote(final Envelope envelope, final Worker worker)
    {
        final RemoteTransport transport = remote;
        if (transport == null)
        {
            // no interconnect in this node: every other node is unreachable
            undeliverable(envelope, UndeliveredReason.DISCONNECTED, worker);
            return;
        }
        if ((envelope.flags() & Envelope.FLAG_SUBSCRIBE_ON_SESSION) != 0 && !envelope.sender().isNone())
        {
            transport.subscribe(envelope.recipient().nodeId(), envelope.sender());
        }
        envelope.resolveForwardTarget(nodeId);
        final UndeliveredReason refused = transport.send(envelope);
        if (refused != null)
        {
            undeliverable(envelope, refused, worker);
            return;
        }
        envelope.settle(); // forwarded to another node, whose transport now answers for it
    }

    void undeliverable(final Envelope envelope, final UndeliveredReason reason, final Worker worker)
    {
        if ((envelope.flags() & Envelope.FLAG_FORWARD_ON_NONDELIVERY) != 0 && envelope.forwardTo() != null)
        {
            counters.increment(SystemCounter.FORWARDED);
            envelope.redirectToForwardTarget();
            route(envelope, worker);
            return;
        }
        if (reason == UndeliveredReason.ACTOR_UNKNOWN && ReplySlots.isReplySlot(envelope.recipient()))
        {
            // for an ask that already ended: nobody waits for it, and its sender need not hear of it
            counters.increment(SystemCounter.LATE_REPLIES);
            envelope.settle();
            return;
        }
        if (!envelope.isTracked())
        {
            counters.increment(SystemCounter.DROPPED);
            envelope.settle();
            return;
        }
        if (envelope.sender().isNone() || envelope.isUndeliveredNotice() || phase == STOPPED)
        {
            deadLetter(envelope, reason);
            return;
        }
        counters.increment(SystemCounter.UNDELIVERED);
        final ActorId recipient = envelope.recipient();
        final Undelivered notice = new Undelivered(recipient, envelope.type(), envelope.cookie(), reason, false);
        route(new Envelope(envelope.sender(), recipient, Undelivered.TYPE, 0, envelope.cookie(), notice, null), worker);
        envelope.settle();
    }

    /**
     * Reports what is queued in a mailbox after the node stopped: tracked events to the dead-letter handler as
     * {@link UndeliveredReason#SHUTDOWN}, the rest dropped. Only the thread that owns the mailbox's queue.
     *
     * @return the number of events taken from the mailbox.
     */
    long failQueued(final Mailbox mailbox)
    {
        long count = 0;
        QueueLink node;
        while ((node = mailbox.poll()) != null)
        {
            final Envelope envelope = (Envelope)node;
            count++;
            if (envelope.isTracked())
            {
                deadLetter(envelope, UndeliveredReason.SHUTDOWN);
            }
            else
            {
                counters.increment(SystemCounter.DROPPED);
                envelope.settle();
            }
        }
        return count;
    }

    void deadLetter(final Envelope envelope, final UndeliveredReason reason)
    {
        counters.increment(SystemCounter.DEAD_LETTERS);
        try
        {
            deadLetters.onDeadLetter(envelope, reason);
        }
        catch (final RuntimeException ex)
        {
            counters.increment(SystemCounter.HANDLER_FAILURES);
        }
        envelope.settle();
    }
}
