package io.troupe.membership;

import io.aeron.cluster.service.Cluster;
import io.troupe.membership.internal.VoterCounts.Figure;
import io.troupe.memquota.CounterDescriptor;

import static io.troupe.memquota.CounterDescriptor.count;
import static io.troupe.memquota.CounterDescriptor.gauge;

/**
 * The membership's counters (type ids 1100..1199), each read from the node's {@link Membership}: the member side
 * (its view, its lease) on every node, the voter side (what the service applied, who it admitted) on voters.
 */
public enum MembershipCounter implements CounterDescriptor.Of<Membership>
{
    /** Live members in this node's view. */
    MEMBERSHIP_MEMBERS(gauge(1100, "membership_members", "", "live members in this node's view",
        m -> m.members().size())),
    /** The epoch of this node's view. */
    MEMBERSHIP_EPOCH(gauge(1101, "membership_epoch", "", "the epoch of this node's view of the member table",
        Membership::epoch)),
    /** Lease renewals the service accepted. */
    MEMBERSHIP_RENEWALS(count(1102, "membership_renewals", "", "lease renewals the membership service accepted",
        Membership::renewals)),
    /** Renewals that could not be sent. */
    MEMBERSHIP_RENEWAL_FAILURES(count(1103, "membership_renewal_failures", "",
        "lease renewals that could not be sent (no session with the service, back-pressure)",
        Membership::renewalFailures)),
    /** This node's voter's role. */
    MEMBERSHIP_VOTER_ROLE(gauge(1104, "membership_voter_role", "",
        "this node's voter's role: 0 follower, 1 candidate, 2 leader; -1 if it is no voter",
        m -> m.role() == null ? -1 : m.role() == Cluster.Role.LEADER ? 2 : m.role() == Cluster.Role.CANDIDATE ? 1 : 0)),
    /** Joins the voter applied. */
    MEMBERSHIP_JOINS(count(1105, "membership_joins", "", "incarnations this voter recorded as joining",
        m -> m.voterFigure(Figure.JOINS))),
    /** Graceful leaves the voter applied. */
    MEMBERSHIP_LEAVES(count(1106, "membership_leaves", "", "incarnations this voter recorded as left",
        m -> m.voterFigure(Figure.LEAVES))),
    /** Downs for a lapsed lease. */
    MEMBERSHIP_LEASE_DOWNS(count(1107, "membership_lease_downs", "",
        "incarnations this voter recorded as downed because their lease lapsed",
        m -> m.voterFigure(Figure.LEASE_DOWNS))),
    /** Other downs. */
    MEMBERSHIP_OTHER_DOWNS(count(1108, "membership_other_downs", "",
        "incarnations this voter recorded as downed by an operator or replaced by a restart",
        m -> m.voterFigure(Figure.OTHER_DOWNS))),
    /** Requests refused. */
    MEMBERSHIP_REFUSALS(count(1109, "membership_refusals", "",
        "requests this voter refused (id taken, ended incarnation, unknown member, bad field, full)",
        m -> m.voterFigure(Figure.REFUSALS))),
    /** Malformed requests. */
    MEMBERSHIP_MALFORMED(count(1110, "membership_malformed", "",
        "messages this voter dropped because they were no request of the protocol",
        m -> m.voterFigure(Figure.MALFORMED))),
    /** Sessions rejected. */
    MEMBERSHIP_SESSIONS_REJECTED(count(1111, "membership_sessions_rejected", "",
        "sessions this voter rejected: no proof of the cluster secret, another cluster, too slow or too many",
        m -> m.voterFigure(Figure.SESSIONS_REJECTED) + m.voterFigure(Figure.ARCHIVE_SESSIONS_REJECTED))),
    /** Messages to nodes dropped. */
    MEMBERSHIP_EGRESS_DROPPED(count(1112, "membership_egress_dropped", "",
        "messages to nodes this voter dropped because their egress was full or gone (they ask again)",
        m -> m.voterFigure(Figure.EGRESS_DROPPED))),
    /** Nodes refused for another voter list. */
    MEMBERSHIP_VOTER_LISTS_DIFFER(count(1113, "membership_voter_lists_differ", "",
        "sessions this voter rejected, though they proved the secret, because their node lists other voters",
        m -> m.voterFigure(Figure.VOTER_LISTS_DIFFER))),
    /** Requests without their session's tag. */
    MEMBERSHIP_REQUESTS_REJECTED(count(1114, "membership_requests_rejected", "",
        "requests this voter dropped because they did not carry their session's tag, or were replayed",
        m -> m.voterFigure(Figure.REQUESTS_REJECTED))),
    /** Messages from the service without the session's tag. */
    MEMBERSHIP_NOTICES_REJECTED(count(1115, "membership_notices_rejected", "",
        "messages from the membership service this node dropped: without its session's tag, or replayed",
        Membership::noticesRejected));

    private final Declaration<Membership> declaration;

    MembershipCounter(final Declaration<Membership> declaration)
    {
        this.declaration = declaration;
    }

    @Override
    public Declaration<Membership> declaration()
    {
        return declaration;
    }
}
