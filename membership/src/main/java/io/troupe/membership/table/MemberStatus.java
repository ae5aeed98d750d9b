package io.troupe.membership.table;

/**
 * Where a member is in its life, as the membership service records it. A node id's incarnation goes
 * {@code JOINING -> UP -> (LEAVING ->) LEFT}, or to {@code DOWN} from any live status; {@code LEFT} and {@code DOWN}
 * are final: that incarnation never comes back, the node restarts as a new incarnation and joins again.
 */
public enum MemberStatus
{
    /** Recorded, sessions being opened; not yet serving. */
    JOINING,
    /** Serving. */
    UP,
    /** Leaving gracefully: draining its work; still reachable. */
    LEAVING,
    /** Gone after a graceful leave. Final. */
    LEFT,
    /** Downed: its lease lapsed or an operator downed it. Final. */
    DOWN;

    /**
     * Whether a member in this status is part of the cluster (peers keep a session to it).
     *
     * @return true for {@link #JOINING}, {@link #UP} and {@link #LEAVING}.
     */
    public boolean isLive()
    {
        return this == JOINING || this == UP || this == LEAVING;
    }
}
