package io.troupe.membership;

import io.troupe.membership.table.Member;

/**
 * A member left gracefully: its incarnation is gone for good. Delivered on this node only (subscribe with {@link
 * Membership#subscribe}), in epoch order.
 *
 * @param member the member, its status and the epoch of the change ({@link Member#sinceEpoch()}).
 */
public record MemberLeft(Member member)
{
}
