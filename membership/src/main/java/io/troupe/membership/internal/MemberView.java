package io.troupe.membership.internal;

import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A node's copy of the member table, kept in step from what the service tells it: each change in epoch order, or a
 * whole table when the node connects or has missed a change. It reports each change once, in epoch order, as the
 * member's new state; a member that a newer whole table no longer has is reported as gone (left if it was leaving,
 * else down: the table does not say which). Owned by the membership thread.
 */
final class MemberView
{
    /** What applying a notice did. */
    enum Applied
    {
        /** The view changed; the changes are in the list given. */
        CHANGED,
        /** Nothing new (an epoch already seen). */
        NOTHING,
        /** A change was missed: the node asks for the whole table. */
        GAP
    }

    private final TreeMap<Integer, Member> members = new TreeMap<>();
    private final List<Member> incoming = new ArrayList<>();
    private long incomingEpoch = -1;
    private long epoch = -1;

    /**
     * The view's epoch.
     *
     * @return -1 before the first table.
     */
    long epoch()
    {
        return epoch;
    }

    /**
     * The live members, in node id order.
     *
     * @return a read-only view.
     */
    Collection<Member> members()
    {
        return Collections.unmodifiableCollection(members.values());
    }

    /**
     * A live member.
     *
     * @param nodeId its id.
     * @return it, or null.
     */
    Member member(final int nodeId)
    {
        return members.get(nodeId);
    }

    /**
     * A change from the service.
     *
     * @param member  the member's new state, at {@code member.sinceEpoch()}.
     * @param changes where the change is added if applied.
     * @return what it did.
     */
    Applied changed(final Member member, final List<Member> changes)
    {
        if (epoch < 0 || member.sinceEpoch() > epoch + 1)
        {
            return Applied.GAP;
        }
        if (member.sinceEpoch() <= epoch)
        {
            return Applied.NOTHING;
        }
        epoch = member.sinceEpoch();
        if (member.status().isLive())
        {
            members.put(member.nodeId(), member);
        }
        else
        {
            members.remove(member.nodeId());
        }
        changes.add(member);
        return Applied.CHANGED;
    }

    /**
     * One member of a whole table.
     *
     * @param tableEpoch the table's epoch.
     * @param member     the member.
     */
    void tableMember(final long tableEpoch, final Member member)
    {
        if (tableEpoch != incomingEpoch)
        {
            incoming.clear();
            incomingEpoch = tableEpoch;
        }
        incoming.add(member);
    }

    /**
     * The end of a whole table: it replaces the view if it is whole and not older.
     *
     * @param tableEpoch  its epoch.
     * @param memberCount how many members it has.
     * @param changes     where the differences to the view are added, in node id order.
     * @return what it did ({@link Applied#GAP} if members went missing on the way).
     */
    Applied tableEnd(final long tableEpoch, final int memberCount, final List<Member> changes)
    {
        final List<Member> table = tableEpoch == incomingEpoch ? new ArrayList<>(incoming) : List.of();
        incoming.clear();
        incomingEpoch = -1;
        if (table.size() != memberCount)
        {
            return Applied.GAP;
        }
        if (tableEpoch < epoch || (tableEpoch == epoch && epoch >= 0))
        {
            return Applied.NOTHING;
        }
        final Map<Integer, Member> before = new TreeMap<>(members);
        members.clear();
        for (final Member member : table)
        {
            members.put(member.nodeId(), member);
            final Member old = before.remove(member.nodeId());
            if (old != null && old.incarnation() != member.incarnation())
            {
                changes.add(old.with(MemberStatus.DOWN, member.sinceEpoch())); // replaced by a newer incarnation
            }
            if (!member.equals(old))
            {
                changes.add(member);
            }
        }
        for (final Member gone : before.values())
        {
            changes.add(gone.with(gone.status() == MemberStatus.LEAVING ? MemberStatus.LEFT : MemberStatus.DOWN,
                tableEpoch));
        }
        epoch = tableEpoch;
        return changes.isEmpty() ? Applied.NOTHING : Applied.CHANGED;
    }
}
