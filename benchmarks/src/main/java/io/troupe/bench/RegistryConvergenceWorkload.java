package io.troupe.bench;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ServiceId;
import io.troupe.interconnect.IdleMode;
import io.troupe.interconnect.Interconnect;
import io.troupe.interconnect.InterconnectConfig;
import io.troupe.interconnect.LoopbackPorts;
import io.troupe.interconnect.PeerAddress;
import io.troupe.registry.RegistryConfig;
import io.troupe.registry.ServiceRegistry;
import io.troupe.registry.ServiceUp;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code registry.convergence}: three nodes in this JVM on loopback, each with its actor system (one pool thread),
 * interconnect and service directory (no replica). For each of N names in turn: an actor on node 3 subscribes to
 * the name, node 1 registers an instance of it, and the time from just before {@code register} on node 1 to the
 * {@link ServiceUp} arriving at node 3's subscriber is one sample; the next name starts once it arrived. A
 * warm-up of 1,000 names (not counted) comes first. Figures: p50, p99 and max of the samples, in microseconds.
 *
 * <p>{@code --warmup} and {@code --seconds} do not apply: the work is a fixed count.
 */
final class RegistryConvergenceWorkload implements Workload
{
    private static final String NAMES = "names";
    private static final long DEFAULT_NAMES = 10_000;
    private static final int WARMUP_NAMES = 1_000;

    @Override
    public String name()
    {
        return "registry.convergence";
    }

    @Override
    public List<String> options()
    {
        return List.of(NAMES);
    }

    @Override
    public String usage()
    {
        return "  registry.convergence [--names N]  3 nodes in one JVM: register on node 1 until node 3 hears it,\n" +
            "                                 N names one after the other (default 10000); p50/p99/max in us";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final int names = (int)options.count(NAMES, DEFAULT_NAMES, 1, 1_000_000);
        final int[] ports = LoopbackPorts.freeUdp(3);
        final ActorSystem[] systems = new ActorSystem[3];
        final Interconnect[] interconnects = new Interconnect[3];
        final ServiceRegistry[] registries = new ServiceRegistry[3];
        try
        {
            for (int i = 0; i < 3; i++)
            {
                systems[i] = BenchSystems.start(1, i + 1);
                final InterconnectConfig config = new InterconnectConfig().clusterId("bench-registry")
                    .clusterSecret(RemoteNodes.SECRET).bindHost(RemoteNodes.HOST).bindPort(ports[i])
                    .idleMode(IdleMode.BACKOFF);
                for (int j = 0; j < 3; j++)
                {
                    if (j != i)
                    {
                        config.peer(new PeerAddress(j + 1, RemoteNodes.HOST, ports[j]));
                    }
                }
                interconnects[i] = Interconnect.start(systems[i], config, RemoteCodecs.registry());
                registries[i] = ServiceRegistry.start(systems[i], interconnects[i],
                    new RegistryConfig().capacity(names + WARMUP_NAMES + 16));
            }
            awaitSessions(interconnects);
            final AtomicReference<CountDownLatch> arrived = new AtomicReference<>();
            final ActorId subscriber = systems[2].register((ctx, envelope) ->
            {
                if (envelope.event() instanceof ServiceUp)
                {
                    arrived.get().countDown();
                }
            });
            final ActorId instance = systems[0].register((ctx, envelope) -> { });
            measure(registries, subscriber, instance, arrived, "warm", WARMUP_NAMES);
            final long[] samples = measure(registries, subscriber, instance, arrived, "n", names);
            Arrays.sort(samples);
            Report.result("registry.convergence.p50", samples[samples.length / 2] / 1e3, "us");
            Report.result("registry.convergence.p99", samples[(int)Math.min(samples.length - 1L,
                (long)Math.ceil(samples.length * 0.99) - 1)] / 1e3, "us");
            Report.result("registry.convergence.max", samples[samples.length - 1] / 1e3, "us");
        }
        finally
        {
            for (int i = 2; i >= 0; i--)
            {
                if (registries[i] != null)
                {
                    registries[i].close();
                }
                if (interconnects[i] != null)
                {
                    interconnects[i].close();
                }
                if (systems[i] != null)
                {
                    systems[i].close();
                }
            }
        }
    }

    private static long[] measure(final ServiceRegistry[] registries, final ActorId subscriber, final ActorId instance,
        final AtomicReference<CountDownLatch> arrived, final String prefix, final int count) throws InterruptedException
    {
        final long[] samples = new long[count];
        for (int i = 0; i < count; i++)
        {
            final ServiceId name = ServiceId.of(0, prefix + i);
            final CountDownLatch latch = new CountDownLatch(1);
            arrived.set(latch);
            registries[2].subscribe(name, subscriber);
            final long start = System.nanoTime();
            registries[0].register(name, instance);
            if (!latch.await(10, TimeUnit.SECONDS))
            {
                throw new IllegalStateException("node 3 did not hear of " + name + " within 10 s");
            }
            samples[i] = System.nanoTime() - start;
            registries[2].unsubscribe(name, subscriber);
        }
        return samples;
    }

    private static void awaitSessions(final Interconnect[] interconnects) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(interconnects[0].isConnected(2) && interconnects[0].isConnected(3) &&
            interconnects[1].isConnected(3) && interconnects[2].isConnected(1) && interconnects[2].isConnected(2)))
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("the three nodes did not connect within 30 s");
            }
            Thread.sleep(10);
        }
        Thread.sleep(200); // each node's snapshot to the others
    }
}
