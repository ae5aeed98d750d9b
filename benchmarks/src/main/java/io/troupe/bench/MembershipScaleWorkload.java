package io.troupe.bench;

import io.troupe.node.counters.CounterRecord;
import io.troupe.node.counters.CountersFileReader;
import io.troupe.node.local.LocalCluster;
import io.troupe.node.local.NodeProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code membership.scale}: for each N of {@code --nodes} (default 4, 8 and 16), N node processes on this host, all
 * launched at once from config files with a membership (nodes 1-3 its voters; LocalCluster's small settings: a
 * 256 MiB heap, one pool thread, back-off idle everywhere, small Aeron terms; counters copied to each node's file
 * every 100 ms). Figures per N:
 * <ul>
 *   <li>{@code membership.scale.n<N>.all-see-all} (ms): from the launch until every node's counters file says it
 *       sees N live members and has a session with each of the N-1 others (read every 50 ms, so +/- 150 ms);</li>
 *   <li>then, over {@code --seconds} (default 10) of no application traffic:
 *       {@code .voter-cpu} and {@code .member-cpu} (percent of one core, the mean per process of the voters and of
 *       the other nodes, from /proc: the whole JVM, so the difference is what running a voter costs), and
 *       {@code .loopback-out} (bytes/s the host's loopback
 *       interface carried, per node, from /proc/net/dev: everything the nodes sent one another, Aeron's own
 *       heartbeats and status messages, lease renewals and the voters' consensus traffic included; so run it on an
 *       otherwise idle host).</li>
 * </ul>
 * The nodes are stopped (SIGTERM) and their files removed before the next N.
 */
final class MembershipScaleWorkload implements Workload
{
    private static final String NODES = "nodes";
    private static final List<Integer> DEFAULT_NODES = List.of(4, 8, 16);
    private static final int VOTERS = 3;
    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final long POLL_MS = 50;
    /** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
    private static final double TICKS_PER_SECOND = 100;

    @Override
    public String name()
    {
        return "membership.scale";
    }

    @Override
    public List<String> options()
    {
        return List.of(NODES);
    }

    @Override
    public String usage()
    {
        return "  membership.scale [--nodes 4,8,16] N node processes (3 voters): time until all see all, then\n" +
            "                                 over --seconds (default 10): CPU % of voters and members, loopback\n" +
            "                                 bytes/s per node (all its traffic: heartbeats, Aeron's, consensus)";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final List<Integer> sizes = nodeCounts(options.text(NODES, null));
        final Duration window = Duration.ofNanos(options.measureNs(10));
        for (final int n : sizes)
        {
            measure(n, window);
        }
    }

    static List<Integer> nodeCounts(final String text)
    {
        if (text == null)
        {
            return DEFAULT_NODES;
        }
        final List<Integer> sizes = new ArrayList<>();
        for (final String part : text.split(","))
        {
            final int n;
            try
            {
                n = Integer.parseInt(part.trim());
            }
            catch (final NumberFormatException ex)
            {
                throw new UsageException("--nodes: a comma-separated list of node counts, got '" + text + "'");
            }
            if (n < VOTERS + 1 || n > 64)
            {
                throw new UsageException("--nodes: each count in " + (VOTERS + 1) + "..64, got " + n);
            }
            sizes.add(n);
        }
        return sizes;
    }

    private static void measure(final int n, final Duration window) throws InterruptedException
    {
        final Path dir;
        try
        {
            dir = Files.createTempDirectory("troupe-bench-scale-");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final LocalCluster cluster = LocalCluster.withMembership(dir, n, VOTERS,
            "troupe.ops.counters-interval = 100ms");
        try
        {
            final List<NodeProcess> processes = new ArrayList<>();
            final long startNs = System.nanoTime();
            for (int id = 1; id <= n; id++)
            {
                processes.add(cluster.start(id));
            }
            awaitAllSeeAll(cluster, n, processes);
            final double allSeeAllMs = (System.nanoTime() - startNs) / 1e6;
            Report.progress("%d nodes: all see all after %.0f ms", n, allSeeAllMs);

            final long[] cpuBefore = cpuTicks(processes);
            final long loopbackBefore = loopbackBytesOut();
            final long windowStartNs = System.nanoTime();
            TimeUnit.NANOSECONDS.sleep(window.toNanos());
            final double seconds = (System.nanoTime() - windowStartNs) / 1e9;
            final long[] cpuAfter = cpuTicks(processes);
            final long loopbackAfter = loopbackBytesOut();

            Report.result("membership.scale.n" + n + ".all-see-all", allSeeAllMs, "ms", 0);
            Report.result("membership.scale.n" + n + ".voter-cpu", meanCpu(cpuBefore, cpuAfter, 0, VOTERS, seconds),
                "percent", 1);
            Report.result("membership.scale.n" + n + ".member-cpu", meanCpu(cpuBefore, cpuAfter, VOTERS, n, seconds),
                "percent", 1);
            Report.result("membership.scale.n" + n + ".loopback-out", (loopbackAfter - loopbackBefore) / seconds / n,
                "bytes/s", 0);
        }
        finally
        {
            cluster.close();
            LocalCluster.deleteTree(dir);
        }
    }

    private static void awaitAllSeeAll(final LocalCluster cluster, final int n, final List<NodeProcess> processes)
        throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + WAIT.toNanos();
        while (true)
        {
            int seeingAll = 0;
            for (int id = 1; id <= n; id++)
            {
                seeingAll += seesAll(cluster.dataDir(id), n) ? 1 : 0;
            }
            if (seeingAll == n)
            {
                return;
            }
            for (final NodeProcess process : processes)
            {
                if (!process.isAlive())
                {
                    throw new IllegalStateException("node " + process.nodeId() + " exited; its log:\n" +
                        process.logTail(20));
                }
            }
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException(seeingAll + " of " + n + " nodes see all the others after " +
                    WAIT.toSeconds() + " s");
            }
            TimeUnit.MILLISECONDS.sleep(POLL_MS);
        }
    }

    /** Whether a node's counters say it sees n live members and has a session with each other. */
    private static boolean seesAll(final Path dataDir, final int n)
    {
        final List<CounterRecord> counters;
        try
        {
            counters = CountersFileReader.open(dataDir).counters();
        }
        catch (final RuntimeException notYet)
        {
            return false; // no file yet: the node has not joined
        }
        long members = 0;
        long connected = 0;
        for (final CounterRecord counter : counters)
        {
            if (counter.name().equals("membership_members"))
            {
                members = counter.value();
            }
            else if (counter.name().equals("peer_connected"))
            {
                connected += counter.value();
            }
        }
        return members == n && connected == n - 1;
    }

    /** Bytes the loopback interface transmitted since boot, from /proc/net/dev. */
    static long loopbackBytesOut()
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(Path.of("/proc/net/dev"));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read /proc/net/dev (Linux only)", ex);
        }
        for (final String line : lines)
        {
            final String trimmed = line.trim();
            if (trimmed.startsWith("lo:"))
            {
                // after "lo:": 8 receive fields (bytes first), then the transmitted bytes
                final String[] fields = trimmed.substring(3).trim().split("\\s+");
                return Long.parseLong(fields[8]);
            }
        }
        throw new IllegalStateException("no loopback interface 'lo' in /proc/net/dev");
    }

    private static long[] cpuTicks(final List<NodeProcess> processes)
    {
        final long[] ticks = new long[processes.size()];
        for (int i = 0; i < ticks.length; i++)
        {
            ticks[i] = cpuTicks(processes.get(i).pid());
        }
        return ticks;
    }

    /** utime + stime of a process, from /proc/<pid>/stat (fields 14 and 15, after the command in parentheses). */
    static long cpuTicks(final long pid)
    {
        final String stat;
        try
        {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read the CPU time of process " + pid + " (Linux only)", ex);
        }
        final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // fields[0] is the state (field 3 of the line); utime is field 14, stime field 15
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    private static double meanCpu(final long[] before, final long[] after, final int from, final int to,
        final double seconds)
    {
        long ticks = 0;
        for (int i = from; i < to; i++)
        {
            ticks += after[i] - before[i];
        }
        return 100.0 * ticks / TICKS_PER_SECOND / seconds / (to - from);
    }
}
