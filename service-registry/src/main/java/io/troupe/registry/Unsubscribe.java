package io.troupe.registry;

import io.troupe.actor.EventTypes;
import io.troupe.actor.ServiceId;

/**
 * Stops the notices of a name to the sender (as {@link ServiceRegistry#unsubscribe}).
 *
 * @param service the name as subscribed.
 */
public record Unsubscribe(ServiceId service)
{
    /** Type id of the event, in the registry space. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_REGISTRY, 6);
}
