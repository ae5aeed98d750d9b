package io.troupe.actor;

/**
 * Why a watched actor is gone ({@link Terminated#reason()}).
 */
public enum TerminationReason
{
    /** It passed away: by its own choice, or stopped by its parent or its node's system. */
    PASSED_AWAY,
    /** It was not alive when the watch reached it: gone before, or never registered (or its node restarted since). */
    NOT_ALIVE,
    /** Its node shut down. */
    NODE_STOPPED,
    /** Its node was downed or left the cluster (the membership says so), or was removed from this node's peers. */
    NODE_DOWNED,
    /** Its node came back as a new incarnation: every actor of the old one is gone. */
    NODE_RESTARTED
}
