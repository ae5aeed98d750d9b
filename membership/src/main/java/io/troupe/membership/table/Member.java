package io.troupe.membership.table;

import java.util.Objects;

/**
 * One member of the cluster as the member table records it at an epoch.
 *
 * @param nodeId      its node id.
 * @param incarnation its incarnation (one process lifetime; a restart is a new one).
 * @param host        its interconnect host.
 * @param port        its interconnect port.
 * @param status      where it is in its life.
 * @param sinceEpoch  the epoch of the table at which it got this status.
 */
public record Member(int nodeId, long incarnation, String host, int port, MemberStatus status, long sinceEpoch)
{
    /**
     * A member, checked.
     *
     * @param nodeId      positive.
     * @param incarnation positive.
     * @param host        not null.
     * @param port        1..65535.
     * @param status      not null.
     * @param sinceEpoch  not negative.
     */
    public Member
    {
        if (nodeId <= 0 || incarnation <= 0 || port <= 0 || port > 65_535 || sinceEpoch < 0)
        {
            throw new IllegalArgumentException("not a member: node " + nodeId + " incarnation " + incarnation +
                " port " + port + " epoch " + sinceEpoch);
        }
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(status, "status");
    }

    /**
     * This member with another status, got at an epoch.
     *
     * @param newStatus the status.
     * @param epoch     the epoch of the change.
     * @return the changed member.
     */
    public Member with(final MemberStatus newStatus, final long epoch)
    {
        return new Member(nodeId, incarnation, host, port, newStatus, epoch);
    }

    @Override
    public String toString()
    {
        return "node " + nodeId + " (incarnation " + incarnation + ", " + host + ":" + port + ") " + status +
            " since epoch " + sinceEpoch;
    }
}
