package io.troupe.membership;

import io.troupe.membership.table.Member;

/**
 * A member is up: it serves (or a subscriber learns, when it subscribes, of each member up then). Delivered on this
 * node only (subscribe with {@link Membership#subscribe}), in epoch order.
 *
 * @param member the member, its status and the epoch of the change ({@link Member#sinceEpoch()}).
 */
public record MemberUp(Member member)
{
}
