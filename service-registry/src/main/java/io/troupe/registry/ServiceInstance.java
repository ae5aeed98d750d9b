package io.troupe.registry;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorRef;
import io.troupe.actor.ServiceId;

/**
 * One live instance of a service: the name on the instance's node, the actor, and the incarnation of that node
 * which announced it.
 *
 * @param service     the service's name on the instance's node ({@code ServiceId(node, name)}).
 * @param actor       the actor that serves it.
 * @param incarnation the incarnation of the node the actor lives on.
 */
public record ServiceInstance(ServiceId service, ActorId actor, long incarnation)
{
    /**
     * The node the instance lives on.
     *
     * @return the node id.
     */
    public int nodeId()
    {
        return actor.nodeId();
    }

    /**
     * The instance as a typed reference.
     *
     * @param <T> what it accepts.
     * @return the reference.
     */
    public <T> ActorRef<T> ref()
    {
        return ActorRef.of(actor);
    }
}
