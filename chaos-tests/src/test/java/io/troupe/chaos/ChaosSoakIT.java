package io.troupe.chaos;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The long soak: three nodes with steady tracked traffic and a random schedule of faults (partition, pause, kill -9 and
 * restart, UDP loss, UDP delay of 20 to 300 ms, one-way drop; the cluster is relayed for the delay) for
 * {@code -Dchaos.soak.minutes} (default 30), each fault on a random node for 1 to 10 s with 2 to 8 s between; then the
 * ledger is checked. The schedule comes from the printed seed ({@code -Dchaos.seed=N} repeats it). Only in the
 * {@code chaos-soak} profile:
 * {@code ./mvnw -B verify -Pchaos-soak -pl chaos-tests -am -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Timeout(value = 3, unit = TimeUnit.HOURS)
class ChaosSoakIT
{
    @TempDir
    Path ledgers;

    @Test
    void aRandomScheduleOfFaultsLeavesTheLedgerClean() throws InterruptedException
    {
        final long minutes = Long.getLong("chaos.soak.minutes", 30);
        try (Scenario run = new Scenario("soak", 86, 3, ledgers, 100))
        {
            final Faults faults = run.faults();
            final Random random = faults.random();
            run.cluster().relayAll();
            run.startAndAwaitMesh();
            final long endNs = System.nanoTime() + TimeUnit.MINUTES.toNanos(minutes);
            int count = 0;
            while (System.nanoTime() - endNs < 0)
            {
                final int node = 1 + random.nextInt(3);
                final long holdMs = 1_000 + random.nextInt(9_000);
                switch (random.nextInt(6))
                {
                    case 0 ->
                    {
                        faults.partition(node);
                        Thread.sleep(holdMs);
                        faults.heal(node);
                    }
                    case 1 ->
                    {
                        faults.pause(node);
                        Thread.sleep(holdMs);
                        faults.unpause(node);
                    }
                    case 2 ->
                    {
                        run.killedCurrentIncarnation(node);
                        faults.kill(node);
                        Thread.sleep(holdMs);
                        final int before = run.ledger().incarnations(node).size();
                        faults.restart(node);
                        run.awaitUntil(() -> run.ledger().incarnations(node).size() > before, Duration.ofSeconds(60),
                            "node " + node + " back after its restart");
                    }
                    case 3 ->
                    {
                        faults.loss(node, 0.10 + random.nextInt(11) / 100.0);
                        Thread.sleep(holdMs);
                        faults.clearRules(node);
                    }
                    case 4 ->
                    {
                        faults.delay(node, 20 + random.nextInt(281), 0);
                        Thread.sleep(holdMs);
                        faults.undelay(node);
                    }
                    default ->
                    {
                        faults.dropFrom(node, 1 + (node % 3));
                        Thread.sleep(holdMs);
                        faults.clearRules(node);
                    }
                }
                count++;
                Thread.sleep(2_000 + random.nextInt(6_000));
            }
            faults.step(count + " faults done");
            run.awaitUntil(run::meshNow, Duration.ofSeconds(30), "the mesh whole at the end");
            run.result("faults", count, "faults");
            run.finish(Duration.ofSeconds(30));
        }
    }
}
