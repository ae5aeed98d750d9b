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
 *   ClusterEndpoints: epoch int64, count int32 (0..MAX_ENDPOINTS), then count strings "host:port"
 * </pre>
 *
 * A service field that is not a service id, a missing id, a count out of range or an endpoint that is not
 * {@code host:port} (a port 1..65535, a host of at most 255 bytes) is a
 * {@link io.troupe.actor.MalformedEventException}.
 */
public final class RegistryCodecs
{
    /**
     * The most instances a {@link LookupResult} carries (more than a registry of the default capacity holds per name).
     */
    public static final int MAX_INSTANCES = 4096;
    /** The most endpoints a {@link ClusterEndpoints} carries (the most members a membership has by default). */
    public static final int MAX_ENDPOINTS = 1024;

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

    /** {@link ClusterEndpoints}; at most {@link #MAX_ENDPOINTS} endpoints (encoding more throws). */
    public static final EventCodec<ClusterEndpoints> CLUSTER_ENDPOINTS = RecordCodec.of(ClusterEndpoints.TYPE,
        "registry.ClusterEndpoints", ClusterEndpoints.class, RegistryCodecs::writeEndpoints,
        RegistryCodecs::readEndpoints);

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
            .registerSystem(LOOKUP_RESULT).registerSystem(SUBSCRIBE).registerSystem(UNSUBSCRIBE)
            .registerSystem(CLUSTER_ENDPOINTS);
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

    private static void writeEndpoints(final EventWriter out, final ClusterEndpoints endpoints)
    {
        final List<String> list = endpoints.endpoints();
        if (list.size() > MAX_ENDPOINTS)
        {
            throw new IllegalArgumentException("cluster endpoints carry at most " + MAX_ENDPOINTS + " endpoints, not " +
                list.size());
        }
        out.writeLong(endpoints.epoch()).writeInt(list.size());
        for (final String endpoint : list)
        {
            out.writeString(endpoint);
        }
    }

    private static ClusterEndpoints readEndpoints(final EventReader in)
    {
        final long epoch = in.readLong();
        final int count = in.readInt();
        if (count < 0 || count > MAX_ENDPOINTS)
        {
            throw in.malformed("endpoint count " + count + " is not 0.." + MAX_ENDPOINTS);
        }
        final List<String> endpoints = new ArrayList<>(Math.min(count, in.remaining() / 8 + 1));
        for (int i = 0; i < count; i++)
        {
            final String endpoint = in.readString();
            if (!isEndpoint(endpoint))
            {
                throw in.malformed("endpoint " + i + " is not host:port");
            }
            endpoints.add(endpoint);
        }
        return new ClusterEndpoints(epoch, endpoints);
    }

    /**
     * Whether a string is {@code host:port}: a host of 1..255 bytes without a space, a port 1..65535.
     *
     * @param endpoint the string, possibly null.
     * @return true if it is.
     */
    public static boolean isEndpoint(final String endpoint)
    {
        if (endpoint == null)
        {
            return false;
        }
        final int colon = endpoint.lastIndexOf(':');
        if (colon < 1 || colon > 255 || colon == endpoint.length() - 1 || endpoint.length() - colon > 6 ||
            endpoint.indexOf(' ') >= 0)
        {
            return false;
        }
        int port = 0;
        for (int i = colon + 1; i < endpoint.length(); i++)
        {
            final char c = endpoint.charAt(i);
            if (c < '0' || c > '9')
            {
                return false;
            }
            port = port * 10 + (c - '0');
        }
        return port >= 1 && port <= 65_535;
    }
}
