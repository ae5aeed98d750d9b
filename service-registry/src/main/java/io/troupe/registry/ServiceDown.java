package io.troupe.registry;

import io.troupe.actor.EventTypes;

/**
 * To a subscriber of a name: an instance of it is gone (unregistered, its actor passed away, its node was
 * declared down or came back as a new incarnation that does not announce it).
 *
 * @param instance the instance.
 */
public record ServiceDown(ServiceInstance instance)
{
    /** Type id of the event, in the registry space. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_REGISTRY, 2);
}
