package io.troupe.membership;

import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;

/**
 * What a node's membership tells the node, on the membership's thread: keep the handling short (hand work to the
 * node's own threads).
 */
public interface MembershipEvents
{
    /**
     * A member's status changed (this node's own included), in epoch order: {@link MemberStatus#JOINING} and
     * {@link MemberStatus#UP} are members to keep a session with, {@link MemberStatus#LEFT} and
     * {@link MemberStatus#DOWN} members gone for good.
     *
     * @param member the member as it is now.
     */
    void onChange(Member member);

    /**
     * The node must stop now: it could not renew its lease in time (cut off from the voters' majority), or the
     * service downed it. Nothing the node does after this may be seen as the cluster's.
     *
     * @param why a message for the operator.
     */
    void onLeaseLost(String why);
}
