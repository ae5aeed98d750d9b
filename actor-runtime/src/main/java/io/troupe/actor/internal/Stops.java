package io.troupe.actor.internal;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.SystemCounter;
import io.troupe.actor.internal.mailbox.Mailbox;
import io.troupe.actor.internal.mailbox.MailboxTable;

import java.util.Objects;

/**
 * Stopping an actor from outside it: only the actor that registered it (its parent) or its own node's system may.
 * A request is an event of a system type with no codec, so it never comes over the wire; it waits in the actor's
 * mailbox behind what was sent before it, and the dispatcher, on the actor's thread, checks the requester against the
 * actor's parent again and makes the actor pass away. A request from anyone else is refused and counted
 * ({@link SystemCounter#STOPS_REFUSED}).
 */
final class Stops
{
    /** The request's type id, in the system space: right after {@link TimerFired#TYPE}, the dispatcher checks both. */
    static final int TYPE = TimerFired.TYPE + 1; // EventTypes.typeId(SPACE_SYSTEM, 7)

    /**
     * A request to stop the actor it is sent to.
     *
     * @param requester the actor asking (it must be the target's parent), or null for the target's own system.
     */
    record StopRequest(ActorId requester)
    {
    }

    private final Router router;
    private final MailboxTable table;
    private final RuntimeCounters counters;

    Stops(final Router router, final MailboxTable table, final RuntimeCounters counters)
    {
        this.router = router;
        this.table = table;
        this.counters = counters;
    }

    /**
     * Asks a local actor to stop.
     *
     * @param target    the actor.
     * @param requester its parent, or null for its system.
     * @return false if the target is not a live local actor, or the requester is not its parent (counted).
     */
    boolean request(final ActorId target, final ActorId requester)
    {
        Objects.requireNonNull(target, "actor");
        if (target.isService() || !router.isLocal(target.nodeId()))
        {
            counters.increment(SystemCounter.STOPS_REFUSED); // by name or on another node: never
            return false;
        }
        final Mailbox mailbox = table.get(target.hint());
        final int slot = mailbox == null || mailbox.poolId() != target.poolId() ? Mailbox.NO_SLOT :
            mailbox.findSlot(target.localId());
        if (slot == Mailbox.NO_SLOT)
        {
            return false; // gone already
        }
        // the primary actor's parent is published with its id; a shared mailbox's actors are checked on delivery
        if (requester != null && slot == Mailbox.PRIMARY && !requester.equals(mailbox.parent(slot)))
        {
            counters.increment(SystemCounter.STOPS_REFUSED);
            return false;
        }
        router.route(new Envelope(target, requester == null ? ActorId.NONE : requester, TYPE, 0, 0L,
            new StopRequest(requester), null), null);
        return true;
    }

    /**
     * On the target's thread: whether a request delivered to it may stop it; one that may not is counted.
     *
     * @param mailbox  the target's mailbox.
     * @param slot     the target's slot.
     * @param request  the request delivered to it.
     * @param counters where refusals are counted.
     * @return true to make the actor pass away.
     */
    static boolean allowed(final Mailbox mailbox, final int slot, final StopRequest request,
        final RuntimeCounters counters)
    {
        if (request.requester() == null || request.requester().equals(mailbox.parent(slot)))
        {
            return true;
        }
        counters.increment(SystemCounter.STOPS_REFUSED);
        return false;
    }
}
