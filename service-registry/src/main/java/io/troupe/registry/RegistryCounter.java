package io.troupe.registry;

import io.troupe.memquota.CounterDescriptor;

import static io.troupe.memquota.CounterDescriptor.count;
import static io.troupe.memquota.CounterDescriptor.gauge;

/** The service directory's counters (type ids 700..799), each read from the {@link ServiceRegistry}. */
public enum RegistryCounter implements CounterDescriptor.Of<ServiceRegistry>
{
    /** Instances in the directory, all nodes. */
    REGISTRY_ENTRIES(gauge(700, "registry_entries", "",
        "instances in the directory, all nodes", ServiceRegistry::size)),
    /** Directory entries refused. */
    REGISTRY_REFUSED_ENTRIES(count(701, "registry_refused_entries", "",
        "directory entries refused", ServiceRegistry::refusedEntries)),
    /** Directory updates older than known. */
    REGISTRY_STALE_UPDATES(count(702, "registry_stale_updates", "",
        "directory updates older than known", ServiceRegistry::staleUpdates)),
    /** 1 if the replica file was unusable and set aside. */
    REGISTRY_REPLICA_SET_ASIDE(gauge(703, "registry_replica_set_aside", "",
        "1 if the replica file was unusable and set aside", c -> c.replicaSetAside() ? 1 : 0));

    private final Declaration<ServiceRegistry> declaration;

    RegistryCounter(final Declaration<ServiceRegistry> declaration)
    {
        this.declaration = declaration;
    }

    @Override
    public Declaration<ServiceRegistry> declaration()
    {
        return declaration;
    }
}
