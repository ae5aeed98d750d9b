package io.troupe.actor.internal;

import io.troupe.actor.Envelope;
import io.troupe.actor.internal.mailbox.Mailbox;

/**
 * The runtime's state of an actor that only some actors need, kept with it on its mailbox
 * ({@link Mailbox#attachment}) and made on first use: its keyed timers. Only the thread running the actor's handler
 * touches it.
 */
final class ActorExtras
{
    private ActorTimers timers;

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
     * timer was replaced or cancelled, or the actor has none.
     */
    static Envelope admitTimer(final Mailbox mailbox, final int slot, final Envelope fired)
    {
        final ActorExtras extras = (ActorExtras)mailbox.attachment(slot);
        if (extras == null || extras.timers == null)
        {
            fired.settle();
            return null;
        }
        return extras.timers.admit(fired);
    }

    /** The actor passes away: its timers end with it. */
    static void onPassAway(final Mailbox mailbox, final int slot)
    {
        final ActorExtras extras = (ActorExtras)mailbox.attachment(slot);
        if (extras != null && extras.timers != null)
        {
            extras.timers.cancelAll();
        }
    }
}
