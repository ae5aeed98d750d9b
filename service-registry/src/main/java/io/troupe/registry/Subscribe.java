package io.troupe.registry;

import io.troupe.actor.EventTypes;
import io.troupe.actor.ServiceId;

/**
 * Asks a node's service directory to send the sender a {@link ServiceUp} for every live instance of a name now,
 * then one for every instance that comes and a {@link ServiceDown} for every one that goes (as
 * {@link ServiceRegistry#subscribe}). The sender must be an actor of that node (a client's session stands in for
 * it).
 *
 * @param service {@code ServiceId(0, name)} for every node's instances, {@code ServiceId(n, name)} for node n's.
 */
public record Subscribe(ServiceId service)
{
    /** Type id of the event, in the registry space. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_REGISTRY, 5);
}
