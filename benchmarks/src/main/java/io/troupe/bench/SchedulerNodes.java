package io.troupe.bench;

import io.troupe.actor.ActorSystem;
import io.troupe.actor.ServiceId;
import io.troupe.interconnect.IdleMode;
import io.troupe.interconnect.Interconnect;
import io.troupe.interconnect.InterconnectConfig;
import io.troupe.interconnect.LoopbackPorts;
import io.troupe.interconnect.PeerAddress;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The three nodes of the {@code scheduler.*} workloads, in this process on 127.0.0.1 (each with its own actor system,
 * embedded media driver and interconnect, back-off idle): node 1 sends, nodes 2 and 3 answer every request on their
 * {@value #ECHO} service with the request itself.
 */
final class SchedulerNodes implements AutoCloseable
{
    static final String ECHO = "echo";
    static final int[] PEERS = {2, 3};
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);

    final List<ActorSystem> systems = new ArrayList<>();
    final List<Interconnect> interconnects = new ArrayList<>();

    SchedulerNodes()
    {
        final int[] ports = LoopbackPorts.freeUdp(3);
        final String clusterId = "bench-scheduler-" + ports[0];
        try
        {
            for (int node = 1; node <= 3; node++)
            {
                final ActorSystem system = BenchSystems.start(1, node);
                systems.add(system);
                if (node != 1)
                {
                    system.registerService(ServiceId.of(0, ECHO), system.register((ctx, envelope) ->
                        ctx.reply(envelope.event())));
                }
                final InterconnectConfig config = new InterconnectConfig().clusterId(clusterId)
                    .clusterSecret(RemoteNodes.SECRET).bindHost(RemoteNodes.HOST).bindPort(ports[node - 1])
                    .idleMode(IdleMode.BACKOFF).frameProtection(RemoteNodes.frameProtection());
                for (int peer = 1; peer <= 3; peer++)
                {
                    if (peer != node)
                    {
                        config.peer(new PeerAddress(peer, RemoteNodes.HOST, ports[peer - 1]));
                    }
                }
                interconnects.add(Interconnect.start(system, config, RemoteCodecs.registry()));
            }
            final long deadline = System.nanoTime() + CONNECT_TIMEOUT.toNanos();
            while (!(driver().isConnected(2) && driver().isConnected(3)))
            {
                if (System.nanoTime() - deadline > 0)
                {
                    throw new IllegalStateException("the three nodes did not connect within " + CONNECT_TIMEOUT);
                }
                LockSupport.parkNanos(10_000_000L);
            }
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    ActorSystem system()
    {
        return systems.get(0);
    }

    Interconnect driver()
    {
        return interconnects.get(0);
    }

    @Override
    public void close()
    {
        interconnects.forEach(Interconnect::close);
        systems.forEach(system -> system.shutdown(Duration.ZERO));
    }
}
