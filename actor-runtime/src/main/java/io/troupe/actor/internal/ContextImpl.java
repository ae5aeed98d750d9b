package io.troupe.actor.internal;

import io.troupe.actor.internal.layout.LinePadding;
import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorRef;
import io.troupe.actor.Behavior;
import io.troupe.actor.Cancellable;
import io.troupe.actor.Timers;
import io.troupe.actor.TypedBehavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.WirePayload;
import io.troupe.actor.EventTypes;
import io.troupe.actor.NodeDisconnected;
import io.troupe.actor.SchedulerCookie;
import io.troupe.actor.spi.RemoteTransport;

import io.troupe.actor.internal.executor.Worker;
import io.troupe.actor.Chargeable;
import io.troupe.actor.CreditAccount;
import io.troupe.actor.FlowControl;
import io.troupe.actor.FlowControlConfig;
import io.troupe.actor.internal.mailbox.Mailbox;
import io.troupe.actor.MailboxType;
import io.troupe.memquota.Account;

import java.time.Duration;
import java.util.Objects;

/** The context's per-event fields, written on every event by its worker thread. */
abstract class ContextFields extends LinePadding
{
    Mailbox mailbox;
    int slot;
    Envelope current;
    boolean passAwayRequested;
    boolean retired;
    /** The account the current event was charged to, whose repayment this context took over; or null. Kept
     * after the handler returns (and overwritten only when the next event's differs); read only during one. */
    Chargeable creditAccount;
    /** What is left of the current event's cost: sends charged to its account draw on it first. */
    long credit;
    /** The account the handler chose for its sends ({@link ActorContext#chargeTo}), or null. */
    Chargeable chargeTo;
    /** The account of the repayments this activation has held back so far, or null. */
    Chargeable heldAccount;
    /** What is held back for {@link #heldAccount}: paid when the account changes or the activation ends. */
    long heldRepayment;
    // read on every event too, so inside the padding: the final class's own fields would come after it
    final LocalActorSystem system;
    final Router router;
    final Worker worker;
    final int nodeId;
    final FlowControl flow;
    final boolean flowEnabled;
    /** The cost of every event type when no type has its own ({@link FlowControl#costOf}), else -1. */
    final int uniformCost;

    ContextFields(final LocalActorSystem system, final Router router, final Worker worker)
    {
        this.system = system;
        this.router = router;
        this.worker = worker;
        this.nodeId = system.nodeId();
        this.flow = system.flow();
        this.flowEnabled = flow.isEnabled();
        this.uniformCost = flow.uniformCost();
    }
}

/** 128 bytes behind the context's fields. */
abstract class ContextPadRight extends ContextFields
{
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

    ContextPadRight(final LocalActorSystem system, final Router router, final Worker worker)
    {
        super(system, router, worker);
    }
}

/**
 * The {@link ActorContext} of one worker thread, rebound to each event it hands to an actor. Padded: each
 * worker writes its context on every event.
 *
 * <p>Credit: the context takes over the repayment of the event it hands out. A send charged to that event's
 * account first draws on the event's own cost, and only the rest is charged; what is left of the cost is
 * repaid when the handler returns. The totals are those of charging every send and repaying the event after
 * the handler, with one atomic operation less per hop on a chain of events (ping-pong costs none).
 *
 * <p>Repayments are batched: what is left of each event's cost is added to a repayment held for its account,
 * and paid in one add when an event of another account comes or the activation ends (an activation handles at
 * most {@code eventsPerActivation} events). So a worker draining a queue of one source's events (fan-in) repays
 * once per activation, not once per event, and an account's debt overstates what is outstanding by at most the
 * cost of the events this worker has handled in its current activation.
 */
final class ContextImpl extends ContextPadRight implements ActorContext
{
    ContextImpl(final LocalActorSystem system, final Router router, final Worker worker)
    {
        super(system, router, worker);
    }

    void enter(final Mailbox mailbox)
    {
        this.mailbox = mailbox;
        this.retired = false;
    }

    void begin(final int slot, final Envelope envelope)
    {
        this.slot = slot;
        this.current = envelope;
        final Chargeable account = envelope.accountToRepay();
        if (account != creditAccount)
        {
            // a stream of one source's events (fan-in) stores nothing here, and pays no GC write barrier
            creditAccount = account;
        }
        this.credit = account == null ? 0 : envelope.cost();
    }

    void end()
    {
        final ActorId passingAway = passAwayRequested ? mailbox.self(slot, nodeId) : null;
        current = null;
        chargeTo = null;
        final long left = credit;
        if (left != 0)
        {
            // creditAccount stays set for the next event's comparison; it is only read during a handler
            holdRepayment(creditAccount, left);
            credit = 0;
        }
        if (passAwayRequested)
        {
            passAwayRequested = false;
            ActorExtras.onPassAway(mailbox, slot, this);
            system.registry().onPassedAway(passingAway);
            retired = mailbox.remove(slot);
        }
    }

    void exit()
    {
        payHeldRepayment();
        mailbox = null;
        retired = false;
    }

    private void holdRepayment(final Chargeable account, final long amount)
    {
        if (account != heldAccount)
        {
            payHeldRepayment();
            heldAccount = account;
        }
        heldRepayment += amount;
    }

    /** Pays what this activation held back; called when it ends, so nothing is held while the worker idles. */
    private void payHeldRepayment()
    {
        final Chargeable account = heldAccount;
        if (account != null)
        {
            heldAccount = null;
            final long amount = heldRepayment;
            heldRepayment = 0;
            account.repay(amount);
        }
    }

    int nodeId()
    {
        return nodeId;
    }

    boolean retired()
    {
        return retired;
    }

    /** Whether the running mailbox is about to finish: then a mailbox activated now may run next here. */
    boolean currentFinishing()
    {
        final Mailbox running = mailbox;
        return running != null && !running.hasPending();
    }

    private Envelope current()
    {
        final Envelope envelope = current;
        if (envelope == null)
        {
            throw new IllegalStateException("ActorContext used outside Behavior.receive");
        }
        return envelope;
    }

    @Override
    public ActorId self()
    {
        current();
        return mailbox.self(slot, nodeId);
    }

    @Override
    public LocalActorSystem system()
    {
        return system;
    }

    @Override
    public void send(final ActorId recipient, final Object event)
    {
        send(recipient, event, 0, 0, 0L);
    }

    @Override
    public void send(final ActorId recipient, final Object event, final int type, final int flags, final long cookie)
    {
        Objects.requireNonNull(recipient, "recipient");
        route(new Envelope(recipient, self(), type, flags, cookie, event, null), null, -1);
    }

    @Override
    public void send(
        final ActorId recipient,
        final Object event,
        final int type,
        final int flags,
        final long cookie,
        final Chargeable account,
        final int cost)
    {
        Objects.requireNonNull(recipient, "recipient");
        route(new Envelope(recipient, self(), type, flags, cookie, event, null), account,
            FlowControlConfig.checkCost(cost));
    }

    /**
     * Charges and routes a send of the handler.
     *
     * @param envelope the new envelope.
     * @param account  the account to charge, or null for the default.
     * @param cost     the cost, or -1 for the type's.
     */
    private void route(final Envelope envelope, final Chargeable account, final int cost)
    {
        if (flowEnabled)
        {
            final Chargeable charged = account != null ? account : account();
            final int units = cost >= 0 ? cost : uniformCost >= 0 ? uniformCost : flow.costOf(envelope.type());
            if (charged == creditAccount && credit > 0)
            {
                // draw on the handled event's own cost before charging more
                final long drawn = Math.min(units, credit);
                credit -= drawn;
                if (units > drawn)
                {
                    charged.charge(units - drawn);
                }
            }
            else
            {
                charged.charge(units);
            }
            envelope.carryCharge(charged, units);
        }
        router.route(envelope, worker);
    }

    @Override
    public Chargeable account()
    {
        current();
        final Chargeable chosen = chargeTo;
        if (chosen != null)
        {
            return chosen;
        }
        final Chargeable handled = creditAccount;
        return handled != null ? handled : flow.nodeAccount();
    }

    @Override
    public void chargeTo(final Chargeable account)
    {
        current();
        chargeTo = account;
    }

    @Override
    public boolean ensureClearFunds(final CreditAccount account)
    {
        return !flowEnabled || account.ensureClearFunds(self());
    }

    @Override
    public void send(
        final ActorId recipient,
        final Object event,
        final int type,
        final int flags,
        final long cookie,
        final ActorId forwardTo)
    {
        Objects.requireNonNull(recipient, "recipient");
        Objects.requireNonNull(forwardTo, "forwardTo");
        route(new Envelope(recipient, self(), type, flags | Envelope.FLAG_FORWARD_ON_NONDELIVERY, cookie, event,
            forwardTo), null, -1);
    }

    @Override
    public void reply(final Object event)
    {
        final Envelope envelope = current();
        send(envelope.sender(), event, replyType(envelope, event), 0, envelope.cookie());
    }

    /**
     * The request's type if the reply is of the request's class (an echo); otherwise the reply is typed by its
     * class ({@link EventTypes#BY_CLASS}), so that a reply of another class finds its own codec when it crosses
     * nodes. A serialized request that nobody decoded is not decoded for this: its reply is typed by class.
     */
    private static int replyType(final Envelope envelope, final Object reply)
    {
        final int requestType = envelope.type();
        if (requestType == EventTypes.BY_CLASS || reply == null)
        {
            return requestType;
        }
        final WirePayload payload = envelope.payload();
        final Object request = payload == null ? envelope.event() : payload.isDecoded() ? payload.event() : null;
        return request != null && request.getClass() == reply.getClass() ? requestType : EventTypes.BY_CLASS;
    }

    @Override
    public void become(final Behavior next)
    {
        current();
        mailbox.become(slot, Objects.requireNonNull(next, "behavior"));
    }

    @Override
    public ActorId register(final Behavior behavior)
    {
        return system.registerChild(behavior, mailbox.poolId(), MailboxType.SIMPLE, null, self());
    }

    @Override
    public ActorId register(final Behavior behavior, final int poolId, final MailboxType type)
    {
        return system.registerChild(behavior, poolId, type, null, self());
    }

    @Override
    public ActorId register(final Behavior behavior, final int poolId, final MailboxType type, final Account account)
    {
        return system.registerChild(behavior, poolId, type, Objects.requireNonNull(account, "account"), self());
    }

    @Override
    public <T> ActorRef<T> spawn(final Class<T> eventType, final TypedBehavior<T> behavior)
    {
        return system.spawnChild(eventType, behavior, self());
    }

    @Override
    public boolean stop(final ActorId child)
    {
        return system.stopChild(child, self());
    }

    @Override
    public ActorId registerOnOwnMailbox(final Behavior behavior)
    {
        return registerOnOwnMailbox(behavior, system.registry().nextLocalId());
    }

    /** Registers a reply slot of the handling actor on its mailbox: it runs in the asker's turns. */
    ActorId registerReplySlot(final Behavior behavior)
    {
        return registerOnOwnMailbox(behavior, system.registry().nextLocalId() | ReplySlots.BIT);
    }

    private ActorId registerOnOwnMailbox(final Behavior behavior, final long localId)
    {
        current();
        Objects.requireNonNull(behavior, "behavior");
        mailbox.addActor(localId, behavior, mailbox.self(slot, nodeId));
        system.registry().onRegistered();
        return ActorId.fromRaw(localId, mailbox.self(slot, nodeId).raw2());
    }

    /** Sends, charged like any send of this handler, on behalf of another actor (a reply slot) of this mailbox:
     * replies and notices go to it. */
    void sendAs(final ActorId sender, final ActorId recipient, final Object event, final int flags)
    {
        Objects.requireNonNull(recipient, "recipient");
        route(new Envelope(recipient, sender, 0, flags, 0L, event, null), null, -1);
    }

    /** The envelope being handled. */
    Envelope envelope()
    {
        return current();
    }

    @Override
    public void schedule(final Duration delay, final Object event)
    {
        schedule(delay, event, 0, null);
    }

    @Override
    public void schedule(final Duration delay, final Object event, final int type, final SchedulerCookie cookie)
    {
        final ActorId self = self();
        system.scheduleTimer(delay.toNanos(), new Envelope(self, self, type, 0, 0L, event, null), cookie);
    }

    @Override
    public Cancellable scheduleOnce(final Duration delay, final ActorId recipient, final Object event, final int type)
    {
        return system.scheduleFrom(self(), delay, null, recipient, event, type, 0, null);
    }

    @Override
    public Cancellable scheduleAtFixedRate(final Duration initialDelay, final Duration interval,
        final ActorId recipient, final Object event, final int type)
    {
        return system.scheduleFrom(self(), initialDelay, Objects.requireNonNull(interval, "interval"), recipient, event,
            type, 0, null);
    }

    @Override
    public void watch(final ActorId target)
    {
        system.deathWatch().watch(mailbox, slot, self(), target, worker);
    }

    @Override
    public void unwatch(final ActorId target)
    {
        system.deathWatch().unwatch(mailbox, slot, self(), target, worker);
    }

    @Override
    public Timers timers()
    {
        current();
        return ActorExtras.timers(mailbox, slot, this);
    }

    @Override
    public void subscribeToNode(final int nodeId)
    {
        final RemoteTransport transport = system.remote();
        if (transport == null)
        {
            send(self(), new NodeDisconnected(nodeId), NodeDisconnected.TYPE, 0, 0L);
            return;
        }
        transport.subscribe(nodeId, self());
    }

    @Override
    public void unsubscribeFromNode(final int nodeId)
    {
        final RemoteTransport transport = system.remote();
        if (transport != null)
        {
            transport.unsubscribe(nodeId, self());
        }
    }

    @Override
    public void passAway()
    {
        current();
        passAwayRequested = true;
    }
}
