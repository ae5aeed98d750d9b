package io.troupe.registry;

import io.troupe.actor.EventTypes;
import io.troupe.actor.ServiceId;

/**
 * Asks a node's service directory ({@link ServiceRegistry#actor()}) for the live instances of a name; it replies
 * to the sender, with the same cookie, with a {@link LookupResult}. A client process asks this way when it cannot
 * read the node's replica.
 *
 * @param service {@code ServiceId(0, name)} for every node's instances, {@code ServiceId(n, name)} for node n's.
 */
public record Lookup(ServiceId service)
{
    /** Type id of the event, in the registry space. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_REGISTRY, 3);
}
