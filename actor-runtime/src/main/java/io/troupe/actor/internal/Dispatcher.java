package io.troupe.actor.internal;

import io.troupe.actor.ActorId;
import io.troupe.actor.AgentFailure;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.FailureHandler;
import io.troupe.actor.MailboxCollapsed;
import io.troupe.actor.SystemCounter;
import io.troupe.actor.Terminated;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import io.troupe.actor.spi.WatchRequest;

import io.troupe.actor.internal.layout.LinePadding;
import io.troupe.actor.internal.executor.ExecutorPool;
import io.troupe.actor.internal.executor.MailboxRunner;
import io.troupe.actor.internal.executor.Worker;
import io.troupe.actor.internal.mailbox.Mailbox;
import io.troupe.actor.internal.mailbox.MailboxMemory;
import io.troupe.actor.internal.mailbox.MailboxTable;
import io.troupe.actor.QueueLink;
import org.agrona.ErrorHandler;

import java.util.List;

/** The dispatcher's fields, behind {@link LinePadding}: every worker reads them on every activation. */
abstract class DispatcherFields extends LinePadding
{
    final Router router;
    final MailboxTable table;
    final RuntimeCounters counters;
    final FailureHandler failureHandler;
    /** Every handler failure, whole (the node's distinct error log), or null. */
    final ErrorHandler recorder;
    final int nodeId;

    DispatcherFields(
        final Router router, final MailboxTable table, final RuntimeCounters counters,
        final FailureHandler failureHandler, final ErrorHandler recorder, final int nodeId)
    {
        this.router = router;
        this.table = table;
        this.counters = counters;
        this.failureHandler = failureHandler;
        this.recorder = recorder;
        this.nodeId = nodeId;
    }
}

/**
 * Runs activations: takes events from a mailbox and hands each to the actor it is addressed to, within the
 * pool's quantum. The clock is read only when an activation has a second event, and then every 8 events (or
 * every event once they turn out to be slow), so one-event activations cost no clock reads. Measuring handling
 * times by actor type is {@link ObservingDispatcher}'s: while no observer is configured that class is never loaded,
 * so {@link #receive} has one implementation and the JIT inlines it into the loop as if the code were written there.
 */
class Dispatcher extends DispatcherFields implements MailboxRunner
{
    private static final int CHECK_MASK_FAST = 7;
    private static final int CHECK_MASK_SLOW = 0;

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

    Dispatcher(
        final Router router, final MailboxTable table, final RuntimeCounters counters,
        final FailureHandler failureHandler, final ErrorHandler recorder, final int nodeId)
    {
        super(router, table, counters, failureHandler, recorder, nodeId);
    }

    @Override
    public void run(final Mailbox mailbox, final Worker worker)
    {
        final ContextImpl ctx = (ContextImpl)worker.context();
        final ExecutorPool pool = worker.pool();
        final int limit = pool.eventsPerActivation();
        final long quantumNs = pool.timePerActivationNs();
        mailbox.markRunning();
        final MailboxMemory memory = mailbox.memory();
        ctx.enter(mailbox);
        int handled = 0;
        int checkMask = CHECK_MASK_FAST;
        long startNs = 0;
        boolean drained = false;
        if (memory != null && memory.isCollapsing())
        {
            handled += collapse(mailbox, memory, ctx, worker, 0);
        }
        while (!ctx.retired())
        {
            final QueueLink node = mailbox.poll();
            if (node == null)
            {
                drained = true;
                break;
            }
            if (handled == 1)
            {
                startNs = System.nanoTime();
            }
            if (memory != null)
            {
                if (memory.isCollapsing())
                {
                    // reclaimed while this activation ran: this event goes with the rest of the queue
                    router.undeliverable((Envelope)node, UndeliveredReason.COLLAPSED, worker);
                    handled += collapse(mailbox, memory, ctx, worker, 1);
                    continue;
                }
                memory.release((Envelope)node);
            }
            deliver(ctx, mailbox, (Envelope)node, worker);
            handled++;
            if (router.phase() == Router.STOPPED)
            {
                // the node stopped while this handler ran (it overran the drain deadline): what is left
                // here is this thread's to report, as no other thread may read this queue
                router.failQueued(mailbox);
                drained = true;
                break;
            }
            if (ctx.retired())
            {
                drain(mailbox, worker, UndeliveredReason.ACTOR_UNKNOWN);
                drained = true;
                break;
            }
            if (handled >= limit)
            {
                break;
            }
            if (handled > 1 && (handled & checkMask) == 0)
            {
                final long elapsedNs = System.nanoTime() - startNs;
                if (elapsedNs >= quantumNs)
                {
                    break;
                }
                if (elapsedNs > quantumNs >> 3)
                {
                    checkMask = CHECK_MASK_SLOW;
                }
            }
        }
        final boolean retired = ctx.retired();
        drained |= retired;
        ctx.exit();
        worker.addEvents(handled);
        if (!drained)
        {
            mailbox.markRescheduled();
            worker.reschedule(mailbox);
        }
        else
        {
            mailbox.markIdle();
            // a collapse requested while we ran is picked up like a late event (see MailboxMemory.reclaim)
            if ((mailbox.hasPending() || (memory != null && memory.isCollapsing())) && mailbox.tryMarkScheduled())
            {
                worker.reschedule(mailbox);
            }
        }
        if (retired)
        {
            final MailboxMemory detached = mailbox.detachMemory();
            if (detached != null)
            {
                detached.leave();
            }
            table.release(mailbox);
        }
    }

    private void deliver(final ContextImpl ctx, final Mailbox mailbox, final Envelope envelope, final Worker worker)
    {
        final int slot = mailbox.findSlot(envelope.recipient().localId());
        if (slot == Mailbox.NO_SLOT)
        {
            router.undeliverable(envelope, UndeliveredReason.ACTOR_UNKNOWN, worker);
            return;
        }
        // the runtime's own events (Undelivered .. Terminated: the system space's first nine), in one compare, and
        // handled out of line, so that this method is as it was but for the compare (the loop above inlines it)
        if (Integer.compareUnsigned(envelope.type() - Undelivered.TYPE, Terminated.TYPE) < 0)
        {
            deliverIntercepted(ctx, mailbox, slot, envelope);
            return;
        }
        ctx.begin(slot, envelope);
        final Behavior behavior = mailbox.behavior(slot);
        try
        {
            receive(ctx, behavior, envelope);
        }
        catch (final Throwable error)
        {
            onFailure(ctx, envelope, error, behavior);
        }
        ctx.end();
        envelope.settleHandled(); // the context repaid its cost
    }

    /** {@link #deliver}'s steps for what {@link #intercept} leaves for the behaviour (a copy: see deliver). */
    private void deliverIntercepted(final ContextImpl ctx, final Mailbox mailbox, final int slot,
        final Envelope envelope)
    {
        final Envelope handled = intercept(ctx, mailbox, slot, envelope);
        if (handled == null)
        {
            return;
        }
        ctx.begin(slot, handled);
        final Behavior behavior = mailbox.behavior(slot);
        try
        {
            receive(ctx, behavior, handled);
        }
        catch (final Throwable error)
        {
            onFailure(ctx, handled, error, behavior);
        }
        ctx.end();
        handled.settleHandled();
    }

    /**
     * The runtime's own events for an actor: a keyed timer's (handed over only if its timer is still the key's), a
     * request to stop it (from its parent or its system: it passes away here, behind what was queued before), death
     * watch's requests, Terminated notices and the Undelivered of a watch request; the rest of the system space
     * (Undelivered, Poison, ...) goes to the behaviour.
     *
     * @return the envelope for the behaviour, or null if there is none (the intercepted one is settled).
     */
    private Envelope intercept(final ContextImpl ctx, final Mailbox mailbox, final int slot, final Envelope envelope)
    {
        final int type = envelope.type();
        if (type == TimerFired.TYPE)
        {
            return ActorExtras.admitTimer(mailbox, slot, envelope);
        }
        if (type == Terminated.TYPE)
        {
            return ctx.system().deathWatch().onTerminated(mailbox, slot, envelope);
        }
        if (type == Undelivered.TYPE)
        {
            return ctx.system().deathWatch().onUndelivered(mailbox, slot, envelope);
        }
        if (type == WatchRequest.TYPE)
        {
            return ctx.system().deathWatch().onRequest(mailbox, slot, envelope);
        }
        if (type != Stops.TYPE || envelope.isSerialized() || !(envelope.event() instanceof Stops.StopRequest request))
        {
            return envelope; // not the runtime's own (another event of the type id): the behaviour's, as it was
        }
        if (Stops.allowed(mailbox, slot, request, counters))
        {
            ctx.begin(slot, envelope);
            ctx.passAway();
            ctx.end();
            envelope.settleHandled(); // the context repaid its cost
        }
        else
        {
            envelope.settle();
        }
        return null;
    }

    /**
     * Hands one event to its actor's behaviour (a failure is caught by the caller, as before this hook existed: with
     * the try/catch here C2 sometimes refused to inline it, "callee uses too much stack", and ping-pong lost ~5%).
     */
    void receive(final ContextImpl ctx, final Behavior behavior, final Envelope envelope)
    {
        behavior.receive(ctx, envelope);
    }

    final void onFailure(final ContextImpl ctx, final Envelope envelope, final Throwable error,
        final Behavior behavior)
    {
        if (recorder != null)
        {
            try
            {
                // by behaviour class, not actor: a thousand actors of one kind failing alike are one entry
                recorder.onError(new AgentFailure("node " + nodeId + ": handler of " +
                    (behavior == null ? "?" : behavior.getClass().getName()) + " failed", error));
            }
            catch (final RuntimeException ignore)
            {
                // the failure is counted below; a failing recorder must not stop the mailbox
            }
        }
        // counted after it is recorded: whoever reads the counter at n finds the n-th failure in the error log too
        counters.increment(SystemCounter.HANDLER_FAILURES);
        try
        {
            failureHandler.onFailure(ctx.self(), envelope, error);
        }
        catch (final Throwable ignore)
        {
            // a failing failure handler must not stop the mailbox; the failure is already counted
        }
    }

    /**
     * The memory quota reclaimed this mailbox: everything queued is dropped (tracked events reported to their
     * senders as COLLAPSED, the rest counted), every actor on it is told with {@link MailboxCollapsed}, and
     * the mailbox joins its account again.
     */
    private int collapse(
        final Mailbox mailbox, final MailboxMemory memory, final ContextImpl ctx, final Worker worker,
        final long alreadyDropped)
    {
        final long dropped = alreadyDropped + drain(mailbox, worker, UndeliveredReason.COLLAPSED);
        memory.rejoin();
        counters.increment(SystemCounter.MAILBOXES_COLLAPSED);
        final List<ActorId> actors = mailbox.actorIds(ctx.nodeId());
        for (final ActorId actor : actors)
        {
            deliver(ctx, mailbox, new Envelope(actor, ActorId.NONE, MailboxCollapsed.TYPE, 0, 0L,
                new MailboxCollapsed(actor, dropped), null), worker);
            if (ctx.retired())
            {
                drain(mailbox, worker, UndeliveredReason.ACTOR_UNKNOWN);
                break;
            }
        }
        return actors.size();
    }

    /**
     * Takes everything queued down the non-delivery path: the last actor passed away (ACTOR_UNKNOWN) or the
     * memory quota collapsed the mailbox (COLLAPSED).
     *
     * @return the number of events taken.
     */
    private long drain(final Mailbox mailbox, final Worker worker, final UndeliveredReason reason)
    {
        long count = 0;
        QueueLink node;
        while ((node = mailbox.poll()) != null)
        {
            count++;
            router.undeliverable((Envelope)node, reason, worker);
        }
        return count;
    }
}
