package io.troupe.membership.internal;

import io.troupe.membership.table.Member;

/** What a node hears from its {@link MembershipClient}, on the client's thread. */
public interface ClientListener
{
    /**
     * The service recorded this node as joining: it may start serving, then call {@link MembershipClient#ready()}.
     *
     * @param nodeId its node id (assigned, if it asked for none).
     * @param epoch  the table's epoch.
     */
    void onJoined(int nodeId, long epoch);

    /**
     * A member's status changed (this node's own included), in epoch order.
     *
     * @param member the member's new state.
     */
    void onChange(Member member);

    /**
     * The node cannot be a member: its join was refused, or no voter answered in time.
     *
     * @param why a message for the operator.
     */
    void onRefused(String why);

    /**
     * The node must stop now: it could not renew its lease in time, or the service downed it.
     *
     * @param why a message for the operator.
     */
    void onLeaseLost(String why);
}
