package io.troupe.client;

import io.troupe.registry.ServiceInstance;

/**
 * Hears the instances of a name come and go ({@link TroupeClient#subscribe}). Called on the client's thread: it must
 * not block. After the client moves to another node it hears every live instance again (as the node it is on now
 * sees them).
 */
public interface ServiceListener
{
    /**
     * An instance is live.
     *
     * @param instance the instance.
     */
    void up(ServiceInstance instance);

    /**
     * An instance went.
     *
     * @param instance the instance.
     */
    void down(ServiceInstance instance);
}
