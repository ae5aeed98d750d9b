package io.troupe.interconnect;

import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.EventTypes;
import io.troupe.actor.FlowControlConfig;
import io.troupe.actor.PoolConfig;
import io.troupe.memquota.MemoryQuotaConfig;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.serialization.RecordCodec;
import io.troupe.testing.Await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The tests' multi-node harness: several nodes in one JVM, each with its own actor system, interconnect,
 * embedded media driver and Aeron directory, talking over real UDP on 127.0.0.1 (ports from
 * {@link LoopbackPorts}, Aeron directories named after the cluster and removed on close). Published in
 * interconnect's test-jar, so that every module above interconnect tests with the same harness; nodes in
 * child JVMs are {@code cluster-node}'s {@code LocalCluster}.
 *
 * <p>Set {@link #codecs}, {@link #flowControl} or {@link #memoryQuota} before starting nodes to change what
 * every node speaks or runs with; {@link #close()} stops every node.
 */
public final class TestCluster implements AutoCloseable
{
    public static final int TEXT = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 1);
    public static final byte[] SECRET = "a test cluster secret, 32 bytes!".getBytes(StandardCharsets.UTF_8);
    public static final EventCodecRegistry CODECS = EventCodecRegistry.builder()
        .withTroupeCodecs()
        .register(RecordCodec.of(TEXT, "test.Text", String.class, (out, text) -> out.writeString(text),
            in -> in.readString()))
        .build();
    /**
     * How long a test waits for what the nodes do (a session, a delivery, a report): generous, because time is not
     * what such a wait tests and a loaded 2-core machine is slow.
     */
    public static final Duration WAIT = Duration.ofSeconds(30);

    public final List<Node> nodes = new ArrayList<>();
    private final String clusterId = "test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();

    /** One node. */
    public static final class Node
    {
        public final int id;
        public final int port;
        public ActorSystem system;
        public Interconnect interconnect;

        Node(final int id, final int port)
        {
            this.id = id;
            this.port = port;
        }
    }

    /** The flow control settings of the nodes started from now on (a fresh config for each). */
    public Supplier<FlowControlConfig> flowControl = FlowControlConfig::new;
    /** The memory quota of the nodes started from now on (none by default). */
    public Supplier<MemoryQuotaConfig> memoryQuota = MemoryQuotaConfig::disabled;
    /** What every node speaks; {@link #CODECS} unless set before the nodes start. */
    public EventCodecRegistry codecs = CODECS;

    public static TestCluster of(final int count)
    {
        final TestCluster cluster = new TestCluster();
        final int[] ports = LoopbackPorts.freeUdp(count);
        for (int i = 1; i <= count; i++)
        {
            cluster.nodes.add(new Node(i, ports[i - 1]));
        }
        return cluster;
    }

    public InterconnectConfig config(final Node node)
    {
        return config(node, Map.of());
    }

    /**
     * A node's settings with some peers reached at other ports (a relay in between, say).
     *
     * @param node  the node.
     * @param ports port by peer node id, for the peers to reach elsewhere.
     * @return the settings.
     */
    public InterconnectConfig config(final Node node, final Map<Integer, Integer> ports)
    {
        final InterconnectConfig config = configWithoutPeers(node);
        for (final Node peer : nodes)
        {
            if (peer != node)
            {
                config.peer(new PeerAddress(peer.id, "127.0.0.1", ports.getOrDefault(peer.id, peer.port)));
            }
        }
        return config;
    }

    /**
     * A node's settings with no peers: a node that starts alone, whose peers are added at run time.
     *
     * @param node the node.
     * @return the settings.
     */
    public InterconnectConfig configWithoutPeers(final Node node)
    {
        return new InterconnectConfig()
            .clusterId(clusterId)
            .clusterSecret(SECRET)
            .bindHost("127.0.0.1")
            .bindPort(node.port)
            .aeronDir(System.getProperty("java.io.tmpdir") + "/troupe-it-" + clusterId + "-" + node.id)
            .heartbeatInterval(Duration.ofMillis(50))
            .failureTimeout(Duration.ofMillis(1000))
            .handshakeRetryMin(Duration.ofMillis(20))
            .handshakeRetryMax(Duration.ofMillis(200));
    }

    /**
     * Where a node listens, as its peers name it.
     *
     * @param node the node.
     * @return its address.
     */
    public PeerAddress address(final Node node)
    {
        return new PeerAddress(node.id, "127.0.0.1", node.port);
    }

    public TestCluster startAll()
    {
        for (final Node node : nodes)
        {
            start(node, config(node));
        }
        return this;
    }

    public Node start(final Node node, final InterconnectConfig config)
    {
        node.system = ActorSystem.start(new ActorSystemConfig().nodeId(node.id).threadNamePrefix("it-")
            .pool(PoolConfig.named("default").threads(1)).flowControl(flowControl.get())
            .memoryQuota(memoryQuota.get()));
        node.interconnect = Interconnect.start(node.system, config, codecs);
        return node;
    }

    public void stop(final Node node)
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

    public Node node(final int id)
    {
        return nodes.get(id - 1);
    }

    public void awaitConnected(final Duration timeout)
    {
        Await.until(() -> nodes.stream().allMatch(n -> n.interconnect != null && nodes.stream()
            .filter(p -> p != n && p.interconnect != null)
            .allMatch(p -> n.interconnect.isConnected(p.id))), timeout, "all sessions up");
    }

    /**
     * Handler exceptions counted by the running nodes' actor systems: a test that expects none checks this.
     *
     * @return the sum.
     */
    public long handlerFailures()
    {
        long failures = 0;
        for (final Node node : nodes)
        {
            failures += node.system == null ? 0 : node.system.counters().handlerFailures();
        }
        return failures;
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
