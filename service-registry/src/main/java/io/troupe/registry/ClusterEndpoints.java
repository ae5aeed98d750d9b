package io.troupe.registry;

import io.troupe.actor.EventTypes;

import java.util.List;

/**
 * To a client: where it can reach the cluster, as the node it is connected to sees the membership at one epoch —
 * the {@code host:port} of every member that is up. A node sends it when a client's session opens and whenever the
 * list changes; the client adds the endpoints to the ones it was given, and fails over to them.
 *
 * @param epoch     the membership epoch the list is of (a client ignores a list older than the one it has).
 * @param endpoints {@code host:port} of each member up, at most {@link RegistryCodecs#MAX_ENDPOINTS}; an
 *                  unmodifiable list.
 */
public record ClusterEndpoints(long epoch, List<String> endpoints)
{
    /** Type id of the event, in the registry space. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_REGISTRY, 7);

    /**
     * Copies the list.
     *
     * @param epoch     the membership epoch.
     * @param endpoints the endpoints.
     */
    public ClusterEndpoints
    {
        endpoints = List.copyOf(endpoints);
    }
}
