package io.troupe.actor;

/**
 * Why an event was not delivered.
 */
public enum UndeliveredReason
{
    /** No actor with that id (it passed away, never existed, or a service id has no mapping). */
    ACTOR_UNKNOWN,
    /** The recipient's node is not connected. */
    DISCONNECTED,
    /** The queue holding the event was collapsed by the memory quota. */
    COLLAPSED,
    /** Load shedding dropped the event. */
    SHED,
    /** The node shut down before the event was handled. */
    SHUTDOWN,
    /**
     * The receiving node refused the event at its door: a type its sender may not send (a client sending a system
     * event), larger than the node takes, or not decodable. Never retried: the same event is refused again.
     */
    REFUSED
}
