package io.troupe.chaos;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import io.troupe.chaos.workload.ChaosWorkload;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Network.Ipam;
import com.github.dockerjava.api.model.Volume;
import io.troupe.node.local.NodeProcess;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Container;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.MountableFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A cluster of node containers of the project's image ({@code -Dtroupe.image}) running the chaos workload
 * ({@code io.troupe.chaos.workload.ChaosWorkload}, from the jar {@code -Dchaos.workload.jar} in each container's
 * {@code troupe.application.lib-dir}): static node ids and addresses on a network of its own
 * ({@code 172.31.<octet>.0/24}), each node's ledger in a host directory mounted at {@code /chaos}. Nodes talk only to
 * each other. The nodes find each other from their configs' peer lists, or with a membership ({@link #withMembership})
 * from its member table: nodes 1..voters run its voters, and joiners (created with the cluster, started later) have
 * only the seeds. Close it to remove every container and the network.
 */
final class ChaosCluster implements AutoCloseable
{
    /** The JVM's GC and safepoint log in a node's ledger directory. */
    static final String PAUSE_LOG = "pauses.log";
    static final int PORT = 40100;
    /** A voter's first port (its membership ports follow it). */
    static final int VOTER_PORT = 40200;
    /** A relayed node's relay listens at its own address, this port plus the peer's id, for each peer. */
    static final int RELAY_PORT_FIRST = 31000;
    /** The ports a relay sends from ({@code DelayRelay.FLOW_PORT_FIRST}, 300 of them), left alone by the rules. */
    private static final String RELAY_FLOW_PORTS = "31100:31399";
    /** The data directory inside a node's container. */
    static final String DATA_DIR = "/var/lib/troupe/data";
    /** /dev/shm per container (docs/deployment.md: {@code --shm-size=256m}). */
    static final long SHM_BYTES = 256L << 20;
    /** The cluster's id. */
    static final String CLUSTER_ID = "chaos";
    /** Where a container has the chaos workload's jar (in {@code troupe.application.lib-dir}). */
    static final String WORKLOAD_JAR = "/opt/chaos/lib/chaos-workload.jar";
    /** The secret the nodes admit clients with ({@code troupe.client.secret}). */
    static final String CLIENT_SECRET = "chaos-client-secret-0123456789";
    private static final String SECRET = "chaos-cluster-secret-0123456789";

    private final String image = System.getProperty("troupe.image", "troupe/node:latest");
    private final Path workloadJar = Path.of(System.getProperty("chaos.workload.jar", "target/chaos-workload.jar"));
    private final String subnetPrefix;
    private final Network network;
    private final int size;
    private final int voters;
    private final Path ledgerRoot;
    private final Map<Integer, GenericContainer<?>> nodes = new TreeMap<>();
    private final DockerClient docker = DockerClientFactory.instance().client();
    private boolean relayed;

    /**
     * A cluster of {@code size} nodes, ids 1..size, not started.
     *
     * @param octet      the subnet's third octet, distinct per test class.
     * @param size       how many nodes.
     * @param ledgerRoot where the nodes' ledger directories go on this host.
     * @param rate       events per second each node sends each peer.
     */
    ChaosCluster(final int octet, final int size, final Path ledgerRoot, final int rate)
    {
        this(octet, size, 0, 0, ledgerRoot, rate);
    }

    /**
     * A cluster of {@code size} nodes kept by a membership whose voters are nodes 1..voters, and {@code joiners} more
     * (ids size+1..size+joiners) whose configs have only the seeds: {@link #start} starts the first {@code size},
     * {@link #startJoiner} a joiner.
     *
     * @param octet      the subnet's third octet, distinct per test class.
     * @param size       how many nodes start with the cluster.
     * @param voters     how many of them run a voter: 1, 3 or 5.
     * @param joiners    how many nodes join later.
     * @param ledgerRoot where the nodes' ledger directories go on this host.
     * @param rate       events per second each node sends each peer.
     * @return the cluster, not started.
     */
    static ChaosCluster withMembership(final int octet, final int size, final int voters, final int joiners,
        final Path ledgerRoot, final int rate)
    {
        if (voters < 1 || voters > size)
        {
            throw new IllegalArgumentException("voters " + voters + " out of range 1.." + size);
        }
        return new ChaosCluster(octet, size, voters, joiners, ledgerRoot, rate);
    }

    private ChaosCluster(final int octet, final int size, final int voters, final int joiners, final Path ledgerRoot,
        final int rate)
    {
        this.subnetPrefix = "172.31." + octet + ".";
        this.size = size;
        this.voters = voters;
        this.ledgerRoot = ledgerRoot;
        this.network = Network.builder()
            .createNetworkCmdModifier(cmd -> cmd.withIpam(new Ipam().withConfig(
                new Ipam.Config().withSubnet(subnetPrefix + "0/24").withGateway(subnetPrefix + "1"))))
            .build();
        if (!Files.isRegularFile(workloadJar))
        {
            throw new IllegalStateException("no chaos workload jar at " + workloadJar.toAbsolutePath() +
                " (the module's package phase makes it)");
        }
        for (int id = 1; id <= size + joiners; id++)
        {
            nodes.put(id, container(id, rate));
        }
    }

    private GenericContainer<?> container(final int nodeId, final int rate)
    {
        final Path ledger = ledgerDir(nodeId);
        try
        {
            Files.createDirectories(ledger);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final String address = address(nodeId);
        return new NodeContainer(image, () -> onStarted(nodeId))
            .withImagePullPolicy(name -> false)
            .withNetwork(network)
            .withNetworkAliases("node" + nodeId)
            .withCreateContainerCmdModifier(cmd ->
            {
                cmd.withIpv4Address(address);
                cmd.getHostConfig().withBinds(new Bind(ledger.toAbsolutePath().toString(), new Volume("/chaos")));
            })
            // Aeron's log buffers live in /dev/shm: Docker's default 64 MiB is below the driver's low-space mark
            .withSharedMemorySize(SHM_BYTES)
            .withEnv("TROUPE_CLUSTER_SECRET", SECRET)
            // the longest pauses go into a failure report (pauses()): a stalled JVM is the first suspect of a flake;
            // and the build's flags for the nodes its tests start (C1 only: a node of a scenario lives seconds)
            .withEnv("JDK_JAVA_OPTIONS", "-Xmx192m -Xlog:gc,safepoint:file=/chaos/" + PAUSE_LOG + ":uptime " +
                System.getProperty(NodeProcess.EXTRA_FLAGS_PROPERTY, "").trim())
            .withEnv("TROUPE_CLIENT_SECRET", CLIENT_SECRET)
            .withEnv("CHAOS_RATE", Integer.toString(rate))
            .withCopyToContainer(Transferable.of(config(nodeId)), "/etc/troupe/node.conf")
            .withCopyFileToContainer(MountableFile.forHostPath(workloadJar), WORKLOAD_JAR)
            .waitingFor(Wait.forLogMessage(".*troupe node " + nodeId + " is up.*\\n", 1)
                .withStartupTimeout(Duration.ofSeconds(60)));
    }

    private String config(final int nodeId)
    {
        final StringJoiner peers = new StringJoiner(",\n    ", "[\n    ", "\n  ]");
        for (int peer = 1; peer <= size && voters == 0; peer++) // with a membership, the members are the peers
        {
            if (peer != nodeId)
            {
                peers.add("{ id = " + peer + ", host = \"" + address(peer) + "\", port = " + PORT + " }");
            }
        }
        return "troupe {\n" +
            "  node-id = " + nodeId + "\n" +
            "  cluster-id = \"" + CLUSTER_ID + "\"\n" +
            "  cluster-secret = ${?TROUPE_CLUSTER_SECRET}\n" +
            "  client.secret = ${?TROUPE_CLIENT_SECRET}\n" +
            "  data-dir = \"" + DATA_DIR + "\"\n" +
            "  bind { host = \"" + address(nodeId) + "\", port = " + PORT + " }\n" +
            (voters == 0 ? "  peers = " + peers + "\n" : membership(nodeId)) +
            // no Chronicle Map replica (it compiles classes as it starts: seconds of three JVMs starting on 2 cores)
            // unless a suite asks for it (withReplica), one that reads the directory with troupe services
            "  registry.replica = false\n" +
            "  registry.replica = ${?CHAOS_REGISTRY_REPLICA}\n" +
            "  application { setup = [\"io.troupe.chaos.workload.ChaosWorkload\"], lib-dir = \"/opt/chaos/lib\" }\n" +
            "}\n";
    }

    /** The membership's settings: the voters, as a joiner's seeds; the default lease (10 s) and timings. */
    private String membership(final int nodeId)
    {
        final StringJoiner list = new StringJoiner(",\n      ", "[\n      ", "\n    ]");
        for (int voter = 1; voter <= voters; voter++)
        {
            list.add("{ id = " + voter + ", host = \"" + address(voter) + "\", port = " + VOTER_PORT + " }");
        }
        return "  membership {\n" +
            "    " + (nodeId > size ? "seeds" : "voters") + " = " + list + "\n" +
            "  }\n";
    }

    /**
     * Sends every node's UDP to its peers through a {@code DelayRelay} in its own network namespace (so that
     * {@link Faults#delay} can delay it): before {@link #start}. Node {@code i}'s datagrams to peer {@code p} are
     * translated (iptables {@code nat OUTPUT}, installed as the container starts, before the node sends anything) to
     * its own address, port {@code RELAY_PORT_FIRST + p}; the relay sends them on from ports the rule leaves alone.
     */
    void relayAll()
    {
        relayed = true;
        for (final int id : nodes.keySet())
        {
            final StringJoiner routes = new StringJoiner(",");
            for (int peer = 1; peer <= size; peer++)
            {
                if (peer != id)
                {
                    routes.add((RELAY_PORT_FIRST + peer) + "=" + address(peer) + ":" + PORT);
                }
            }
            env(id, "CHAOS_RELAY", routes.toString());
            env(id, "CHAOS_RELAY_HOST", address(id));
        }
    }

    boolean relayed()
    {
        return relayed;
    }

    /** Starts a killed node's container again (same address, same data directory) and, if relayed, its rules. */
    void restart(final int nodeId)
    {
        try
        {
            Files.deleteIfExists(ledgerDir(nodeId).resolve(ChaosWorkload.RELAY_RULES_FILE));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        docker.startContainerCmd(containerId(nodeId)).exec();
        onStarted(nodeId);
    }

    /** A node's container runs (its network namespace exists) and its JVM has not sent anything yet. */
    private void onStarted(final int nodeId)
    {
        if (!relayed)
        {
            return;
        }
        for (int peer = 1; peer <= size; peer++)
        {
            if (peer != nodeId)
            {
                inNamespace(nodeId, "iptables", "-t", "nat", "-A", "OUTPUT", "-p", "udp", "-d", address(peer),
                    "--dport", Integer.toString(PORT), "!", "--sport", RELAY_FLOW_PORTS, "-j", "DNAT",
                    "--to-destination", address(nodeId) + ":" + (RELAY_PORT_FIRST + peer));
            }
        }
        try
        {
            Files.writeString(ledgerDir(nodeId).resolve(ChaosWorkload.RELAY_RULES_FILE), "installed\n");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Runs a host command (e.g. {@code iptables}) in a started node's network namespace ({@code nsenter}; the image
     * has no shell).
     */
    void inNamespace(final int nodeId, final String... args)
    {
        final Long pid = docker.inspectContainerCmd(containerId(nodeId)).exec().getState().getPidLong();
        final List<String> command = new ArrayList<>(List.of("nsenter", "-t", Long.toString(pid), "-n"));
        command.addAll(List.of(args));
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0)
            {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(String.join(" ", command) + " could not run", ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    /** A node's relay's last stats ({@code relay.txt}) on one line, or "none". */
    String relayStats(final int nodeId)
    {
        final Path stats = ledgerDir(nodeId).resolve("relay.txt");
        try
        {
            return Files.exists(stats) ? String.join("; ", Files.readAllLines(stats, StandardCharsets.US_ASCII)) :
                "none";
        }
        catch (final IOException ex)
        {
            return "unreadable: " + ex;
        }
    }

    /** A node's relay's counts ({@code relay.txt}): per route {@code forwarded}, or an empty map before the first. */
    Map<String, Long> relayForwarded(final int nodeId)
    {
        final Path stats = ledgerDir(nodeId).resolve("relay.txt");
        final Map<String, Long> forwarded = new TreeMap<>();
        try
        {
            if (!Files.exists(stats))
            {
                return forwarded;
            }
            for (final String line : Files.readAllLines(stats, StandardCharsets.US_ASCII))
            {
                final String[] words = line.split(" ");
                if ("route".equals(words[0]))
                {
                    forwarded.put(words[2], Long.parseLong(words[4]));
                }
            }
            return forwarded;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** The container of a node: runs a hook once it is started, before its wait strategy. */
    private static final class NodeContainer extends GenericContainer<NodeContainer>
    {
        private final Runnable onStarted;

        NodeContainer(final String image, final Runnable onStarted)
        {
            super(image);
            this.onStarted = onStarted;
        }

        @Override
        protected void containerIsStarting(final InspectContainerResponse info)
        {
            onStarted.run();
        }
    }

    /** Sets an environment variable of a node's container: before {@link #start}. */
    void env(final int nodeId, final String name, final String value)
    {
        nodes.get(nodeId).withEnv(name, value);
    }

    /** Every node keeps the directory's replica (for {@code troupe services}), before {@link #start}. */
    void withReplica()
    {
        for (final int id : nodes.keySet())
        {
            env(id, "CHAOS_REGISTRY_REPLICA", "true");
        }
    }

    /** Starts every node but the joiners, in parallel. */
    void start()
    {
        final List<Runnable> starts = new ArrayList<>();
        for (int id = 1; id <= size; id++)
        {
            starts.add(nodes.get(id)::start);
        }
        final RuntimeException failure = inParallel(starts);
        if (failure != null)
        {
            throw failure;
        }
    }

    /**
     * Runs the tasks on a thread each (the nodes' JVMs start side by side; a common-pool stream started two at a time)
     * and waits for all of them.
     *
     * @return the first task's failure, or null.
     */
    private static RuntimeException inParallel(final List<Runnable> tasks)
    {
        final ExecutorService threads = Executors.newFixedThreadPool(tasks.size());
        try
        {
            final List<Future<?>> running = new ArrayList<>();
            for (final Runnable task : tasks)
            {
                running.add(threads.submit(task));
            }
            RuntimeException failure = null;
            for (final Future<?> task : running)
            {
                try
                {
                    task.get();
                }
                catch (final ExecutionException ex)
                {
                    if (failure == null)
                    {
                        failure = ex.getCause() instanceof RuntimeException cause ? cause :
                            new IllegalStateException(ex.getCause());
                    }
                }
            }
            return failure;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return new IllegalStateException("interrupted while waiting for the nodes", ex);
        }
        finally
        {
            threads.shutdownNow();
        }
    }

    /**
     * Starts a joiner of a cluster {@link #withMembership}, and waits until it is up (it joined).
     *
     * @param nodeId a joiner's id: more than {@link #size()}.
     */
    void startJoiner(final int nodeId)
    {
        if (nodeId <= size || !nodes.containsKey(nodeId))
        {
            throw new IllegalArgumentException("node " + nodeId + " is no joiner of this cluster");
        }
        nodes.get(nodeId).start();
    }

    /**
     * Whether a node's container runs (a node that stopped itself, or was killed, leaves its container stopped).
     *
     * @param nodeId a started node.
     * @return true while its process runs.
     */
    boolean running(final int nodeId)
    {
        return Boolean.TRUE.equals(docker.inspectContainerCmd(containerId(nodeId)).exec().getState().getRunning());
    }

    /**
     * A node's exit code, once its container stopped.
     *
     * @param nodeId a started node.
     * @return the exit code, or null while it runs.
     */
    Long exitCode(final int nodeId)
    {
        final InspectContainerResponse.ContainerState state =
            docker.inspectContainerCmd(containerId(nodeId)).exec().getState();
        return Boolean.TRUE.equals(state.getRunning()) ? null : state.getExitCodeLong();
    }

    String address(final int nodeId)
    {
        return subnetPrefix + (10 + nodeId);
    }

    Path ledgerDir(final int nodeId)
    {
        return ledgerRoot.resolve("node-" + nodeId);
    }

    List<Path> ledgerDirs()
    {
        final List<Path> dirs = new ArrayList<>();
        for (final int id : nodes.keySet())
        {
            dirs.add(ledgerDir(id));
        }
        return dirs;
    }

    GenericContainer<?> node(final int nodeId)
    {
        return nodes.get(nodeId);
    }

    String containerId(final int nodeId)
    {
        return nodes.get(nodeId).getContainerId();
    }

    Network network()
    {
        return network;
    }

    DockerClient docker()
    {
        return docker;
    }

    /** How many nodes {@link #start} starts (the joiners not counted). */
    int size()
    {
        return size;
    }

    /** Tells every node's workload to stop sending (a file {@code stop} in its ledger directory). */
    void stopTraffic()
    {
        for (final int id : nodes.keySet())
        {
            try
            {
                Files.writeString(ledgerDir(id).resolve("stop"), "stop\n");
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
    }

    /**
     * Runs the {@code troupe} CLI inside a node's container ({@link InContainer#cli}).
     *
     * @param nodeId a started node.
     * @param args   the command and its options, e.g. {@code status --json}.
     * @return the CLI's exit code and output.
     */
    Container.ExecResult cli(final int nodeId, final String... args)
    {
        return InContainer.cli(nodes.get(nodeId), args);
    }

    /** The JSON document a read command printed with {@code --json} in a node's container. */
    Map<String, Object> cliJson(final int nodeId, final String... args)
    {
        return InContainer.cliJson(nodes.get(nodeId), args);
    }

    /** A node's media driver's system counters that are not zero, on one line, for a failure report. */
    String driverCounters(final int nodeId)
    {
        return InContainer.driverCounters(nodes.get(nodeId), "/dev/shm/troupe-" + CLUSTER_ID + "-node-" + nodeId);
    }

    /**
     * Each node's longest stops of its JVM (garbage collections and other safepoints) from its pause log, one line
     * per node, for a failure report: a node that stood still for a second explains a session its peers ended.
     */
    String pauses()
    {
        final StringBuilder all = new StringBuilder();
        for (final int id : nodes.keySet())
        {
            final Path log = ledgerDir(id).resolve(PAUSE_LOG);
            all.append("pauses of node ").append(id).append(": ");
            try
            {
                all.append(Files.exists(log) ? PauseLog.summary(Files.readAllLines(log, StandardCharsets.UTF_8)) :
                    "no pause log");
            }
            catch (final IOException | UncheckedIOException ex)
            {
                all.append("unreadable: ").append(ex);
            }
            all.append('\n');
        }
        return all.toString();
    }

    /** Every node's log, for a failure report. */
    String logs()
    {
        final StringBuilder all = new StringBuilder();
        for (final Map.Entry<Integer, GenericContainer<?>> node : nodes.entrySet())
        {
            try
            {
                final String log = node.getValue().getLogs();
                all.append("----- node ").append(node.getKey()).append(" (last 40 lines)\n");
                final String[] lines = log.split("\n");
                for (int i = Math.max(0, lines.length - 40); i < lines.length; i++)
                {
                    all.append(lines[i]).append('\n');
                }
            }
            catch (final RuntimeException ex)
            {
                all.append("----- node ").append(node.getKey()).append(": no log (").append(ex.getMessage())
                    .append(")\n");
            }
        }
        return all.toString();
    }

    @Override
    public void close()
    {
        // side by side, like the start; a node a fault left paused or disconnected: removing it is all that matters
        final List<Runnable> stops = new ArrayList<>();
        for (final GenericContainer<?> node : nodes.values())
        {
            stops.add(node::stop);
        }
        inParallel(stops);
        network.close();
    }
}
