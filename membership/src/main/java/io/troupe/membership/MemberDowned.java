package io.troupe.membership;

import io.troupe.membership.table.Member;

/**
 * A member was downed (its lease lapsed, an operator downed it, or its restart replaced it): its incarnation is gone
 * for good. Delivered on this node only (subscribe with {@link Membership#subscribe}), in epoch order.
 *
 * @param member the member, its status and the epoch of the change ({@link Member#sinceEpoch()}).
 */
public record MemberDowned(Member member)
{
}
