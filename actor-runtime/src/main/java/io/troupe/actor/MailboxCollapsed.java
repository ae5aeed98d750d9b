package io.troupe.actor;

/**
 * Tells an actor that the memory quota collapsed its mailbox: everything queued was dropped (tracked events
 * were reported to their senders as {@link UndeliveredReason#COLLAPSED}). The actor stays alive and its
 * mailbox accepts events again; it should recover, e.g. reset the session whose data was lost.
 *
 * @param actor   the actor told.
 * @param dropped how many queued events were dropped.
 */
public record MailboxCollapsed(ActorId actor, long dropped)
{
    /** Type id of the event, in the system space. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_SYSTEM, 3);
}
