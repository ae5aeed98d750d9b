package io.troupe.broker;

import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.PoolConfig;
import io.troupe.interconnect.Interconnect;
import io.troupe.interconnect.InterconnectConfig;
import io.troupe.interconnect.PeerAddress;
import io.troupe.serialization.EventCodecRegistry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Nodes 1 and 2 in one JVM, each with its own actor system, interconnect and embedded media driver, over real
 * UDP on 127.0.0.1, with the broker codecs registered. The node-starting part of interconnect's
 * {@code TestCluster}, cut down to two nodes.
 */
final class TwoNodes implements AutoCloseable
{
    static final EventCodecRegistry CODECS =
        BrokerCodecs.register(EventCodecRegistry.builder().withTroupeCodecs()).build();
    private static final byte[] SECRET = "a test cluster secret, 32 bytes!".getBytes(StandardCharsets.UTF_8);

    private final String clusterId = "broker-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
    private final int[] ports = {0, freePort(), freePort()};
    private final ActorSystem[] systems = new ActorSystem[3];
    private final Interconnect[] interconnects = new Interconnect[3];

    /** Starts both nodes and waits until each has a session with the other. */
    static TwoNodes start(final Duration timeout)
    {
        final TwoNodes nodes = new TwoNodes();
        try
        {
            nodes.start(1);
            nodes.start(2);
            await(() -> nodes.interconnects[1].isConnected(2) && nodes.interconnects[2].isConnected(1), timeout,
                "the session between nodes 1 and 2");
            return nodes;
        }
        catch (final RuntimeException | Error ex)
        {
            nodes.close();
            throw ex;
        }
    }

    ActorSystem system(final int node)
    {
        return systems[node];
    }

    boolean isConnected(final int node, final int peer)
    {
        return interconnects[node] != null && interconnects[node].isConnected(peer);
    }

    /** Exceptions thrown by handlers on the nodes still running: a decode failure would show here. */
    long handlerFailures()
    {
        long failures = 0;
        for (final ActorSystem system : systems)
        {
            failures += system == null ? 0 : system.counters().handlerFailures();
        }
        return failures;
    }

    private void start(final int node)
    {
        final int peer = 3 - node;
        final InterconnectConfig config = new InterconnectConfig()
            .clusterId(clusterId)
            .clusterSecret(SECRET)
            .bindHost("127.0.0.1")
            .bindPort(ports[node])
            .aeronDir(System.getProperty("java.io.tmpdir") + "/troupe-" + clusterId + "-" + node)
            .heartbeatInterval(Duration.ofMillis(50))
            .failureTimeout(Duration.ofMillis(1000))
            .handshakeRetryMin(Duration.ofMillis(20))
            .handshakeRetryMax(Duration.ofMillis(200))
            .peer(new PeerAddress(peer, "127.0.0.1", ports[peer]));
        systems[node] = ActorSystem.start(new ActorSystemConfig().nodeId(node).threadNamePrefix("n" + node + "-")
            .pool(PoolConfig.named("default").threads(1)));
        interconnects[node] = Interconnect.start(systems[node], config, CODECS);
    }

    /** Stops a node: its interconnect says goodbye, then its actor system stops. */
    void stop(final int node)
    {
        if (interconnects[node] != null)
        {
            interconnects[node].close();
            interconnects[node] = null;
        }
        if (systems[node] != null)
        {
            systems[node].close();
            systems[node] = null;
        }
    }

    static void await(final BooleanSupplier condition, final Duration timeout, final String what)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            try
            {
                Thread.sleep(5);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, ex);
            }
        }
    }

    private static int freePort()
    {
        try (DatagramSocket socket = new DatagramSocket(0))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public void close()
    {
        stop(1);
        stop(2);
    }
}
