package io.troupe.registry;

import io.troupe.actor.EventTypes;
import io.troupe.actor.ServiceId;

import java.util.List;

/**
 * The directory's answer to a {@link Lookup}: the instances live when it was asked, this node's first.
 *
 * @param service   the name asked for.
 * @param instances its live instances, possibly none; an unmodifiable list.
 */
public record LookupResult(ServiceId service, List<ServiceInstance> instances)
{
    /** Type id of the event, in the registry space. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_REGISTRY, 4);

    /**
     * Copies the list.
     *
     * @param service   the name asked for.
     * @param instances its live instances.
     */
    public LookupResult
    {
        instances = List.copyOf(instances);
    }
}
