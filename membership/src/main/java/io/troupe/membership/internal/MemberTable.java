package io.troupe.membership.internal;

import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import io.troupe.membership.internal.sbe.ReplyCode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The member table: the state of the membership service's state machine, the same on every voter because every
 * change is made by a command taken from Aeron Cluster's log, with the log's timestamp as the only clock. Members
 * are kept in node id order, so that a lease check that downs several members downs them in the same order
 * everywhere. Owned by the clustered service's thread.
 *
 * <p>Every change of a member's status raises the epoch by one; renewals do not. A member that left or was downed
 * is removed from the table and its incarnation remembered as ended, so that it can never come back: its node
 * joins again as a greater incarnation.
 */
public final class MemberTable
{
    /** The largest node id: the bits an {@code ActorId} has for it. */
    public static final int MAX_NODE_ID = (1 << 20) - 1;
    /** The longest host name accepted, in UTF-8 bytes. */
    public static final int MAX_HOST_BYTES = 255;

    private final TreeMap<Integer, Entry> members = new TreeMap<>();
    /** The last ended incarnation of each node id, oldest first; the oldest forgotten beyond {@link #endedLimit}. */
    private final LinkedHashMap<Integer, Long> ended = new LinkedHashMap<>();
    private final long leaseMs;
    private final int maxMembers;
    private final int endedLimit;
    private int nextAssignedId;
    private long epoch;

    /** A member and the cluster time of its last renewal. */
    private static final class Entry
    {
        private Member member;
        private long lastRenewedMs;

        private Entry(final Member member, final long lastRenewedMs)
        {
            this.member = member;
            this.lastRenewedMs = lastRenewedMs;
        }
    }

    /**
     * The answer to one command: its code, the node id concerned, why (when not OK) and the members that changed,
     * in the order they changed (each at its own epoch).
     *
     * @param code    OK or why not.
     * @param nodeId  the node id (the assigned one, for a join), 0 if none.
     * @param detail  why, for an operator, or "".
     * @param changes the members whose status changed, oldest first.
     */
    public record Outcome(ReplyCode code, int nodeId, String detail, List<Member> changes)
    {
        static Outcome ok(final int nodeId, final List<Member> changes)
        {
            return new Outcome(ReplyCode.OK, nodeId, "", changes);
        }

        static Outcome refused(final ReplyCode code, final int nodeId, final String detail)
        {
            return new Outcome(code, nodeId, detail, List.of());
        }
    }

    /**
     * An empty table.
     *
     * @param leaseMs         how long a member stays without renewing before it is downed.
     * @param firstAssignedId the first node id the table hands out to joiners that ask for none (ids below are for
     *                        nodes that bring their own, such as the voters).
     * @param maxMembers      the most live members.
     */
    public MemberTable(final long leaseMs, final int firstAssignedId, final int maxMembers)
    {
        if (leaseMs <= 0 || firstAssignedId <= 0 || firstAssignedId > MAX_NODE_ID || maxMembers <= 0)
        {
            throw new IllegalArgumentException("lease " + leaseMs + " ms, first assigned id " + firstAssignedId +
                ", max members " + maxMembers);
        }
        this.leaseMs = leaseMs;
        this.maxMembers = maxMembers;
        this.endedLimit = maxMembers * 4;
        this.nextAssignedId = firstAssignedId;
    }

    /**
     * The epoch: how many status changes the table has seen.
     *
     * @return 0 for an empty table that never changed.
     */
    public long epoch()
    {
        return epoch;
    }

    /**
     * The lease length.
     *
     * @return milliseconds.
     */
    public long leaseMs()
    {
        return leaseMs;
    }

    /**
     * The live members, in node id order.
     *
     * @return a copy.
     */
    public List<Member> members()
    {
        final List<Member> list = new ArrayList<>(members.size());
        for (final Entry entry : members.values())
        {
            list.add(entry.member);
        }
        return list;
    }

    /**
     * When a live member last renewed its lease.
     *
     * @param nodeId the member.
     * @return the cluster time in ms, or -1 if no live member has the id.
     */
    public long lastRenewedMs(final int nodeId)
    {
        final Entry entry = members.get(nodeId);
        return entry == null ? -1 : entry.lastRenewedMs;
    }

    /**
     * A node asks to join.
     *
     * @param nodeId      the id it wants, or 0 for one assigned.
     * @param incarnation its incarnation.
     * @param host        its interconnect host.
     * @param port        its interconnect port.
     * @param nowMs       the cluster time.
     * @return OK with the member's id (and the change, unless this incarnation had joined already), or why not.
     */
    public Outcome join(final int nodeId, final long incarnation, final String host, final int port,
        final long nowMs)
    {
        final String bad = checkJoin(nodeId, incarnation, host, port);
        if (bad != null)
        {
            return Outcome.refused(ReplyCode.BAD_REQUEST, nodeId, bad);
        }
        if (nodeId == 0)
        {
            return joinAssigned(incarnation, host, port, nowMs);
        }
        final Entry entry = members.get(nodeId);
        final Long endedIncarnation = ended.get(nodeId);
        if (entry == null && endedIncarnation != null && incarnation <= endedIncarnation)
        {
            return Outcome.refused(ReplyCode.INCARNATION_ENDED, nodeId, "incarnation " + incarnation + " of node " +
                nodeId + " is not greater than its last, " + endedIncarnation + ", which ended: restart the node");
        }
        if (entry == null)
        {
            return admit(nodeId, incarnation, host, port, nowMs, new ArrayList<>(1));
        }
        final Member current = entry.member;
        if (!current.host().equals(host) || current.port() != port)
        {
            return Outcome.refused(ReplyCode.ID_TAKEN, nodeId, "node id " + nodeId + " is taken by a live member at " +
                current.host() + ":" + current.port() + " (incarnation " + current.incarnation() + ")");
        }
        if (incarnation == current.incarnation())
        {
            // a retry: it joined already. Its lease runs from this join: the node counts it from the send of the
            // join it was answered for, which may be this one
            entry.lastRenewedMs = Math.max(entry.lastRenewedMs, nowMs);
            return Outcome.ok(nodeId, List.of());
        }
        if (incarnation < current.incarnation())
        {
            return Outcome.refused(ReplyCode.INCARNATION_ENDED, nodeId, "incarnation " + incarnation + " of node " +
                nodeId + " is older than the live one, " + current.incarnation());
        }
        // the same address with a greater incarnation: the node restarted before its lease lapsed; the old one is
        // gone for good, downed first, then the new one joins
        final List<Member> changes = new ArrayList<>(2);
        end(entry, MemberStatus.DOWN, changes);
        return admit(nodeId, incarnation, host, port, nowMs, changes);
    }

    private Outcome joinAssigned(final long incarnation, final String host, final int port, final long nowMs)
    {
        for (final Entry entry : members.values())
        {
            final Member member = entry.member;
            if (member.incarnation() == incarnation && member.port() == port && member.host().equals(host))
            {
                entry.lastRenewedMs = Math.max(entry.lastRenewedMs, nowMs); // a retry: as for a node's own id
                return Outcome.ok(member.nodeId(), List.of());
            }
        }
        while (nextAssignedId <= MAX_NODE_ID && (members.containsKey(nextAssignedId) ||
            ended.containsKey(nextAssignedId)))
        {
            nextAssignedId++;
        }
        if (nextAssignedId > MAX_NODE_ID)
        {
            return Outcome.refused(ReplyCode.FULL, 0, "no node id left to assign");
        }
        return admit(nextAssignedId++, incarnation, host, port, nowMs, new ArrayList<>(1));
    }

    private Outcome admit(final int nodeId, final long incarnation, final String host, final int port,
        final long nowMs, final List<Member> changes)
    {
        if (members.size() >= maxMembers)
        {
            return Outcome.refused(ReplyCode.FULL, nodeId, "the cluster has its most members, " + maxMembers);
        }
        final Member member = new Member(nodeId, incarnation, host, port, MemberStatus.JOINING, ++epoch);
        members.put(nodeId, new Entry(member, nowMs));
        changes.add(member);
        return Outcome.ok(nodeId, changes);
    }

    private static String checkJoin(final int nodeId, final long incarnation, final String host, final int port)
    {
        if (nodeId < 0 || nodeId > MAX_NODE_ID)
        {
            return "node id " + nodeId + " out of range 0.." + MAX_NODE_ID;
        }
        if (incarnation <= 0)
        {
            return "incarnation " + incarnation + " is not positive";
        }
        if (port <= 0 || port > 65_535)
        {
            return "port " + port + " out of range 1..65535";
        }
        if (host == null || host.isEmpty() || host.getBytes(StandardCharsets.UTF_8).length > MAX_HOST_BYTES)
        {
            return "host must have 1.." + MAX_HOST_BYTES + " bytes";
        }
        return null;
    }

    /**
     * A joining member is ready to serve: JOINING becomes UP.
     *
     * @param nodeId      the member.
     * @param incarnation its incarnation.
     * @return OK (with the change, if it was joining), or why not.
     */
    public Outcome ready(final int nodeId, final long incarnation)
    {
        final Entry entry = live(nodeId, incarnation);
        if (entry == null)
        {
            return notLive(nodeId, incarnation);
        }
        if (entry.member.status() != MemberStatus.JOINING)
        {
            return Outcome.ok(nodeId, List.of());
        }
        entry.member = entry.member.with(MemberStatus.UP, ++epoch);
        return Outcome.ok(nodeId, List.of(entry.member));
    }

    /**
     * A member renews its lease.
     *
     * @param nodeId      the member.
     * @param incarnation its incarnation.
     * @param nowMs       the cluster time.
     * @return OK, or why not (an ended incarnation learns here that it must stop).
     */
    public Outcome renew(final int nodeId, final long incarnation, final long nowMs)
    {
        final Entry entry = live(nodeId, incarnation);
        if (entry == null)
        {
            return notLive(nodeId, incarnation);
        }
        entry.lastRenewedMs = Math.max(entry.lastRenewedMs, nowMs);
        return Outcome.ok(nodeId, List.of());
    }

    /**
     * A member leaves: first LEAVING (it drains), then, {@code done}, LEFT.
     *
     * @param nodeId      the member.
     * @param incarnation its incarnation.
     * @param done        whether it has finished and goes now.
     * @return OK with the change, or why not.
     */
    public Outcome leave(final int nodeId, final long incarnation, final boolean done)
    {
        final Entry entry = live(nodeId, incarnation);
        if (entry == null)
        {
            return notLive(nodeId, incarnation);
        }
        final List<Member> changes = new ArrayList<>(1);
        if (done)
        {
            end(entry, MemberStatus.LEFT, changes);
        }
        else if (entry.member.status() != MemberStatus.LEAVING)
        {
            entry.member = entry.member.with(MemberStatus.LEAVING, ++epoch);
            changes.add(entry.member);
        }
        return Outcome.ok(nodeId, changes);
    }

    /**
     * An operator downs a member.
     *
     * @param nodeId      the member.
     * @param incarnation the incarnation to down, or 0 for whichever is live.
     * @return OK with the change, or why not.
     */
    public Outcome down(final int nodeId, final long incarnation)
    {
        final Entry entry = members.get(nodeId);
        if (entry == null || (incarnation != 0 && entry.member.incarnation() != incarnation))
        {
            return notLive(nodeId, incarnation);
        }
        final List<Member> changes = new ArrayList<>(1);
        end(entry, MemberStatus.DOWN, changes);
        return Outcome.ok(nodeId, changes);
    }

    /**
     * Downs every member whose lease lapsed (a leaving one is recorded as left: it said it was going), in node id
     * order.
     *
     * @param nowMs the cluster time.
     * @return the changes, oldest first; empty if none lapsed.
     */
    public List<Member> lapse(final long nowMs)
    {
        List<Member> changes = null;
        final Iterator<Entry> entries = members.values().iterator();
        while (entries.hasNext())
        {
            final Entry entry = entries.next();
            if (nowMs - entry.lastRenewedMs > leaseMs)
            {
                if (changes == null)
                {
                    changes = new ArrayList<>(2);
                }
                entries.remove();
                final MemberStatus status = entry.member.status() == MemberStatus.LEAVING ?
                    MemberStatus.LEFT : MemberStatus.DOWN;
                changes.add(remember(entry.member.with(status, ++epoch)));
            }
        }
        return changes == null ? List.of() : changes;
    }

    /**
     * A new leader took over: every live member's lease starts again from now, so that the time without a leader
     * (when nobody could renew) downs nobody.
     *
     * @param nowMs the cluster time of the new term.
     */
    public void onNewLeader(final long nowMs)
    {
        for (final Entry entry : members.values())
        {
            entry.lastRenewedMs = Math.max(entry.lastRenewedMs, nowMs);
        }
    }

    private Entry live(final int nodeId, final long incarnation)
    {
        final Entry entry = members.get(nodeId);
        return entry != null && entry.member.incarnation() == incarnation ? entry : null;
    }

    private Outcome notLive(final int nodeId, final long incarnation)
    {
        final Long endedIncarnation = ended.get(nodeId);
        if (endedIncarnation != null && incarnation != 0 && incarnation <= endedIncarnation)
        {
            return Outcome.refused(ReplyCode.INCARNATION_ENDED, nodeId, "incarnation " + incarnation + " of node " +
                nodeId + " has ended (left or downed): restart the node to join again");
        }
        return Outcome.refused(ReplyCode.UNKNOWN_MEMBER, nodeId, "no live member is node " + nodeId +
            (incarnation == 0 ? "" : " incarnation " + incarnation));
    }

    private void end(final Entry entry, final MemberStatus status, final List<Member> changes)
    {
        members.remove(entry.member.nodeId());
        changes.add(remember(entry.member.with(status, ++epoch)));
    }

    private Member remember(final Member gone)
    {
        ended.remove(gone.nodeId()); // re-inserted last: the newest end
        ended.put(gone.nodeId(), gone.incarnation());
        if (ended.size() > endedLimit)
        {
            final Iterator<Integer> oldest = ended.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
        return gone;
    }

    /**
     * The next node id to hand out, for a snapshot.
     *
     * @return the id.
     */
    int nextAssignedId()
    {
        return nextAssignedId;
    }

    /**
     * The last ended incarnation of each node id remembered, oldest first, for a snapshot.
     *
     * @return a read-only view.
     */
    Map<Integer, Long> ended()
    {
        return Collections.unmodifiableMap(ended);
    }

    /**
     * Starts restoring the table from a snapshot: empties it and sets its counters.
     *
     * @param snapshotEpoch  the epoch.
     * @param nextId         the next node id to hand out.
     */
    void restoreBegin(final long snapshotEpoch, final int nextId)
    {
        members.clear();
        ended.clear();
        epoch = snapshotEpoch;
        nextAssignedId = nextId;
    }

    /**
     * Restores one live member.
     *
     * @param member        the member.
     * @param lastRenewedMs the cluster time of its last renewal.
     */
    void restoreMember(final Member member, final long lastRenewedMs)
    {
        members.put(member.nodeId(), new Entry(member, lastRenewedMs));
    }

    /**
     * Restores one ended incarnation (in the order they ended).
     *
     * @param nodeId      the node id.
     * @param incarnation its last ended incarnation.
     */
    void restoreEnded(final int nodeId, final long incarnation)
    {
        ended.put(nodeId, incarnation);
    }
}
