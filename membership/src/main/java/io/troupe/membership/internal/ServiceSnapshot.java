package io.troupe.membership.internal;

import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.Publication;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import io.troupe.membership.internal.sbe.MemberStatusCode;
import io.troupe.membership.internal.sbe.MessageHeaderDecoder;
import io.troupe.membership.internal.sbe.MessageHeaderEncoder;
import io.troupe.membership.internal.sbe.SnapshotBeginDecoder;
import io.troupe.membership.internal.sbe.SnapshotBeginEncoder;
import io.troupe.membership.internal.sbe.SnapshotEndDecoder;
import io.troupe.membership.internal.sbe.SnapshotEndEncoder;
import io.troupe.membership.internal.sbe.SnapshotEndedDecoder;
import io.troupe.membership.internal.sbe.SnapshotEndedEncoder;
import io.troupe.membership.internal.sbe.SnapshotMemberDecoder;
import io.troupe.membership.internal.sbe.SnapshotMemberEncoder;
import io.troupe.membership.internal.sbe.SnapshotSessionDecoder;
import io.troupe.membership.internal.sbe.SnapshotSessionEncoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.Map;

/**
 * The membership service's snapshot: the table as a run of small messages (begin, one per live member, one per
 * ended incarnation, one per session's guard sequences, end), written to Aeron Cluster's snapshot publication and
 * read back when a voter starts from it. Small messages keep every one far below the snapshot channel's largest,
 * whatever the table's size.
 */
final class ServiceSnapshot
{
    private final MemberTable table;
    private final SessionGuards guards;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
    private final MessageHeaderEncoder headerOut = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerIn = new MessageHeaderDecoder();
    private final SnapshotBeginEncoder beginOut = new SnapshotBeginEncoder();
    private final SnapshotMemberEncoder memberOut = new SnapshotMemberEncoder();
    private final SnapshotEndedEncoder endedOut = new SnapshotEndedEncoder();
    private final SnapshotSessionEncoder sessionOut = new SnapshotSessionEncoder();
    private final SnapshotEndEncoder endOut = new SnapshotEndEncoder();
    private final SnapshotBeginDecoder beginIn = new SnapshotBeginDecoder();
    private final SnapshotMemberDecoder memberIn = new SnapshotMemberDecoder();
    private final SnapshotEndedDecoder endedIn = new SnapshotEndedDecoder();
    private final SnapshotSessionDecoder sessionIn = new SnapshotSessionDecoder();
    private final SnapshotEndDecoder endIn = new SnapshotEndDecoder();
    private final FragmentHandler reader = this::onFragment;
    private boolean loaded;

    ServiceSnapshot(final MemberTable table, final SessionGuards guards)
    {
        this.table = table;
        this.guards = guards;
    }

    void take(final ExclusivePublication publication, final IdleStrategy idle)
    {
        final Map<Integer, Long> ended = table.ended();
        final List<Member> members = table.members();
        beginOut.wrapAndApplyHeader(buffer, 0, headerOut)
            .epoch(table.epoch())
            .nextAssignedId(table.nextAssignedId())
            .memberCount(members.size())
            .endedCount(ended.size());
        offer(publication, beginOut.encodedLength(), idle);
        for (final Member member : members)
        {
            memberOut.wrapAndApplyHeader(buffer, 0, headerOut)
                .incarnation(member.incarnation())
                .lastRenewedMs(table.lastRenewedMs(member.nodeId()))
                .sinceEpoch(member.sinceEpoch())
                .nodeId(member.nodeId())
                .port(member.port())
                .status(MemberStatusCode.get((short)member.status().ordinal()))
                .host(member.host());
            offer(publication, memberOut.encodedLength(), idle);
        }
        for (final Map.Entry<Integer, Long> entry : ended.entrySet())
        {
            endedOut.wrapAndApplyHeader(buffer, 0, headerOut).incarnation(entry.getValue()).nodeId(entry.getKey());
            offer(publication, endedOut.encodedLength(), idle);
        }
        guards.forEach((sessionId, sealed, taken) ->
        {
            sessionOut.wrapAndApplyHeader(buffer, 0, headerOut).clusterSessionId(sessionId).noticesSealed(sealed)
                .requestsTaken(taken);
            offer(publication, sessionOut.encodedLength(), idle);
        });
        endOut.wrapAndApplyHeader(buffer, 0, headerOut).epoch(table.epoch());
        offer(publication, endOut.encodedLength(), idle);
    }

    private void offer(final ExclusivePublication publication, final int bodyLength, final IdleStrategy idle)
    {
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + bodyLength;
        idle.reset();
        long result;
        while ((result = publication.offer(buffer, 0, length)) < 0)
        {
            if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED)
            {
                throw new IllegalStateException("the snapshot publication failed: " + result);
            }
            idle.idle();
        }
    }

    void load(final Image image, final IdleStrategy idle)
    {
        loaded = false;
        idle.reset();
        while (!loaded)
        {
            final int fragments = image.poll(reader, 16);
            if (fragments == 0)
            {
                if (image.isClosed())
                {
                    throw new IllegalStateException("the membership snapshot ended before its end message");
                }
                idle.idle();
            }
            else
            {
                idle.reset();
            }
        }
    }

    private void onFragment(final DirectBuffer in, final int offset, final int length,
        final Header header)
    {
        headerIn.wrap(in, offset);
        final int at = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int blockLength = headerIn.blockLength();
        final int version = headerIn.version();
        switch (headerIn.templateId())
        {
            case SnapshotBeginDecoder.TEMPLATE_ID ->
            {
                beginIn.wrap(in, at, blockLength, version);
                table.restoreBegin(beginIn.epoch(), beginIn.nextAssignedId());
            }
            case SnapshotMemberDecoder.TEMPLATE_ID ->
            {
                memberIn.wrap(in, at, blockLength, version);
                final long incarnation = memberIn.incarnation();
                final long lastRenewedMs = memberIn.lastRenewedMs();
                final long sinceEpoch = memberIn.sinceEpoch();
                final int nodeId = memberIn.nodeId();
                final int port = memberIn.port();
                final MemberStatus status = MemberStatus.values()[memberIn.status().value()];
                table.restoreMember(new Member(nodeId, incarnation, memberIn.host(), port, status, sinceEpoch),
                    lastRenewedMs);
            }
            case SnapshotEndedDecoder.TEMPLATE_ID ->
            {
                endedIn.wrap(in, at, blockLength, version);
                table.restoreEnded(endedIn.nodeId(), endedIn.incarnation());
            }
            case SnapshotSessionDecoder.TEMPLATE_ID ->
            {
                sessionIn.wrap(in, at, blockLength, version);
                guards.restore(sessionIn.clusterSessionId(), sessionIn.noticesSealed(), sessionIn.requestsTaken());
            }
            case SnapshotEndDecoder.TEMPLATE_ID ->
            {
                endIn.wrap(in, at, blockLength, version);
                if (endIn.epoch() != table.epoch())
                {
                    throw new IllegalStateException("the membership snapshot's end is at epoch " + endIn.epoch() +
                        ", its beginning at " + table.epoch());
                }
                loaded = true;
            }
            default -> throw new IllegalStateException("not a membership snapshot message: template " +
                headerIn.templateId());
        }
    }
}
