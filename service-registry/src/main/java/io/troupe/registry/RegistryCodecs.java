package io.troupe.registry;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.serialization.EventReader;
import io.troupe.serialization.EventWriter;
import io.troupe.serialization.RecordCodec;

import java.util.ArrayList;
import java.util.List;

/**
 * Codecs of the directory's events, so that they reach processes outside the node: a client's lookups and
 * subscriptions, and the notices it gets back. Register them with {@link #register} (the node and the
 * {@code cluster-client} do). Written with {@link RecordCodec}:
 *
 * <pre>
 *   ServiceInstance: service (ActorId field), actor (ActorId field), incarnation int64
 *   ServiceUp, ServiceDown: a ServiceInstance
 *   Lookup, Subscribe, Unsubscribe: service (ActorId field)
 *   LookupResult: service (ActorId field), count int32 (0..MAX_INSTANCES), then count ServiceInstances
 * </pre>
 *
 * A service field that is not a service id, a missing id or a count out of range is a
 * {@link io.troupe.actor.MalformedEventException}.
 */
public final class RegistryCodecs
{
    /**
     * The most instances a {@link LookupResult} carries (more than a registry of the default capacity holds per name).
     */
    public static final int MAX_INSTANCES = 4096;

    /** {@link ServiceUp}. */
    public static final EventCodec<ServiceUp> SERVICE_UP = RecordCodec.of(ServiceUp.TYPE, "registry.ServiceUp",
        ServiceUp.class, (out, up) -> writeInstance(out, up.instance()), in -> new ServiceUp(readInstance(in)));
    /** {@link ServiceDown}. */
    public static final EventCodec<ServiceDown> SERVICE_DOWN = RecordCodec.of(ServiceDown.TYPE, "registry.ServiceDown",
        ServiceDown.class, (out, down) -> writeInstance(out, down.instance()), in -> new ServiceDown(readInstance(in)));
    /** {@link Lookup}. */
    public static final EventCodec<Lookup> LOOKUP = RecordCodec.of(Lookup.TYPE, "registry.Lookup", Lookup.class,
        (out, lookup) -> out.writeActorId(lookup.service()), in -> new Lookup(readService(in)));
    /** {@link Subscribe}. */
    public static final EventCodec<Subscribe> SUBSCRIBE = RecordCodec.of(Subscribe.TYPE, "registry.Subscribe",
        Subscribe.class, (out, subscribe) -> out.writeActorId(subscribe.service()),
        in -> new Subscribe(readService(in)));
    /** {@link Unsubscribe}. */
    public static final EventCodec<Unsubscribe> UNSUBSCRIBE = RecordCodec.of(Unsubscribe.TYPE, "registry.Unsubscribe",
        Unsubscribe.class, (out, unsubscribe) -> out.writeActorId(unsubscribe.service()),
        in -> new Unsubscribe(readService(in)));
    /** {@link LookupResult}; at most {@link #MAX_INSTANCES} instances (encoding more throws). */
    public static final EventCodec<LookupResult> LOOKUP_RESULT = RecordCodec.of(LookupResult.TYPE,
        "registry.LookupResult", LookupResult.class, RegistryCodecs::writeResult, RegistryCodecs::readResult);

    private RegistryCodecs()
    {
    }

    /**
     * Registers every codec of this class.
     *
     * @param builder the registry being built.
     * @return the builder.
     */
    public static EventCodecRegistry.Builder register(final EventCodecRegistry.Builder builder)
    {
        return builder.registerSystem(SERVICE_UP).registerSystem(SERVICE_DOWN).registerSystem(LOOKUP)
            .registerSystem(LOOKUP_RESULT).registerSystem(SUBSCRIBE).registerSystem(UNSUBSCRIBE);
    }

    private static void writeInstance(final EventWriter out, final ServiceInstance instance)
    {
        out.writeActorId(instance.service()).writeActorId(instance.actor()).writeLong(instance.incarnation());
    }

    private static ServiceInstance readInstance(final EventReader in)
    {
        final ServiceId service = readService(in);
        final ActorId actor = in.readActorId();
        if (actor == null || actor.isService())
        {
            throw in.malformed("an instance's actor is " + actor + ", not an actor id");
        }
        return new ServiceInstance(service, actor, in.readLong());
    }

    private static ServiceId readService(final EventReader in)
    {
        final ActorId id = in.readActorId();
        if (!(id instanceof ServiceId service))
        {
            throw in.malformed("expected a service id, read " + id);
        }
        return service;
    }

    private static void writeResult(final EventWriter out, final LookupResult result)
    {
        final List<ServiceInstance> instances = result.instances();
        if (instances.size() > MAX_INSTANCES)
        {
            throw new IllegalArgumentException("a lookup result carries at most " + MAX_INSTANCES + " instances, not " +
                instances.size());
        }
        out.writeActorId(result.service()).writeInt(instances.size());
        for (final ServiceInstance instance : instances)
        {
            writeInstance(out, instance);
        }
    }

    private static LookupResult readResult(final EventReader in)
    {
        final ServiceId service = readService(in);
        final int count = in.readInt();
        if (count < 0 || count > MAX_INSTANCES)
        {
            throw in.malformed("instance count " + count + " is not 0.." + MAX_INSTANCES);
        }
        final List<ServiceInstance> instances = new ArrayList<>(Math.min(count, in.remaining() / 16 + 1));
        for (int i = 0; i < count; i++)
        {
            instances.add(readInstance(in));
        }
        return new LookupResult(service, instances);
    }
}
