package io.troupe.actor;

/**
 * Notice that a tracked event was not delivered. It arrives at the original sender with the original
 * recipient as its sender, the original cookie, and type {@link #TYPE}.
 *
 * @param recipient the id the event was last addressed to: the actor a service id was rewritten to, or the
 *                  forward target when the event was forwarded.
 * @param type      the event's type id.
 * @param cookie    the event's cookie.
 * @param reason    why it was not delivered.
 * @param unsure    true when the event may have been handled anyway (e.g. a session ended before an ack).
 */
public record Undelivered(ActorId recipient, int type, long cookie, UndeliveredReason reason, boolean unsure)
{
    /** Type id of the notice, in the system space. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_SYSTEM, 1);
}
