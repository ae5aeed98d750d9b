package io.troupe.membership.internal;

import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.cluster.codecs.CloseReason;
import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.aeron.cluster.service.ClusteredService;
import io.aeron.logbuffer.Header;
import io.troupe.membership.table.Member;
import io.troupe.membership.internal.VoterCounts.Figure;
import io.troupe.membership.internal.sbe.DownDecoder;
import io.troupe.membership.internal.sbe.JoinDecoder;
import io.troupe.membership.internal.sbe.LeaveDecoder;
import io.troupe.membership.internal.sbe.MessageHeaderDecoder;
import io.troupe.membership.internal.sbe.ReadyDecoder;
import io.troupe.membership.internal.sbe.RenewDecoder;
import io.troupe.membership.internal.sbe.ReplyCode;
import io.troupe.membership.internal.sbe.SyncDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The membership service: the state machine Aeron Cluster replicates on every voter. It applies the requests of
 * authenticated node sessions to the {@link MemberTable} in log order, with the log's timestamps as its only clock,
 * answers the session that asked, tells every session of each change, and checks the leases on a cluster timer.
 * Nothing here reads a wall clock, a random number or anything outside the log, so every voter reaches the same
 * table. A request without its session's tag ({@link SessionGuard}) is counted and dropped; one that does not
 * decode is counted and answered {@code BAD_REQUEST}; no input can throw out of here (an exception would stop the
 * voter).
 */
public final class MembershipService implements ClusteredService
{
    private static final Logger LOG = LoggerFactory.getLogger(MembershipService.class);
    /** The correlation id of the lease-check timer: one timer, rescheduled in place. */
    static final long LEASE_CHECK_TIMER = 1;

    private final MemberTable table;
    private final long checkIntervalMs;
    private final VoterCounts counts;
    private final ServiceEgress egress;
    private final ServiceSnapshot snapshot;
    private final SessionGuards guards;
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final JoinDecoder join = new JoinDecoder();
    private final ReadyDecoder ready = new ReadyDecoder();
    private final RenewDecoder renew = new RenewDecoder();
    private final LeaveDecoder leave = new LeaveDecoder();
    private final DownDecoder down = new DownDecoder();
    private final SyncDecoder sync = new SyncDecoder();
    private Cluster cluster;
    private volatile int leaderMemberId = -1;
    private volatile Cluster.Role role = Cluster.Role.FOLLOWER;

    /**
     * A service with an empty table.
     *
     * @param leaseMs         the lease length.
     * @param checkIntervalMs how often leases are checked (cluster time).
     * @param firstAssignedId the first node id handed to joiners that ask for none.
     * @param maxMembers      the most live members.
     * @param proof           the cluster secret: its sessions' guards are keyed by it.
     * @param counts          where it counts what it does.
     */
    public MembershipService(final long leaseMs, final long checkIntervalMs, final int firstAssignedId,
        final int maxMembers, final MembershipProof proof, final VoterCounts counts)
    {
        if (checkIntervalMs <= 0 || checkIntervalMs > leaseMs)
        {
            throw new IllegalArgumentException("lease check interval " + checkIntervalMs + " ms must be in 1.." +
                leaseMs + " (the lease)");
        }
        this.table = new MemberTable(leaseMs, firstAssignedId, maxMembers);
        this.checkIntervalMs = checkIntervalMs;
        this.counts = counts;
        this.guards = new SessionGuards(proof);
        this.egress = new ServiceEgress(counts, guards);
        this.snapshot = new ServiceSnapshot(table, guards);
    }

    @Override
    public void onStart(final Cluster cluster, final Image snapshotImage)
    {
        this.cluster = cluster; // its clock is Aeron Cluster's default, in milliseconds (the voter sets no other)
        if (snapshotImage != null)
        {
            snapshot.load(snapshotImage, cluster.idleStrategy());
            guards.attach(cluster);
        }
        // the lease-check timer is scheduled at each new leadership term (Aeron Cluster allows no timer here)
    }

    @Override
    public void onSessionOpen(final ClientSession session, final long timestamp)
    {
        if (guards.open(session) == null)
        {
            // not admitted by this service's authenticator (a voter of another version?): nothing it sent is taken
            counts.increment(Figure.SESSIONS_REJECTED);
            cluster.closeClientSession(session.id());
            return;
        }
        egress.table(session, table, timestamp, leaderMemberId);
    }

    @Override
    public void onSessionClose(final ClientSession session, final long timestamp, final CloseReason closeReason)
    {
        // a member is its lease, not its session: a node whose session closed renews through its next one
        guards.close(session.id());
    }

    @Override
    public void onSessionMessage(final ClientSession session, final long timestamp, final DirectBuffer buffer,
        final int offset, final int length, final Header aeronHeader)
    {
        if (session == null)
        {
            return; // only nodes send requests; the service itself never offers to the log
        }
        final SessionGuard guard = guards.get(session.id());
        final int bodyLength = guard == null ? SessionGuard.BAD_TAG : guard.open(buffer, offset, length);
        if (bodyLength < 0)
        {
            // forged, replayed or damaged on the way: whoever put it in the session's stream does not hold its keys
            counts.increment(Figure.REQUESTS_REJECTED);
            LOG.debug("membership: a request of {} bytes in session {} dropped ({})", length, session.id(),
                bodyLength == SessionGuard.REPLAYED ? "replayed" : "no tag of the session");
            return;
        }
        view.wrap(buffer, offset, bodyLength); // a read past the message fails here rather than reading the next one
        try
        {
            onRequest(session, timestamp, bodyLength);
        }
        catch (final RuntimeException ex)
        {
            counts.increment(Figure.MALFORMED);
            LOG.debug("membership: a malformed request from session {}: {}", session.id(), ex.toString());
        }
    }

    private void onRequest(final ClientSession session, final long now, final int length)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            throw new IllegalArgumentException("shorter than a header: " + length + " bytes");
        }
        header.wrap(view, 0);
        if (header.schemaId() != JoinDecoder.SCHEMA_ID)
        {
            throw new IllegalArgumentException("schema " + header.schemaId());
        }
        final int blockLength = header.blockLength();
        final int version = header.version();
        final int at = MessageHeaderDecoder.ENCODED_LENGTH;
        switch (header.templateId())
        {
            case JoinDecoder.TEMPLATE_ID ->
            {
                join.wrap(view, at, blockLength, version);
                final int hostLength = join.hostLength();
                if (hostLength > MemberTable.MAX_HOST_BYTES)
                {
                    egress.badRequest(session, join.correlationId(), table.epoch(), "host of " + hostLength +
                        " bytes, more than " + MemberTable.MAX_HOST_BYTES);
                    counts.increment(Figure.REFUSALS);
                    return;
                }
                final long correlationId = join.correlationId();
                final MemberTable.Outcome outcome = table.join(join.nodeId(), join.incarnation(), join.host(),
                    join.port(), now);
                answer(session, correlationId, outcome, table.leaseMs());
            }
            case ReadyDecoder.TEMPLATE_ID ->
            {
                ready.wrap(view, at, blockLength, version);
                answer(session, ready.correlationId(), table.ready(ready.nodeId(), ready.incarnation()), 0);
            }
            case RenewDecoder.TEMPLATE_ID ->
            {
                renew.wrap(view, at, blockLength, version);
                final MemberTable.Outcome outcome = table.renew(renew.nodeId(), renew.incarnation(), now);
                if (outcome.code() == ReplyCode.OK)
                {
                    counts.increment(Figure.RENEWALS);
                }
                answer(session, renew.correlationId(), outcome, table.leaseMs());
            }
            case LeaveDecoder.TEMPLATE_ID ->
            {
                leave.wrap(view, at, blockLength, version);
                answer(session, leave.correlationId(), table.leave(leave.nodeId(), leave.incarnation(),
                    leave.done() != 0), 0);
            }
            case DownDecoder.TEMPLATE_ID ->
            {
                down.wrap(view, at, blockLength, version);
                LOG.info("membership: node {} incarnation {} downed by an operator through node {}", down.nodeId(),
                    down.incarnation(), down.byNodeId());
                answer(session, down.correlationId(), table.down(down.nodeId(), down.incarnation()), 0);
            }
            case SyncDecoder.TEMPLATE_ID ->
            {
                sync.wrap(view, at, blockLength, version);
                egress.table(session, table, now, leaderMemberId);
            }
            default -> throw new IllegalArgumentException("template " + header.templateId());
        }
    }

    private void answer(final ClientSession session, final long correlationId, final MemberTable.Outcome outcome,
        final long leaseMs)
    {
        if (outcome.code() != ReplyCode.OK)
        {
            counts.increment(Figure.REFUSALS);
        }
        announce(outcome.changes(), Figure.OTHER_DOWNS);
        egress.reply(session, correlationId, table.epoch(), leaseMs, outcome);
    }

    private void announce(final List<Member> changes, final Figure downFigure)
    {
        for (final Member member : changes)
        {
            switch (member.status())
            {
                case JOINING -> counts.increment(Figure.JOINS);
                case LEFT -> counts.increment(Figure.LEAVES);
                case DOWN -> counts.increment(downFigure);
                default ->
                {
                }
            }
            LOG.info("membership: {}", member);
            egress.changed(cluster.clientSessions(), member);
        }
    }

    @Override
    public void onTimerEvent(final long correlationId, final long timestamp)
    {
        if (correlationId == LEASE_CHECK_TIMER)
        {
            announce(table.lapse(timestamp), Figure.LEASE_DOWNS);
            cluster.scheduleTimer(LEASE_CHECK_TIMER, timestamp + checkIntervalMs);
        }
    }

    @Override
    public void onTakeSnapshot(final ExclusivePublication snapshotPublication)
    {
        snapshot.take(snapshotPublication, cluster.idleStrategy());
    }

    @Override
    public void onRoleChange(final Cluster.Role newRole)
    {
        LOG.info("membership: this voter is now {} (it was {})", newRole, role);
        role = newRole;
    }

    @Override
    public void onTerminate(final Cluster cluster)
    {
        LOG.info("membership: the service stops at epoch {}", table.epoch());
    }

    @Override
    public void onNewLeadershipTermEvent(final long leadershipTermId, final long logPosition, final long timestamp,
        final long termBaseLogPosition, final int leaderMemberId, final int logSessionId, final TimeUnit timeUnit,
        final int appVersion)
    {
        if (leaderMemberId != this.leaderMemberId)
        {
            LOG.info("membership: leadership term {}: voter {} leads (before, {})", leadershipTermId, leaderMemberId,
                this.leaderMemberId);
        }
        this.leaderMemberId = leaderMemberId;
        table.onNewLeader(timestamp);
        cluster.scheduleTimer(LEASE_CHECK_TIMER, timestamp + checkIntervalMs); // replaces the one of a term before
    }

    /**
     * This voter's role in the cluster, as last told.
     *
     * @return leader, follower or candidate.
     */
    public Cluster.Role role()
    {
        return role;
    }

    /**
     * The Aeron Cluster member id of the leader of the current term.
     *
     * @return the id, or -1 before the first term.
     */
    public int leaderMemberId()
    {
        return leaderMemberId;
    }
}
