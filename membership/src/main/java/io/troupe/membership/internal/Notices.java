package io.troupe.membership.internal;

import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import io.troupe.membership.internal.sbe.MemberChangedDecoder;
import io.troupe.membership.internal.sbe.MemberStatusCode;
import io.troupe.membership.internal.sbe.MessageHeaderDecoder;
import io.troupe.membership.internal.sbe.ReplyCode;
import io.troupe.membership.internal.sbe.ReplyDecoder;
import io.troupe.membership.internal.sbe.TableEndDecoder;
import io.troupe.membership.internal.sbe.TableMemberDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Decodes what the membership service tells a node and hands it to a {@link Listener}. A message that does not
 * decode (another schema, an unknown template, cut short, a field out of range) is counted and dropped; nothing
 * here throws for bad input. Owned by the node's membership thread.
 */
public final class Notices
{
    /** What the service said. */
    public interface Listener
    {
        /**
         * The answer to one of this node's requests.
         *
         * @param correlationId the request's id.
         * @param epoch         the table's epoch after it.
         * @param leaseMs       the lease length (for a join or a renewal), else 0.
         * @param nodeId        the member concerned.
         * @param code          OK or why not.
         * @param detail        why, or "".
         */
        void onReply(long correlationId, long epoch, long leaseMs, int nodeId, ReplyCode code, String detail);

        /**
         * A member's status changed, at {@code member.sinceEpoch()}.
         *
         * @param member the member as it is now.
         */
        void onChanged(Member member);

        /**
         * One member of a whole table being sent.
         *
         * @param epoch      the table's epoch.
         * @param member     the member.
         * @param leaseAgeMs how long since it renewed, by the cluster's clock.
         */
        void onTableMember(long epoch, Member member, long leaseAgeMs);

        /**
         * The end of a whole table.
         *
         * @param epoch          the table's epoch.
         * @param clusterTimeMs  the cluster's time when it was sent.
         * @param leaseMs        the lease length.
         * @param memberCount    how many members it has (as many {@link #onTableMember} came before).
         * @param leaderMemberId the leader's Aeron Cluster member id.
         */
        void onTableEnd(long epoch, long clusterTimeMs, long leaseMs, int memberCount, int leaderMemberId);
    }

    private final Listener listener;
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final ReplyDecoder reply = new ReplyDecoder();
    private final MemberChangedDecoder changed = new MemberChangedDecoder();
    private final TableMemberDecoder tableMember = new TableMemberDecoder();
    private final TableEndDecoder tableEnd = new TableEndDecoder();
    private long malformed;

    /**
     * A decoder for one listener.
     *
     * @param listener where the notices go.
     */
    public Notices(final Listener listener)
    {
        this.listener = listener;
    }

    /**
     * Decodes one message from the service.
     *
     * @param buffer the buffer.
     * @param offset where the message starts.
     * @param length its length.
     * @return true if it was a notice of this protocol and the listener got it.
     */
    public boolean onMessage(final DirectBuffer buffer, final int offset, final int length)
    {
        try
        {
            return decode(buffer, offset, length);
        }
        catch (final RuntimeException ex)
        {
            malformed++;
            return false;
        }
    }

    private boolean decode(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            malformed++;
            return false;
        }
        view.wrap(buffer, offset, length);
        header.wrap(view, 0);
        if (header.schemaId() != ReplyDecoder.SCHEMA_ID)
        {
            malformed++;
            return false;
        }
        final int at = MessageHeaderDecoder.ENCODED_LENGTH;
        final int blockLength = header.blockLength();
        final int version = header.version();
        switch (header.templateId())
        {
            case ReplyDecoder.TEMPLATE_ID ->
            {
                reply.wrap(view, at, blockLength, version);
                final ReplyCode code = reply.code();
                if (code == ReplyCode.NULL_VAL)
                {
                    throw new IllegalArgumentException("reply code");
                }
                listener.onReply(reply.correlationId(), reply.epoch(), reply.leaseMs(), reply.nodeId(), code,
                    reply.detail());
            }
            case MemberChangedDecoder.TEMPLATE_ID ->
            {
                changed.wrap(view, at, blockLength, version);
                final long epoch = changed.epoch();
                final long incarnation = changed.incarnation();
                final int nodeId = changed.nodeId();
                final int port = changed.port();
                final MemberStatus status = status(changed.status());
                listener.onChanged(new Member(nodeId, incarnation, changed.host(), port, status, epoch));
            }
            case TableMemberDecoder.TEMPLATE_ID ->
            {
                tableMember.wrap(view, at, blockLength, version);
                final long epoch = tableMember.epoch();
                final long incarnation = tableMember.incarnation();
                final long sinceEpoch = tableMember.sinceEpoch();
                final long leaseAgeMs = tableMember.leaseAgeMs();
                final int nodeId = tableMember.nodeId();
                final int port = tableMember.port();
                final MemberStatus status = status(tableMember.status());
                listener.onTableMember(epoch, new Member(nodeId, incarnation, tableMember.host(), port, status,
                    sinceEpoch), leaseAgeMs);
            }
            case TableEndDecoder.TEMPLATE_ID ->
            {
                tableEnd.wrap(view, at, blockLength, version);
                listener.onTableEnd(tableEnd.epoch(), tableEnd.clusterTimeMs(), tableEnd.leaseMs(),
                    tableEnd.memberCount(), tableEnd.leaderMemberId());
            }
            default ->
            {
                malformed++;
                return false;
            }
        }
        return true;
    }

    private static MemberStatus status(final MemberStatusCode code)
    {
        if (code == MemberStatusCode.NULL_VAL)
        {
            throw new IllegalArgumentException("status");
        }
        return MemberStatus.values()[code.value()];
    }

    /**
     * Messages dropped because they did not decode.
     *
     * @return the count.
     */
    public long malformed()
    {
        return malformed;
    }
}
