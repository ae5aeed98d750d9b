package io.troupe.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One chaos scenario's run: a {@link ChaosCluster} with the workload, its {@link Faults}, waits on what the ledgers
 * say, the final {@link LedgerCheck}, and the report: {@code RESULT name=chaos.<scenario>.<figure>} lines, and on a
 * failure the seed, the fault timeline, the first ledger violations and the nodes' logs.
 */
final class Scenario implements AutoCloseable
{
    /**
     * How long the steady traffic flows before a fault, and again once the cluster has recovered before the ledger is
     * checked: a hundred tracked events per pair of nodes each time, at the default rate.
     */
    static final long STEADY_MS = 1_000;

    private final String name;
    private final ChaosCluster cluster;
    private final Faults faults;
    private final Ledger written = new Ledger();
    private final Map<Integer, Set<Long>> killed = new HashMap<>();

    Scenario(final String name, final int octet, final int size, final Path ledgerRoot, final int rate)
    {
        this(name, new ChaosCluster(octet, size, ledgerRoot, rate));
    }

    Scenario(final String name, final ChaosCluster cluster)
    {
        this.name = name;
        this.cluster = cluster;
        this.faults = new Faults(cluster);
    }

    /** Sleeps the test's thread (an interrupt ends the test). */
    static void sleep(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    ChaosCluster cluster()
    {
        return cluster;
    }

    Faults faults()
    {
        return faults;
    }

    /** Starts the nodes and waits until every one has a session with every other. */
    void startAndAwaitMesh()
    {
        final long starting = faults.step("starting nodes");
        try
        {
            cluster.start();
        }
        catch (final RuntimeException ex)
        {
            // a node that exited before it was up: its log (the last lines) says why
            throw new AssertionError(report("the nodes did not all start: " + ex), ex);
        }
        faults.step("nodes started");
        awaitUntil(() -> meshSince(starting), Duration.ofSeconds(30), "every node connected to every other");
        faults.step("mesh up");
        if (cluster.relayed())
        {
            awaitUntil(this::everyRouteRelayed, Duration.ofSeconds(5),
                "every node's UDP to every peer through its relay");
        }
    }

    private boolean everyRouteRelayed()
    {
        for (int node = 1; node <= cluster.size(); node++)
        {
            final Map<String, Long> forwarded = cluster.relayForwarded(node);
            if (forwarded.size() != cluster.size() - 1 || forwarded.containsValue(0L))
            {
                return false;
            }
        }
        return true;
    }

    /** Whether every node's current incarnation has logged {@code C} for every peer at or after {@code sinceMs}. */
    boolean meshSince(final long sinceMs)
    {
        final Ledger ledger = ledger();
        for (int node = 1; node <= cluster.size(); node++)
        {
            for (int peer = 1; peer <= cluster.size(); peer++)
            {
                if (peer != node && Timing.first(ledger, node, "C", peer, sinceMs) < 0)
                {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Whether {@code node} has logged {@code C} for each of {@code peers} at or after {@code sinceMs}, and every node
     * is connected to every other now.
     */
    boolean reconnectedSince(final long sinceMs, final int node, final int... peers)
    {
        final Ledger ledger = ledger();
        for (final int peer : peers)
        {
            if (Timing.first(ledger, node, "C", peer, sinceMs) < 0 ||
                Timing.first(ledger, peer, "C", node, sinceMs) < 0)
            {
                return false;
            }
        }
        return meshNow(ledger);
    }

    /** Whether, by every node's latest incarnation's ledger, every node is connected to every other now. */
    boolean meshNow()
    {
        return meshNow(ledger());
    }

    /** Whether, by the latest incarnations' ledgers, each of nodes 1..nodes is connected to each other now. */
    boolean meshNow(final int nodes)
    {
        return meshNow(ledger(), nodes);
    }

    private boolean meshNow(final Ledger ledger)
    {
        return meshNow(ledger, cluster.size());
    }

    private boolean meshNow(final Ledger ledger, final int nodes)
    {
        final Map<String, String> last = new HashMap<>();
        for (final Ledger.Line line : ledger.senderLines())
        {
            final List<Long> incarnations = ledger.incarnations(line.node());
            if (("C".equals(line.kind()) || "X".equals(line.kind())) &&
                line.incarnation() == incarnations.get(incarnations.size() - 1))
            {
                last.put(line.node() + ">" + line.intField(0), line.kind());
            }
        }
        for (int node = 1; node <= nodes; node++)
        {
            for (int peer = 1; peer <= nodes; peer++)
            {
                if (peer != node && !"C".equals(last.get(node + ">" + peer)))
                {
                    return false;
                }
            }
        }
        return true;
    }

    /** The ledger as the nodes have written it so far: one ledger, which each call brings up to date. */
    Ledger ledger()
    {
        return written.update(cluster.ledgerDirs());
    }

    /** Records that the test killed a node's current incarnation (its unsent outcomes are abandoned, not lost). */
    void killedCurrentIncarnation(final int node)
    {
        final List<Long> incarnations = ledger().incarnations(node);
        killed.computeIfAbsent(node, n -> new HashSet<>()).add(incarnations.get(incarnations.size() - 1));
    }

    /**
     * Stops the traffic, waits for every event's outcome (at most {@code quiet}), checks the ledger and prints the
     * figures.
     */
    LedgerCheck finish(final Duration quiet)
    {
        final long stopped = faults.step("traffic stopped");
        cluster.stopTraffic();
        final long deadline = System.nanoTime() + quiet.toNanos();
        LedgerCheck check = LedgerCheck.of(ledger(), killed);
        while (System.nanoTime() - deadline < 0 && check.figures().get("lost") > 0)
        {
            LockSupport.parkNanos(200_000_000L);
            check = LedgerCheck.of(ledger(), killed);
        }
        faults.step("quiet after " + (System.currentTimeMillis() - stopped) + " ms: " + check.figures());
        if (cluster.relayed())
        {
            for (int node = 1; node <= cluster.size(); node++)
            {
                faults.step("relay of node " + node + ": " + cluster.relayStats(node));
            }
        }
        if (Boolean.getBoolean("chaos.print.logs"))
        {
            System.out.println(cluster.logs());
        }
        check.figures().forEach((figure, value) -> result(figure, value, "events"));
        if (!check.violations().isEmpty())
        {
            throw new AssertionError(report("the ledger is not clean: " + check.violations().size() +
                " violations; first: " + check.violations().subList(0, Math.min(10, check.violations().size()))));
        }
        return check;
    }

    void result(final String figure, final Object value, final String unit)
    {
        System.out.println("RESULT name=chaos." + name + "." + figure + " value=" + value + " unit=" + unit);
    }

    /** Fails with the report unless the condition holds within the timeout. */
    void awaitUntil(final BooleanSupplier condition, final Duration timeout, final String what)
    {
        final long startNs = System.nanoTime();
        final long deadline = startNs + timeout.toNanos();
        int checks = 1;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new AssertionError(report("not within " + timeout.toMillis() + " ms: " + what));
            }
            LockSupport.parkNanos(200_000_000L);
            checks++;
        }
        // in the timeline: where a scenario's time goes (a check reads every ledger, which grows with the traffic)
        faults.step(what + " (after " + (System.nanoTime() - startNs) / 1_000_000 + " ms, " + checks + " checks)");
    }

    /** Fails with the report unless {@code ok}. */
    void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new AssertionError(report(what));
        }
    }

    String report(final String failure)
    {
        final StringBuilder drivers = new StringBuilder();
        for (int node = 1; node <= cluster.size(); node++)
        {
            drivers.append("media driver of node ").append(node).append(": ").append(cluster.driverCounters(node))
                .append('\n');
        }
        return "chaos." + name + ": " + failure + "\nseed " + faults.seed() + "\ntimeline:\n" + faults.timeline() +
            "\n" + cluster.pauses() + drivers + cluster.logs();
    }

    @Override
    public void close()
    {
        cluster.close();
    }
}
