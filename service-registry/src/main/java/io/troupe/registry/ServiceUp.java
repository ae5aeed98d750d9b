package io.troupe.registry;

import io.troupe.actor.EventTypes;

/**
 * To a subscriber of a name: an instance of it became live (registered, or its node connected and announced it).
 * A new subscriber first gets one for every instance live at the time.
 *
 * @param instance the instance.
 */
public record ServiceUp(ServiceInstance instance)
{
    /** Type id of the event, in the registry space. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_REGISTRY, 1);
}
