package io.troupe.bench;

import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import io.troupe.node.Node;
import io.troupe.node.NodeConfigLoader;
import io.troupe.node.local.LocalCluster;
import io.troupe.node.local.NodeProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The cluster {@code membership.join} and {@code membership.down} measure against: three members in this JVM (node 1
 * the one voter, nodes 2 and 3 joined through it; default membership settings, back-off idle), and joiners started
 * as node processes of their own ({@code troupe node} with a config that has no node id, only the seeds). "Every
 * member sees it" is read from the three members' tables, polled every 100 µs.
 */
final class MembershipBench implements AutoCloseable
{
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final Path dir;
    private final LocalCluster cluster;
    private final List<Node> members = new ArrayList<>();
    private int joiners;

    private MembershipBench(final Path dir)
    {
        this.dir = dir;
        this.cluster = LocalCluster.withMembership(dir, 3, 1);
    }

    /**
     * Starts the three members and waits until each sees all three up.
     *
     * @return the running bench.
     * @throws InterruptedException if interrupted while waiting.
     */
    static MembershipBench start() throws InterruptedException
    {
        final Path dir;
        try
        {
            dir = Files.createTempDirectory("troupe-bench-membership-");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        LocalCluster.prepareClassCache(); // its training run is no part of the first join
        final MembershipBench bench = new MembershipBench(dir);
        try
        {
            for (int id = 1; id <= 3; id++)
            {
                bench.members.add(Node.start(NodeConfigLoader.load(bench.cluster.configFile(id), new Properties())));
            }
            bench.awaitAll(table -> table.stream().filter(m -> m.status() == MemberStatus.UP).count() == 3,
                "the three members up");
            return bench;
        }
        catch (final RuntimeException | InterruptedException ex)
        {
            bench.close();
            throw ex;
        }
    }

    /** A joiner: its process and the port it is known by in the table. */
    record Joiner(NodeProcess process, int port)
    {
    }

    /**
     * Starts a node process that joins with only the seeds (a new data directory: a new node id).
     *
     * @return the joiner.
     */
    Joiner launchJoiner()
    {
        final int index = ++joiners;
        final Path file = cluster.writeJoinerFile("joiner-" + index);
        final int port = NodeConfigLoader.load(file, new Properties()).interconnectConfig().bindPort();
        return new Joiner(cluster.start(100 + index, LocalCluster.NODE_MAIN,
            List.of("node", "--config", file.toString())), port);
    }

    /**
     * Whether a joiner is up in a table.
     *
     * @param table  a member's view.
     * @param joiner the joiner.
     * @return true if it is listed as UP.
     */
    static boolean up(final List<Member> table, final Joiner joiner)
    {
        return table.stream().anyMatch(m -> m.port() == joiner.port() && m.status() == MemberStatus.UP);
    }

    /**
     * Whether a joiner is gone from a table (left or downed).
     *
     * @param table  a member's view.
     * @param joiner the joiner.
     * @return true if it is not listed.
     */
    static boolean gone(final List<Member> table, final Joiner joiner)
    {
        return table.stream().noneMatch(m -> m.port() == joiner.port());
    }

    /**
     * Waits until every member's table satisfies a condition.
     *
     * @param condition the condition on one member's view.
     * @param what      for the error.
     * @return {@link System#nanoTime()} when it held for all.
     * @throws IllegalStateException if it does not hold within a minute.
     * @throws InterruptedException  if interrupted.
     */
    long awaitAll(final Predicate<List<Member>> condition, final String what) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + WAIT.toNanos();
        while (true)
        {
            boolean all = true;
            for (final Node member : members)
            {
                all &= condition.test(member.membership().members());
            }
            final long now = System.nanoTime();
            if (all)
            {
                return now;
            }
            if (now - deadlineNs > 0)
            {
                throw new IllegalStateException("not within " + WAIT.toSeconds() + " s: " + what + "; node 1 sees " +
                    members.get(0).membership().members());
            }
            TimeUnit.MICROSECONDS.sleep(100);
        }
    }

    /**
     * The membership's lease length.
     *
     * @return the lease.
     */
    Duration lease()
    {
        return members.get(0).membership().config().lease();
    }

    @Override
    public void close()
    {
        cluster.close();
        for (int i = members.size() - 1; i >= 0; i--)
        {
            members.get(i).close(Duration.ZERO);
        }
        LocalCluster.deleteTree(dir);
    }
}
