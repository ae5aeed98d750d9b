package io.troupe.chaos;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * The membership under a partition: five node containers kept by a membership (nodes 1-3 its voters; the default
 * 10 s lease renewed every second) with steady tracked traffic between every pair of members. Nodes 3 and 5 are cut
 * off from nodes 1, 2 and 4, the voters' majority, but still hear each other: they must stop taking work and exit
 * within their lease, before the majority downs them (at one epoch on every member), so that no event is handled on
 * both sides; a sixth node joins meanwhile on the majority's side; after the heal the two come back as new
 * incarnations. The delivery ledger is checked at the end, the stopped incarnations' unwritten outcomes counted as
 * abandoned.
 */
@Timeout(value = 300)
class MembershipChaosIT
{
    private static final int RATE = 100;
    private static final Duration QUIET = Duration.ofSeconds(20);
    /** The default lease. */
    private static final long LEASE_MS = 10_000;
    /**
     * When the leader is cut off, what the majority needs before it can down anyone: the default heartbeat timeout
     * (2 s) to notice, and the 6 s the default lease leaves for an election (docs/membership.md); a new leader starts
     * every lease again from its first log entry.
     */
    private static final long NEW_LEADER_MS = 2_000 + 6_000;
    /** A leading voter's role, as the workload writes it (Aeron Cluster's Cluster.Role). */
    private static final String LEADER = "LEADER";
    private static final int[] MINORITY = {3, 5};
    private static final int[] MAJORITY = {1, 2, 4};
    private static final int JOINER = 6;

    @TempDir
    Path ledgers;

    @Test
    void aMinorityCutOffFromTheVotersStopsWithinItsLeaseIsDownedOnceAndRejoinsAfterTheHeal()
    {
        try (Scenario run = new Scenario("membership", ChaosCluster.withMembership(89, 5, 3, 1, ledgers, RATE)))
        {
            run.startAndAwaitMesh();
            Scenario.sleep(Scenario.STEADY_MS);
            final boolean leaderCutOff = leaderIsIn(run, MINORITY);
            run.faults().step("the leading voter " + (leaderCutOff ? "is" : "is not") + " on the minority side");
            final long cut = run.faults().split(MINORITY, MAJORITY);
            final long whole = System.currentTimeMillis();

            final long joining = run.faults().step("node " + JOINER + " joins, with only the seeds");
            try
            {
                run.cluster().startJoiner(JOINER);
            }
            catch (final RuntimeException ex)
            {
                throw new AssertionError(run.report("node " + JOINER + " did not start: " + ex), ex);
            }
            run.awaitUntil(() -> connected(run.ledger(), joining, JOINER, MAJORITY), Duration.ofSeconds(30),
                "node " + JOINER + " connected to every node of the majority and they to it");
            final long joined = System.currentTimeMillis();
            run.result("join_during_partition_ms", joined - joining, "ms");

            run.awaitUntil(() -> stopped(run, MINORITY), Duration.ofSeconds(30),
                "nodes 3 and 5 stopped themselves");
            run.awaitUntil(() -> downedEverywhere(run.ledger(), cut), Duration.ofSeconds(30),
                "nodes 3 and 5 downed in the view of nodes 1, 2 and 4");
            Ledger ledger = run.ledger();
            for (final int node : MINORITY)
            {
                checkStoppedBeforeDowned(run, ledger, node, cut, whole, leaderCutOff);
                run.killedCurrentIncarnation(node); // it stopped at once: its outcomes since are nobody's to write
            }

            for (final int node : MAJORITY)
            {
                run.faults().clearRules(node); // the minority's containers stopped: their rules went with them
            }
            final long healed = run.faults().step("healed");
            for (final int node : MINORITY)
            {
                run.faults().restart(node);
            }
            run.awaitUntil(() -> run.ledger().incarnations(3).size() == 2 && run.ledger().incarnations(5).size() == 2,
                Duration.ofSeconds(60), "nodes 3 and 5 writing their new incarnations' ledgers");
            run.awaitUntil(() -> run.meshNow(JOINER), Duration.ofSeconds(60), "all six connected to one another");
            ledger = run.ledger();
            long rejoined = 0;
            for (final int node : MINORITY)
            {
                for (final int other : new int[] {1, 2, 4, JOINER})
                {
                    rejoined = Math.max(rejoined, Timing.first(ledger, other, "MU", node, healed));
                }
            }
            run.result("rejoin_after_heal_ms", rejoined - healed, "ms");
            Scenario.sleep(Scenario.STEADY_MS);
            run.finish(QUIET);
        }
    }

    /**
     * Whether the voter that leads now is one of the nodes: the role each node's workload last wrote ({@code VR}
     * lines, at most a tick old; the leader's own counter says the same, but reading it takes a JVM or a copy out of
     * a container busy beside four others).
     */
    private static boolean leaderIsIn(final Scenario run, final int[] nodes)
    {
        final Ledger ledger = run.ledger();
        for (final int node : nodes)
        {
            String role = null;
            for (final Ledger.Line line : ledger.senderLines())
            {
                if (line.node() == node && "VR".equals(line.kind()))
                {
                    role = line.fields()[0];
                }
            }
            if (LEADER.equals(role))
            {
                return true;
            }
        }
        return false;
    }

    /** Whether the joiner and each of the nodes have logged a session with one another since a time. */
    private static boolean connected(final Ledger ledger, final long sinceMs, final int joiner, final int[] nodes)
    {
        for (final int node : nodes)
        {
            if (Timing.first(ledger, node, "C", joiner, sinceMs) < 0 ||
                Timing.first(ledger, joiner, "C", node, sinceMs) < 0)
            {
                return false;
            }
        }
        return true;
    }

    private static boolean stopped(final Scenario run, final int[] nodes)
    {
        for (final int node : nodes)
        {
            if (run.cluster().running(node))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether every member of the majority side has logged each minority node as downed (the joiner too, if it saw
     * them up: it may join after they were downed).
     */
    private static boolean downedEverywhere(final Ledger ledger, final long sinceMs)
    {
        for (final int minority : MINORITY)
        {
            if (Timing.first(ledger, JOINER, "MU", minority, 0) >= 0 &&
                Timing.first(ledger, JOINER, "MD", minority, sinceMs) < 0)
            {
                return false;
            }
            for (final int node : MAJORITY)
            {
                if (Timing.first(ledger, node, "MD", minority, sinceMs) < 0)
                {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * A minority node exited for its lease (code 1) and took its last work within the lease of the cut, before any
     * member of the majority saw it downed, within the lease and a second of the cut (and the time a new leader needs,
     * if the leader was cut off); and every member saw the down at one epoch.
     */
    private static void checkStoppedBeforeDowned(final Scenario run, final Ledger ledger, final int node,
        final long cut, final long whole, final boolean leaderCutOff)
    {
        final long incarnation = ledger.incarnations(node).get(0);
        final Long exitCode = run.cluster().exitCode(node);
        run.check(exitCode != null && exitCode == 1, "node " + node + " exited with 1 (its lease lost): " + exitCode);
        long lastWork = -1;
        for (final Ledger.Line line : ledger.receiverLines())
        {
            if (line.node() == node && line.incarnation() == incarnation)
            {
                lastWork = Math.max(lastWork, line.epochMs());
            }
        }
        long downed = Long.MAX_VALUE;
        final Set<Long> epochs = new HashSet<>();
        for (final Ledger.Line line : ledger.senderLines())
        {
            if ("MD".equals(line.kind()) && line.intField(0) == node && line.longField(1) == incarnation)
            {
                downed = Math.min(downed, line.epochMs());
                epochs.add(line.longField(2));
            }
        }
        run.result("node" + node + "_last_work_after_cut_ms", lastWork - cut, "ms");
        run.result("node" + node + "_downed_after_cut_ms", downed - cut, "ms");
        run.check(lastWork < whole + LEASE_MS, "node " + node + " took work " + (lastWork - whole) +
            " ms after the split was whole: more than its lease");
        run.check(lastWork < downed, "node " + node + " took work at " + lastWork +
            ", after the majority downed it at " + downed);
        final long allowed = LEASE_MS + 1_000 + (leaderCutOff ? NEW_LEADER_MS : 0);
        run.check(downed - whole <= allowed, "node " + node + " downed " + (downed - whole) +
            " ms after the split was whole: more than " + allowed + " ms (the lease and a second" +
            (leaderCutOff ? ", and a new leader's election)" : ")"));
        run.check(epochs.size() == 1, "node " + node + "'s down seen at one epoch by every member: " + epochs);
    }
}
