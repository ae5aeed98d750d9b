package io.troupe.interconnect.scheduler;

/**
 * The unit of capacity for messaging a peer: open, it may carry one message; closed, it waits for that message's
 * response or timeout. A peer has {@link SchedulerConfig#channelsPerPeer} of them unless set otherwise
 * ({@link PeerScheduler#channels}).
 *
 * @param nodeId the peer's node id.
 * @param index  the channel's number on that peer, from 0.
 */
public record Channel(int nodeId, int index)
{
}
