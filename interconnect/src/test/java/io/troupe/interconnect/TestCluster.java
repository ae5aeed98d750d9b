package io.troupe.interconnect;

import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.EventTypes;
import io.troupe.actor.PoolConfig;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.serialization.RecordCodec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Several nodes in one JVM, each with its own actor system, interconnect, embedded media driver and Aeron
 * directory, talking over real UDP on 127.0.0.1.
 */
final class TestCluster implements AutoCloseable
{
    static final int TEXT = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 1);
    static final byte[] SECRET = "a test cluster secret, 32 bytes!".getBytes(StandardCharsets.UTF_8);
    static final EventCodecRegistry CODECS = EventCodecRegistry.builder()
        .withTroupeCodecs()
        .register(RecordCodec.of(TEXT, "test.Text", String.class, (out, text) -> out.writeString(text), in -> in.readString()))
        .build();

    final List<Node> nodes = new ArrayList<>();
    private final String clusterId = "test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();

    /** One node. */
    static final class Node
    {
        final int id;
        final int port;
        ActorSystem system;
        Interconnect interconnect;

        Node(final int id, final int port)
        {
            this.id = id;
            this.port = port;
        }
    }

    /** The flow control settings of the nodes started from now on (a fresh config for each). */
    java.util.function.Supplier<io.troupe.actor.flow.FlowControlConfig> flowControl =
        io.troupe.actor.flow.FlowControlConfig::new;
    /** The memory quota of the nodes started from now on (none by default). */
    java.util.function.Supplier<io.troupe.memquota.MemoryQuotaConfig> memoryQuota =
        io.troupe.memquota.MemoryQuotaConfig::disabled;

    static TestCluster of(final int count)
    {
        final TestCluster cluster = new TestCluster();
        for (int i = 1; i <= count; i++)
        {
            cluster.nodes.add(new Node(i, freePort()));
        }
        return cluster;
    }

    InterconnectConfig config(final Node node)
    {
        final InterconnectConfig config = new InterconnectConfig()
            .clusterId(clusterId)
            .clusterSecret(SECRET)
            .bindHost("127.0.0.1")
            .bindPort(node.port)
            .aeronDir(System.getProperty("java.io.tmpdir") + "/troupe-it-" + clusterId + "-" + node.id)
            .heartbeatInterval(Duration.ofMillis(50))
            .failureTimeout(Duration.ofMillis(1000))
            .handshakeRetryMin(Duration.ofMillis(20))
            .handshakeRetryMax(Duration.ofMillis(200));
        for (final Node peer : nodes)
        {
            if (peer != node)
            {
                config.peer(new PeerAddress(peer.id, "127.0.0.1", peer.port));
            }
        }
        return config;
    }

    TestCluster startAll()
    {
        for (final Node node : nodes)
        {
            start(node, config(node));
        }
        return this;
    }

    Node start(final Node node, final InterconnectConfig config)
    {
        node.system = ActorSystem.start(new ActorSystemConfig().nodeId(node.id).threadNamePrefix("it-")
            .pool(PoolConfig.named("default").threads(1)).flowControl(flowControl.get())
            .memoryQuota(memoryQuota.get()));
        node.interconnect = Interconnect.start(node.system, config, CODECS);
        return node;
    }

    void stop(final Node node)
    {
        if (node.interconnect != null)
        {
            node.interconnect.close();
            node.interconnect = null;
        }
        if (node.system != null)
        {
            node.system.close();
            node.system = null;
        }
    }

    Node node(final int id)
    {
        return nodes.get(id - 1);
    }

    void awaitConnected(final Duration timeout)
    {
        await(() -> nodes.stream().allMatch(n -> n.interconnect != null && nodes.stream()
            .filter(p -> p != n && p.interconnect != null)
            .allMatch(p -> n.interconnect.isConnected(p.id))), timeout, "all sessions up");
    }

    static void await(final BooleanSupplier condition, final Duration timeout, final String what)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new AssertionError("timed out after " + timeout + " waiting for: " + what);
            }
            try
            {
                Thread.sleep(5);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what);
            }
        }
    }

    static int freePort()
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
        for (final Node node : nodes)
        {
            stop(node);
        }
    }
}
