package io.troupe.bench;

import com.typesafe.config.ConfigFactory;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ServiceId;
import io.troupe.interconnect.IdleMode;
import io.troupe.node.Node;
import io.troupe.node.NodeConfig;
import io.troupe.node.client.ClientCounter;
import io.troupe.node.local.LocalCluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code client.node}: the node the {@code client.*} workloads' client talks to, in a child process they start; not
 * meant to be run by hand. A whole node ({@link Node}: actor system, interconnect with no peers, service directory
 * without a replica, client ingress) on {@code --port} with one pool of {@code --threads} threads, and the services
 * {@value RemotePeerWorkload#SINK} ({@link ChunkSink}), {@value RemotePeerWorkload#ECHO} ({@link Echo}),
 * {@value RemotePeerWorkload#FLOOD} ({@link FloodConsumer}) and {@value RemotePeerWorkload#FLOOD_MONITOR}
 * ({@link FloodMonitor}) in its directory. Runs until its stdin ends, then prints its client counters on stderr.
 */
final class ClientNodeWorkload implements Workload
{
    /** The cluster id of the client workloads. */
    static final String CLUSTER = "bench-client";
    /** The client secret of the client workloads. */
    static final String CLIENT_SECRET = "troupe benchmark client secret";
    static final String PORT = "port";
    static final String CREDIT = "credit";

    @Override
    public String name()
    {
        return "client.node";
    }

    @Override
    public List<String> options()
    {
        return List.of(PORT, RemoteNodes.IDLE, CREDIT);
    }

    @Override
    public String usage()
    {
        return "  client.node --port P [--idle backoff|spin] [--credit N]\n" +
            "                                 the node of client.ingress, client.ask.rtt and client.flood (started " +
            "by\n" +
            "                                 them)";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        if (!options.has(PORT))
        {
            throw new UsageException("client.node needs --port");
        }
        final int port = (int)options.count(PORT, 0, 1, 65535);
        final IdleMode idle = RemoteNodes.idle(options);
        final int threads = options.threads(RemoteNodes.DEFAULT_THREADS);
        final long credit = options.count(CREDIT, 16_384, 1, 1L << 40);
        final Path dataDir;
        try
        {
            dataDir = Files.createTempDirectory("troupe-bench-client-node");
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("no temporary data directory", ex);
        }
        final String hocon = String.join("\n",
            "troupe {",
            "  node-id = " + RemoteNodes.PEER_NODE,
            "  cluster-id = \"" + CLUSTER + "\"",
            "  cluster-secret = \"" + new String(RemoteNodes.SECRET, StandardCharsets.US_ASCII) + "\"",
            "  data-dir = \"" + dataDir.toString().replace("\\", "\\\\") + "\"",
            "  shutdown-timeout = 1s",
            "  bind { host = \"" + RemoteNodes.HOST + "\", port = " + port + " }",
            "  pools = [ { name = \"default\", threads = " + threads + " } ]",
            "  registry.replica = false",
            "  transport.idle = " + idle.name().toLowerCase(Locale.ROOT),
            "  transport.frame-protection = " + RemoteNodes.frameProtection().name().toLowerCase(Locale.ROOT),
            "  client { secret = \"" + CLIENT_SECRET + "\", credit-threshold = " + credit + " }",
            // the node's counters thread (default 1s): -Dtroupe.bench.counters-interval=100ms or 10s,
            // to measure its cost
            "  ops.counters-interval = " + System.getProperty("troupe.bench.counters-interval", "1s"),
            "}");
        Report.progress("client.node: node %d on %s:%d, idle=%s threads=%d credit=%d pid=%d", RemoteNodes.PEER_NODE,
            RemoteNodes.HOST, port, idle, threads, credit, ProcessHandle.current().pid());
        final Node node = Node.start(NodeConfig.from(ConfigFactory.parseString(hocon), "client.node"), system -> { },
            RemoteCodecs.codecs());
        try
        {
            final ActorSystem system = node.system();
            node.registry().register(ServiceId.of(0, RemotePeerWorkload.SINK), system.register(new ChunkSink()));
            node.registry().register(ServiceId.of(0, RemotePeerWorkload.ECHO), system.register(new Echo()));
            final FloodConsumer consumer = new FloodConsumer();
            node.registry().register(ServiceId.of(0, RemotePeerWorkload.FLOOD), system.register(consumer));
            node.registry().register(ServiceId.of(0, RemotePeerWorkload.FLOOD_MONITOR),
                system.register(new FloodMonitor(consumer)));
            RemotePeerWorkload.awaitEndOfInput(System.in, name());
            final StringBuilder counters = new StringBuilder("client.node: client counters:");
            for (final ClientCounter counter : ClientCounter.values())
            {
                final long value = node.clients().count(counter);
                if (value != 0)
                {
                    counters.append(' ').append(counter.name().toLowerCase(Locale.ROOT)).append('=').append(value);
                }
            }
            Report.progress("%s", counters);
        }
        finally
        {
            node.close();
            LocalCluster.deleteTree(dataDir);
        }
    }
}
