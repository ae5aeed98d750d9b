package io.troupe.actor;

/**
 * A session with a peer node opened: actors on it are reachable from now on. The interconnect (coming) sends it to
 * the actors that subscribed to node events, with type {@link #TYPE}.
 *
 * @param nodeId the peer node, 1..{@link ActorId#MAX_NODE_ID}.
 */
public record NodeConnected(int nodeId)
{
    /** Type id of the event, in the interconnect space. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_INTERCONNECT, 1);
}
