package io.troupe.membership.internal;

import io.aeron.cluster.service.ClientSession;
import io.troupe.membership.table.Member;
import io.troupe.membership.internal.sbe.MemberChangedEncoder;
import io.troupe.membership.internal.sbe.MemberStatusCode;
import io.troupe.membership.internal.sbe.MessageHeaderEncoder;
import io.troupe.membership.internal.sbe.ReplyCode;
import io.troupe.membership.internal.sbe.ReplyEncoder;
import io.troupe.membership.internal.sbe.TableEndEncoder;
import io.troupe.membership.internal.sbe.TableMemberEncoder;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * What the membership service tells nodes: the reply to a request, each change of a member, and the whole table.
 * Encoded into one buffer, sealed with the session's {@link SessionGuard} and offered to the session; an offer
 * that fails (the node's egress is full or gone) is counted and dropped: the node sees a gap in the epochs, or no
 * reply, and asks again. Only the leader's offers
 * leave the process (a follower's are no-ops in Aeron Cluster). Owned by the service's thread.
 */
final class ServiceEgress
{
    /** Large enough for any one message: the detail of a reply is cut to {@link #MAX_DETAIL_CHARS}. */
    private static final int BUFFER_BYTES = 2048;
    /** The longest reply detail sent. */
    static final int MAX_DETAIL_CHARS = 400;
    private static final int OFFER_ATTEMPTS = 3;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[BUFFER_BYTES]);
    private final UnsafeBuffer sealed = new UnsafeBuffer(new byte[BUFFER_BYTES + SessionGuard.TRAILER]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final ReplyEncoder reply = new ReplyEncoder();
    private final MemberChangedEncoder changed = new MemberChangedEncoder();
    private final TableMemberEncoder tableMember = new TableMemberEncoder();
    private final TableEndEncoder tableEnd = new TableEndEncoder();
    private final VoterCounts counts;
    private final SessionGuards guards;

    ServiceEgress(final VoterCounts counts, final SessionGuards guards)
    {
        this.counts = counts;
        this.guards = guards;
    }

    void reply(final ClientSession session, final long correlationId, final long epoch, final long leaseMs,
        final MemberTable.Outcome outcome)
    {
        final String detail = outcome.detail().length() > MAX_DETAIL_CHARS ?
            outcome.detail().substring(0, MAX_DETAIL_CHARS) : outcome.detail();
        reply.wrapAndApplyHeader(buffer, 0, header)
            .correlationId(correlationId)
            .epoch(epoch)
            .leaseMs(leaseMs)
            .nodeId(outcome.nodeId())
            .code(outcome.code())
            .detail(detail);
        offer(session, MessageHeaderEncoder.ENCODED_LENGTH + reply.encodedLength());
    }

    void badRequest(final ClientSession session, final long correlationId, final long epoch, final String why)
    {
        reply(session, correlationId, epoch, 0, new MemberTable.Outcome(ReplyCode.BAD_REQUEST, 0, why, List.of()));
    }

    void changed(final Iterable<? extends ClientSession> sessions, final Member member)
    {
        changed.wrapAndApplyHeader(buffer, 0, header)
            .epoch(member.sinceEpoch())
            .incarnation(member.incarnation())
            .nodeId(member.nodeId())
            .port(member.port())
            .status(MemberStatusCode.get((short)member.status().ordinal()))
            .host(member.host());
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + changed.encodedLength();
        for (final ClientSession session : sessions)
        {
            offer(session, length);
        }
    }

    void table(final ClientSession session, final MemberTable table, final long nowMs, final int leaderMemberId)
    {
        final List<Member> members = table.members();
        for (final Member member : members)
        {
            tableMember.wrapAndApplyHeader(buffer, 0, header)
                .epoch(table.epoch())
                .incarnation(member.incarnation())
                .sinceEpoch(member.sinceEpoch())
                .leaseAgeMs(nowMs - table.lastRenewedMs(member.nodeId()))
                .nodeId(member.nodeId())
                .port(member.port())
                .status(MemberStatusCode.get((short)member.status().ordinal()))
                .host(member.host());
            if (!offer(session, MessageHeaderEncoder.ENCODED_LENGTH + tableMember.encodedLength()))
            {
                return; // the rest would not make a whole table: the node asks again
            }
        }
        tableEnd.wrapAndApplyHeader(buffer, 0, header)
            .epoch(table.epoch())
            .clusterTimeMs(nowMs)
            .leaseMs(table.leaseMs())
            .memberCount(members.size())
            .leaderMemberId(leaderMemberId);
        offer(session, MessageHeaderEncoder.ENCODED_LENGTH + tableEnd.encodedLength());
    }

    private boolean offer(final ClientSession session, final int length)
    {
        final SessionGuard guard = guards.get(session.id());
        if (guard != null)
        {
            // sealed on every voter alike, sent or not, so the sequences stay the same everywhere
            sealed.putBytes(0, buffer, 0, length);
            final int sealedLength = guard.seal(sealed, length);
            for (int attempt = 0; attempt < OFFER_ATTEMPTS; attempt++)
            {
                if (session.offer(sealed, 0, sealedLength) > 0)
                {
                    return true;
                }
            }
        }
        counts.increment(VoterCounts.Figure.EGRESS_DROPPED);
        return false;
    }
}
