package io.troupe.actor.internal;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;

import java.util.Objects;

/**
 * The checked way to change and read this node's service mappings: a service of this node (or node 0) maps to an
 * actor of this node, never to another service id. The router reads the same {@link ServiceTable} on the send
 * path without these checks.
 */
final class LocalServices
{
    private final int nodeId;
    private final Router router;
    private final ServiceTable table;

    LocalServices(final int nodeId, final Router router, final ServiceTable table)
    {
        this.nodeId = nodeId;
        this.router = router;
        this.table = table;
    }

    ActorId register(final ServiceId service, final ActorId actor)
    {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(actor, "actor");
        if (actor.isService())
        {
            throw new IllegalArgumentException(
                "service " + service + " cannot map to another service id " + actor + "; map it to an actor id");
        }
        requireLocal(service);
        if (!router.isLocal(actor.nodeId()))
        {
            throw new IllegalArgumentException("local service " + service + " must map to an actor of this node (" +
                nodeId + "), not " + actor);
        }
        return table.put(service, actor);
    }

    ActorId unregister(final ServiceId service)
    {
        Objects.requireNonNull(service, "service");
        requireLocal(service);
        return table.remove(service);
    }

    ActorId lookup(final ServiceId service)
    {
        Objects.requireNonNull(service, "service");
        return router.isLocal(service.nodeId()) ? table.lookup(service) : null;
    }

    private void requireLocal(final ServiceId service)
    {
        if (!router.isLocal(service.nodeId()))
        {
            throw new IllegalArgumentException("service " + service + " belongs to node " + service.nodeId() +
                "; this is node " + nodeId);
        }
    }
}
