package io.troupe.membership.internal;

import io.troupe.membership.internal.sbe.DownEncoder;
import io.troupe.membership.internal.sbe.JoinEncoder;
import io.troupe.membership.internal.sbe.LeaveEncoder;
import io.troupe.membership.internal.sbe.MessageHeaderEncoder;
import io.troupe.membership.internal.sbe.ReadyEncoder;
import io.troupe.membership.internal.sbe.RenewEncoder;
import io.troupe.membership.internal.sbe.SyncEncoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A node's requests to the membership service, encoded into one buffer each time: each method returns the length
 * of the message at offset 0 of {@link #buffer()}, for the caller to offer. Owned by one thread.
 */
public final class Requests
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final JoinEncoder join = new JoinEncoder();
    private final ReadyEncoder ready = new ReadyEncoder();
    private final RenewEncoder renew = new RenewEncoder();
    private final LeaveEncoder leave = new LeaveEncoder();
    private final DownEncoder down = new DownEncoder();
    private final SyncEncoder sync = new SyncEncoder();

    /**
     * An encoder with its own buffer.
     */
    public Requests()
    {
    }

    /**
     * The buffer the last request was encoded into.
     *
     * @return the buffer; the message starts at 0.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * A join.
     *
     * @param correlationId the request's id.
     * @param nodeId        the id wanted, or 0.
     * @param incarnation   the node's incarnation.
     * @param host          its interconnect host (at most {@link MemberTable#MAX_HOST_BYTES} bytes).
     * @param port          its interconnect port.
     * @return the length.
     */
    public int join(final long correlationId, final int nodeId, final long incarnation, final String host,
        final int port)
    {
        join.wrapAndApplyHeader(buffer, 0, header).correlationId(correlationId).incarnation(incarnation)
            .nodeId(nodeId).port(port).host(host);
        return MessageHeaderEncoder.ENCODED_LENGTH + join.encodedLength();
    }

    /**
     * Joining is done: the node serves.
     *
     * @param correlationId the request's id.
     * @param nodeId        the member.
     * @param incarnation   its incarnation.
     * @return the length.
     */
    public int ready(final long correlationId, final int nodeId, final long incarnation)
    {
        ready.wrapAndApplyHeader(buffer, 0, header).correlationId(correlationId).incarnation(incarnation)
            .nodeId(nodeId);
        return MessageHeaderEncoder.ENCODED_LENGTH + ready.encodedLength();
    }

    /**
     * A lease renewal.
     *
     * @param correlationId the request's id.
     * @param nodeId        the member.
     * @param incarnation   its incarnation.
     * @return the length.
     */
    public int renew(final long correlationId, final int nodeId, final long incarnation)
    {
        renew.wrapAndApplyHeader(buffer, 0, header).correlationId(correlationId).incarnation(incarnation)
            .nodeId(nodeId);
        return MessageHeaderEncoder.ENCODED_LENGTH + renew.encodedLength();
    }

    /**
     * A graceful leave.
     *
     * @param correlationId the request's id.
     * @param nodeId        the member.
     * @param incarnation   its incarnation.
     * @param done          false: it starts draining (LEAVING); true: it goes now (LEFT).
     * @return the length.
     */
    public int leave(final long correlationId, final int nodeId, final long incarnation, final boolean done)
    {
        leave.wrapAndApplyHeader(buffer, 0, header).correlationId(correlationId).incarnation(incarnation)
            .nodeId(nodeId).done((short)(done ? 1 : 0));
        return MessageHeaderEncoder.ENCODED_LENGTH + leave.encodedLength();
    }

    /**
     * An operator's down.
     *
     * @param correlationId the request's id.
     * @param nodeId        the member to down.
     * @param incarnation   its incarnation, or 0 for the live one.
     * @param byNodeId      the node the operator asked through.
     * @return the length.
     */
    public int down(final long correlationId, final int nodeId, final long incarnation, final int byNodeId)
    {
        down.wrapAndApplyHeader(buffer, 0, header).correlationId(correlationId).incarnation(incarnation)
            .nodeId(nodeId).byNodeId(byNodeId);
        return MessageHeaderEncoder.ENCODED_LENGTH + down.encodedLength();
    }

    /**
     * A request for the whole table.
     *
     * @param correlationId the request's id.
     * @return the length.
     */
    public int sync(final long correlationId)
    {
        sync.wrapAndApplyHeader(buffer, 0, header).correlationId(correlationId);
        return MessageHeaderEncoder.ENCODED_LENGTH + sync.encodedLength();
    }
}
