package io.troupe.registry;

import io.troupe.memquota.CounterDescriptor;

import java.util.function.ToLongFunction;

/** The service directory's counters (type ids 700..799), each read from the {@link ServiceRegistry}. */
public enum RegistryCounter implements CounterDescriptor.Of<ServiceRegistry>
{
    /** Instances in the directory, all nodes. */
    REGISTRY_ENTRIES(700, "registry_entries", Kind.GAUGE, "",
        "instances in the directory, all nodes", ServiceRegistry::size),
    /** Directory entries refused. */
    REGISTRY_REFUSED_ENTRIES(701, "registry_refused_entries", Kind.COUNT, "",
        "directory entries refused", ServiceRegistry::refusedEntries),
    /** Directory updates older than known. */
    REGISTRY_STALE_UPDATES(702, "registry_stale_updates", Kind.COUNT, "",
        "directory updates older than known", ServiceRegistry::staleUpdates),
    /** 1 if the replica file was unusable and set aside. */
    REGISTRY_REPLICA_SET_ASIDE(703, "registry_replica_set_aside", Kind.GAUGE, "",
        "1 if the replica file was unusable and set aside", c -> c.replicaSetAside() ? 1 : 0);

    private final Declaration declaration;
    private final ToLongFunction<ServiceRegistry> reader;

    RegistryCounter(final int typeId, final String metricName, final Kind kind, final String labels,
        final String doc, final ToLongFunction<ServiceRegistry> reader)
    {
        this.declaration = new Declaration(typeId, metricName, kind, labels, doc);
        this.reader = reader;
    }

    @Override
    public Declaration declaration()
    {
        return declaration;
    }

    @Override
    public ToLongFunction<ServiceRegistry> reader()
    {
        return reader;
    }
}
