package io.troupe.actor;

/**
 * The session with a peer node ended (failure detector, goodbye or restart): sends to it fail with
 * {@link UndeliveredReason#DISCONNECTED} until it connects again. The interconnect (coming) sends it to the actors
 * that subscribed to node events, with type {@link #TYPE}.
 *
 * @param nodeId the peer node, 1..{@link ActorId#MAX_NODE_ID}.
 */
public record NodeDisconnected(int nodeId)
{
    /** Type id of the event, in the interconnect space. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_INTERCONNECT, 2);
}
