package io.troupe.actor.internal;

import io.troupe.actor.Envelope;
import io.troupe.actor.internal.mailbox.Mailbox;

/**
 * The runtime's state of an actor that only some actors need, kept with it on its mailbox
 * ({@link Mailbox#attachment}) and made on first use: its keyed timers, and its side of death watch. Only the thread
 * running the actor's handler touches it.
 */
final class ActorExtras
{
    private ActorTimers timers;
    private ActorWatches watches;

    private ActorExtras()
    {
    }

    /** The actor's keyed timers, made on first use. */
    static ActorTimers timers(final Mailbox mailbox, final int slot, final ContextImpl ctx)
    {
        final ActorExtras extras = of(mailbox, slot);
        if (extras.timers == null)
        {
            extras.timers = new ActorTimers(ctx.system(), mailbox.self(slot, ctx.nodeId()));
        }
        return extras.timers;
    }

    /** The actor's side of death watch, made on first use. */
    static ActorWatches watches(final Mailbox mailbox, final int slot)
    {
        final ActorExtras extras = of(mailbox, slot);
        if (extras.watches == null)
        {
            extras.watches = new ActorWatches();
        }
        return extras.watches;
    }

    /** The actor's side of death watch, or null if it never watched nor was watched. */
    static ActorWatches existingWatches(final Mailbox mailbox, final int slot)
    {
        final ActorExtras extras = (ActorExtras)mailbox.attachment(slot);
        return extras == null ? null : extras.watches;
    }

    private static ActorExtras of(final Mailbox mailbox, final int slot)
    {
        final Object attached = mailbox.attachment(slot);
        if (attached != null)
        {
            return (ActorExtras)attached;
        }
        final ActorExtras extras = new ActorExtras();
        mailbox.attach(slot, extras);
        return extras;
    }

    /**
     * What the behaviour gets of a fired keyed timer's envelope (settled here): the actor's event, or null if its
     * timer was replaced or cancelled, or the actor has none; an envelope of the type that holds no timer's event is
     * the behaviour's as it is.
     */
    static Envelope admitTimer(final Mailbox mailbox, final int slot, final Envelope fired)
    {
        if (fired.isSerialized() || !(fired.event() instanceof TimerFired timer))
        {
            return fired; // the type id with another event (none of this runtime's): the behaviour's, as it was
        }
        final ActorExtras extras = (ActorExtras)mailbox.attachment(slot);
        if (extras == null || extras.timers == null)
        {
            fired.settle();
            return null;
        }
        return extras.timers.admit(fired, timer);
    }

    /** The actor passes away: its timers end with it, its watchers are told, what it watched is unwatched. */
    static void onPassAway(final Mailbox mailbox, final int slot, final ContextImpl ctx)
    {
        final ActorExtras extras = (ActorExtras)mailbox.attachment(slot);
        if (extras == null)
        {
            return;
        }
        if (extras.timers != null)
        {
            extras.timers.cancelAll();
        }
        if (extras.watches != null)
        {
            ctx.system().deathWatch().onPassAway(extras.watches, mailbox.self(slot, ctx.nodeId()), ctx.worker);
        }
    }
}
