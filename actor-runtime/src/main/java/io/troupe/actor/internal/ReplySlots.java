package io.troupe.actor.internal;

import io.troupe.actor.ActorId;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredException;

import java.util.concurrent.TimeoutException;

/**
 * The ids of reply slots: the short-lived actors that stand in for an asker until the first outcome of its ask.
 * Their local ids have the top bit set (ordinary local ids count up from the start's
 * {@link ActorId#firstLocalId first local id}, below 2^63, and never reach it), so that an event
 * for a slot that is already freed is recognised as a late reply, dropped and counted, rather than reported to
 * its sender as undelivered.
 */
final class ReplySlots
{
    static final long BIT = 1L << 63;

    /** The event a reply slot's timer delivers. */
    static final Object TIMEOUT = new Object()
    {
        @Override
        public String toString()
        {
            return "AskTimeout";
        }
    };

    private ReplySlots()
    {
    }

    static boolean isReplySlot(final ActorId id)
    {
        return id.isReplySlot();
    }

    /**
     * How an ask ends on the first event its slot receives, the same for an outside ask and an actor's.
     *
     * @return null for a reply of the type asked for; otherwise the failure: a timeout, what the send threw, the
     *     {@link Undelivered} notice, or a reply of another type.
     */
    static Throwable failureOf(final Object event, final ActorId target, final Class<?> replyType, final Object timeout)
    {
        if (event == TIMEOUT)
        {
            return new TimeoutException("no reply from " + target + " within " + timeout);
        }
        if (event instanceof SendFailed)
        {
            return ((SendFailed)event).failure();
        }
        if (event instanceof Undelivered)
        {
            return new UndeliveredException((Undelivered)event);
        }
        if (replyType.isInstance(event))
        {
            return null;
        }
        return new ClassCastException("the reply from " + target + " is a " +
            (event == null ? "null" : event.getClass().getName()) + ", not the " + replyType.getName() + " asked for");
    }

    /** Tells a reply slot that its request could not be sent, so that it ends its ask with the failure. */
    record SendFailed(Throwable failure)
    {
    }
}
