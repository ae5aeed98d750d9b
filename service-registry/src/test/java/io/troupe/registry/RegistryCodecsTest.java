package io.troupe.registry;

import io.troupe.actor.ActorId;
import io.troupe.actor.MalformedEventException;
import io.troupe.actor.ServiceId;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.EventCodecRegistry;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The directory's events through their codecs, and payloads that must be refused. */
class RegistryCodecsTest
{
    private static final ServiceId ECHO = ServiceId.of(3, "echo");
    private static final ServiceInstance INSTANCE = new ServiceInstance(ECHO, ActorId.of(3, 77, 5), 123_456L);

    private static <T> T roundTrip(final EventCodec<T> codec, final T event)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[codec.encodedLength(event) + 8]);
        final int length = codec.encode(event, buffer, 8);
        assertThat(length).isEqualTo(codec.encodedLength(event));
        return codec.decode(buffer, 8, length);
    }

    @Test
    void everyEventComesBackEqual()
    {
        assertThat(roundTrip(RegistryCodecs.SERVICE_UP, new ServiceUp(INSTANCE))).isEqualTo(new ServiceUp(INSTANCE));
        assertThat(roundTrip(RegistryCodecs.SERVICE_DOWN, new ServiceDown(INSTANCE)))
            .isEqualTo(new ServiceDown(INSTANCE));
        assertThat(roundTrip(RegistryCodecs.LOOKUP, new Lookup(ECHO))).isEqualTo(new Lookup(ECHO));
        assertThat(roundTrip(RegistryCodecs.SUBSCRIBE, new Subscribe(ECHO))).isEqualTo(new Subscribe(ECHO));
        assertThat(roundTrip(RegistryCodecs.UNSUBSCRIBE, new Unsubscribe(ECHO))).isEqualTo(new Unsubscribe(ECHO));
        final LookupResult two = new LookupResult(ECHO, List.of(INSTANCE,
            new ServiceInstance(ServiceId.of(4, "echo"), ActorId.of(4, 1, 1), 9L)));
        assertThat(roundTrip(RegistryCodecs.LOOKUP_RESULT, two)).isEqualTo(two);
        assertThat(roundTrip(RegistryCodecs.LOOKUP_RESULT, new LookupResult(ECHO, List.of())).instances()).isEmpty();
        assertThat(roundTrip(RegistryCodecs.LOOKUP, new Lookup(ECHO)).service()).isInstanceOf(ServiceId.class);
    }

    @Test
    void clusterEndpointsComeBackEqualAndWhatIsNotHostAndPortIsMalformed()
    {
        final ClusterEndpoints endpoints = new ClusterEndpoints(7, List.of("10.0.0.1:40100", "node-b.example:7"));
        assertThat(roundTrip(RegistryCodecs.CLUSTER_ENDPOINTS, endpoints)).isEqualTo(endpoints);
        assertThat(roundTrip(RegistryCodecs.CLUSTER_ENDPOINTS, new ClusterEndpoints(0, List.of())).endpoints())
            .isEmpty();
        for (final String bad : new String[] {"host", ":1", "host:", "host:0", "host:65536", "host:12a", "a b:1",
            "h:1234567"})
        {
            assertThat(RegistryCodecs.isEndpoint(bad)).as(bad).isFalse();
            final ClusterEndpoints carrying = new ClusterEndpoints(1, List.of(bad));
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
            final int length = RegistryCodecs.CLUSTER_ENDPOINTS.encode(carrying, buffer, 0);
            assertThatThrownBy(() -> RegistryCodecs.CLUSTER_ENDPOINTS.decode(buffer, 0, length)).as(bad)
                .isInstanceOf(MalformedEventException.class).hasMessageContaining("not host:port");
        }
        final UnsafeBuffer counted = new UnsafeBuffer(new byte[16]);
        counted.putLong(0, 1L, ByteOrder.LITTLE_ENDIAN);
        counted.putInt(8, RegistryCodecs.MAX_ENDPOINTS + 1, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> RegistryCodecs.CLUSTER_ENDPOINTS.decode(counted, 0, 12))
            .isInstanceOf(MalformedEventException.class).hasMessageContaining("endpoint count 1025");
        assertThatThrownBy(() -> RegistryCodecs.CLUSTER_ENDPOINTS.encodedLength(new ClusterEndpoints(1,
            Collections.nCopies(RegistryCodecs.MAX_ENDPOINTS + 1, "h:1"))))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theyRegisterAsTroupesOwnBesideTheOthers()
    {
        final EventCodecRegistry codecs =
            RegistryCodecs.register(EventCodecRegistry.builder().withTroupeCodecs()).build();
        assertThat(codecs.codec(LookupResult.TYPE)).isSameAs(RegistryCodecs.LOOKUP_RESULT);
        assertThat(codecs.codecFor(ServiceUp.class)).isSameAs(RegistryCodecs.SERVICE_UP);
    }

    @Test
    void anActorWhereAServiceBelongsOrACountOutOfRangeIsMalformed()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        // a Subscribe's bytes carry an actor id: read as a Lookup it is not a service id
        final int length = RegistryCodecs.SERVICE_UP.encode(
            new ServiceUp(new ServiceInstance(ECHO, ActorId.of(3, 77, 5), 1L)), buffer, 0);
        buffer.putBytes(0, buffer, 17, 17); // the actor's field where the service's was
        assertThatThrownBy(() -> RegistryCodecs.LOOKUP.decode(buffer, 0, length))
            .isInstanceOf(MalformedEventException.class).hasMessageContaining("expected a service id");

        final LookupResult one = new LookupResult(ECHO, List.of(INSTANCE));
        final UnsafeBuffer result = new UnsafeBuffer(new byte[RegistryCodecs.LOOKUP_RESULT.encodedLength(one)]);
        RegistryCodecs.LOOKUP_RESULT.encode(one, result, 0);
        result.putInt(17, RegistryCodecs.MAX_INSTANCES + 1, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> RegistryCodecs.LOOKUP_RESULT.decode(result, 0, result.capacity()))
            .isInstanceOf(MalformedEventException.class).hasMessageContaining("instance count");
        result.putInt(17, 2, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> RegistryCodecs.LOOKUP_RESULT.decode(result, 0, result.capacity()))
            .as("says two, carries one").isInstanceOf(MalformedEventException.class);

        final List<ServiceInstance> many = new ArrayList<>();
        for (int i = 0; i <= RegistryCodecs.MAX_INSTANCES; i++)
        {
            many.add(INSTANCE);
        }
        assertThatThrownBy(() -> RegistryCodecs.LOOKUP_RESULT.encodedLength(new LookupResult(ECHO, many)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most");
    }
}
