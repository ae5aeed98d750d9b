package io.troupe.node.local;

import io.troupe.interconnect.LoopbackPorts;
import io.troupe.membership.Membership;
import io.troupe.membership.table.VoterAddress;
import io.troupe.node.NodeConfigLoader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * A cluster of nodes on 127.0.0.1 for development, demos and multi-process tests: writes a config file per node
 * into a directory (free UDP ports, a random secret in a file, small Aeron terms, one pool thread per node),
 * starts nodes in child JVMs, and stops them all on {@link #close()}.
 *
 * <p>The files: {@code cluster.conf} (shared settings), {@code secret}, {@code node-<id>.conf} (each includes
 * {@code cluster.conf}), {@code node-<id>.log} (a child node's output) and {@code data/node-<id>} (data dirs).
 *
 * <p>Thread safe.
 */
public final class LocalCluster implements AutoCloseable
{
    /** The main class of the node jar. */
    public static final String NODE_MAIN = "io.troupe.node.Main";
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);

    private final Path dir;
    private final String clusterId;
    private final int[] ports;
    private final List<NodeProcess> processes = new ArrayList<>();
    private boolean closed;

    /** The first ports of the voters (nodes 1..voters.length), or empty for a cluster of a static peer list. */
    private final int[] voterPorts;

    private LocalCluster(final Path dir, final String clusterId, final int[] ports, final int[] voterPorts)
    {
        this.dir = dir;
        this.clusterId = clusterId;
        this.ports = ports;
        this.voterPorts = voterPorts;
    }

    /**
     * Writes the config files of a cluster of nodes 1..count into a directory.
     *
     * @param dir      the directory; created if missing.
     * @param count    how many nodes, 1..64.
     * @param settings extra HOCON lines for {@code cluster.conf}, such as
     *                 {@code "troupe.failure-detector.timeout = 1s"}; they apply to every node.
     * @return the cluster, no node started yet.
     * @throws UncheckedIOException if the files cannot be written.
     */
    public static LocalCluster create(final Path dir, final int count, final String... settings)
    {
        return create(dir, count, 0, settings);
    }

    /**
     * Makes the class cache of the node processes this JVM starts, if they get one ({@link ClassCache}) and it is
     * missing or stale; otherwise the first {@link #start} makes it. For a measurement that must not count the few
     * seconds of its training run.
     */
    public static void prepareClassCache()
    {
        ClassCache.flags(NodeProcess.jvmFlags());
    }

    /**
     * Writes the config files of a cluster of nodes 1..count whose members are kept by the membership service:
     * nodes 1..voters run its voters, every node's file lists the voters and no peers.
     *
     * @param dir      the directory; created if missing.
     * @param count    how many nodes, 1..64.
     * @param voters   how many of them are voters: 1, 3 or 5, at most count.
     * @param settings extra HOCON lines for {@code cluster.conf}.
     * @return the cluster, no node started yet.
     */
    public static LocalCluster withMembership(final Path dir, final int count, final int voters,
        final String... settings)
    {
        if (voters != 1 && voters != 3 && voters != 5 || voters > count)
        {
            throw new IllegalArgumentException(voters + " voters of " + count + " nodes: 1, 3 or 5, at most all");
        }
        return create(dir, count, voters, settings);
    }

    private static LocalCluster create(final Path dir, final int count, final int voters, final String... settings)
    {
        if (count < 1 || count > 64)
        {
            throw new IllegalArgumentException("count " + count + " out of range 1..64");
        }
        final String clusterId = "local-" + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime());
        final LocalCluster cluster = new LocalCluster(dir, clusterId, LoopbackPorts.freeUdp(count),
            voters == 0 ? new int[0] : LoopbackPorts.freeUdpRuns(voters, VoterAddress.PORTS));
        try
        {
            Files.createDirectories(dir);
            cluster.writeFiles(settings);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write the cluster's config files in " + dir, ex);
        }
        return cluster;
    }

    private void writeFiles(final String... settings) throws IOException
    {
        final byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        final Path secretFile = dir.resolve("secret");
        Files.writeString(secretFile, Base64.getEncoder().encodeToString(secret) + "\n", StandardCharsets.UTF_8);
        if (secretFile.getFileSystem().supportedFileAttributeViews().contains("posix"))
        {
            Files.setPosixFilePermissions(secretFile, PosixFilePermissions.fromString("rw-------"));
        }
        final List<String> shared = new ArrayList<>(List.of(
            "# Written by LocalCluster: settings every node of this cluster shares.",
            "troupe {",
            "  cluster-id = " + quote(clusterId),
            "  cluster-secret-file = " + quote(secretFile.toAbsolutePath().toString()),
            "  bind.host = \"127.0.0.1\"",
            "  # several nodes share this host: a pool thread each, a bounded quota, small Aeron terms",
            "  pools = [ { name = \"default\", threads = 1 } ]",
            "  memory-quota.max = 64MiB",
            "  shutdown-timeout = 2s",
            "  transport {",
            "    control-term-length = 64KiB",
            "    data-term-length = 128KiB",
            "    bulk-term-length = 256KiB",
            "    max-event-size = 1MiB",
            "    # nodes start one after another: retry handshakes often rather than back off for seconds",
            "    handshake-retry-max = 500ms",
            "  }",
            "}"));
        shared.addAll(List.of(settings));
        Files.write(dir.resolve("cluster.conf"), shared, StandardCharsets.UTF_8);
        for (int id = 1; id <= ports.length; id++)
        {
            final List<String> lines = new ArrayList<>(List.of(
                "include \"cluster.conf\"",
                "",
                "troupe {",
                "  node-id = " + id,
                "  bind.port = " + ports[id - 1],
                "  data-dir = " + quote(dataDir(id).toString()),
                "  peers = ["));
            for (int peer = 1; peer <= ports.length; peer++)
            {
                if (peer != id && voterPorts.length == 0) // with a membership, the members are the peers
                {
                    lines.add("    { id = " + peer + ", host = \"127.0.0.1\", port = " + ports[peer - 1] + " }");
                }
            }
            lines.add("  ]");
            lines.add("}");
            lines.addAll(voters("voters"));
            Files.write(configFile(id), lines, StandardCharsets.UTF_8);
        }
    }

    /** The voters as {@code troupe.membership.<key>} (voters or seeds), or nothing without a membership. */
    private List<String> voters(final String key)
    {
        final List<String> lines = new ArrayList<>();
        if (voterPorts.length > 0)
        {
            lines.add("troupe.membership." + key + " = [");
            for (int id = 1; id <= voterPorts.length; id++)
            {
                lines.add("  { id = " + id + ", host = \"127.0.0.1\", port = " + voterPorts[id - 1] + " }");
            }
            lines.add("]");
        }
        return lines;
    }

    private static String quote(final String text)
    {
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    /**
     * Writes the config file of a node that joins the cluster with no id of its own: the shared settings, the voters
     * as its seeds, a free port, a data directory of its own and no {@code node-id}, so the membership assigns one.
     * Only for a cluster with a membership.
     *
     * @param name the node's name, for its files: {@code <name>.conf}, {@code data/<name>}.
     * @return the file.
     * @throws IllegalStateException if the cluster has no membership.
     * @throws UncheckedIOException  if the file cannot be written.
     */
    public Path writeJoinerFile(final String name)
    {
        if (voterPorts.length == 0)
        {
            throw new IllegalStateException("a joiner needs a cluster with a membership (LocalCluster.withMembership)");
        }
        final Path file = dir.resolve(name + ".conf");
        try
        {
            final List<String> lines = new ArrayList<>(List.of(
                "include \"cluster.conf\"",
                "",
                "# no node-id: the membership assigns one when the node joins",
                "troupe {",
                "  bind.port = " + LoopbackPorts.freeUdp(1)[0],
                "  data-dir = " + quote(dir.resolve("data").resolve(name).toAbsolutePath().toString()),
                "}"));
            lines.addAll(voters("seeds"));
            Files.write(file, lines, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
        return file;
    }

    /**
     * The directory of the cluster's files.
     *
     * @return the directory.
     */
    public Path dir()
    {
        return dir;
    }

    /**
     * The cluster's id.
     *
     * @return the id, unique per cluster created.
     */
    public String clusterId()
    {
        return clusterId;
    }

    /**
     * How many nodes the cluster has.
     *
     * @return the count.
     */
    public int size()
    {
        return ports.length;
    }

    /**
     * A node's UDP port.
     *
     * @param nodeId the node.
     * @return the port.
     */
    public int port(final int nodeId)
    {
        return ports[nodeId - 1];
    }

    /**
     * A node's config file.
     *
     * @param nodeId the node.
     * @return the file.
     */
    public Path configFile(final int nodeId)
    {
        return dir.resolve("node-" + nodeId + ".conf");
    }

    /**
     * A node's data directory (its counters file, identity and directory replica), as its config file names it.
     *
     * @param nodeId the node.
     * @return the directory, absolute.
     */
    public Path dataDir(final int nodeId)
    {
        return dir.resolve("data").resolve("node-" + nodeId).toAbsolutePath();
    }

    /**
     * Where a node started in a child JVM writes its output.
     *
     * @param nodeId the node.
     * @return the file.
     */
    public Path logFile(final int nodeId)
    {
        return dir.resolve("node-" + nodeId + ".log");
    }

    /**
     * A node's Aeron directory, as its config resolves it.
     *
     * @param nodeId the node.
     * @return the directory.
     */
    public Path aeronDir(final int nodeId)
    {
        return Path.of(NodeConfigLoader.load(configFile(nodeId), new Properties()).interconnectConfig()
            .conclude(nodeId).aeronDir());
    }

    /**
     * Starts a plain node in a child JVM: {@code troupe node --config <its file>} ({@link #NODE_MAIN}); a node
     * with services of its own is started with {@link #start(int, String, List)} and a main class that runs
     * {@link io.troupe.node.NodeCommand#run} with them.
     *
     * @param nodeId the node.
     * @return the process.
     */
    public NodeProcess start(final int nodeId)
    {
        return start(nodeId, NODE_MAIN, List.of("node", "--config", configFile(nodeId).toString()));
    }

    /**
     * Starts a JVM for a node with any main class, on this JVM's class path.
     *
     * @param nodeId    the node, for its log file's name.
     * @param mainClass the main class.
     * @param args      its arguments.
     * @return the process.
     * @throws IllegalStateException if the cluster is closed.
     */
    public synchronized NodeProcess start(final int nodeId, final String mainClass, final List<String> args)
    {
        if (closed)
        {
            throw new IllegalStateException("the local cluster is closed");
        }
        final NodeProcess process = NodeProcess.launch(nodeId, mainClass, args, logFile(nodeId));
        processes.add(process);
        return process;
    }

    /**
     * Stops every child node still running: SIGTERM, then SIGKILL for any that has not exited 15 s later; then
     * removes the Aeron directories (the transport's, and a member's membership's) that killed child nodes left
     * behind. The config files and logs stay (see
     * {@link #deleteFiles()}). Idempotent.
     */
    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        for (final NodeProcess process : processes)
        {
            if (process.isAlive())
            {
                process.terminate();
            }
        }
        boolean interrupted = false;
        for (final NodeProcess process : processes)
        {
            try
            {
                if (process.awaitExit(STOP_TIMEOUT) == null)
                {
                    process.kill();
                    process.awaitExit(Duration.ofSeconds(5));
                }
            }
            catch (final InterruptedException ex)
            {
                interrupted = true;
                process.kill();
            }
        }
        for (final NodeProcess process : processes)
        {
            // a process started with a config file of another name (a joiner's) is not known by its id here
            if (!process.isAlive() && Files.exists(configFile(process.nodeId())))
            {
                final Path aeronDir = aeronDir(process.nodeId());
                deleteTree(aeronDir);
                deleteTree(Path.of(Membership.aeronDirBeside(aeronDir.toString()))); // a member's; a killed one left it
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** Deletes the cluster's directory: config files, secret, logs and data dirs. */
    public void deleteFiles()
    {
        deleteTree(dir);
    }

    /**
     * Deletes a directory and everything in it, if it exists.
     *
     * @param root the directory.
     * @throws UncheckedIOException if something in it cannot be deleted.
     */
    public static void deleteTree(final Path root)
    {
        if (!Files.exists(root))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(root))
        {
            for (final Path path : (Iterable<Path>)paths.sorted(Comparator.reverseOrder())::iterator)
            {
                Files.deleteIfExists(path);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot delete " + root, ex);
        }
    }
}
