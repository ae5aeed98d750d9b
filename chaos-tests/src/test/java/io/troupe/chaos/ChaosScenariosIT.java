package io.troupe.chaos;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The short chaos suite: three node containers with steady tracked traffic between every pair, one fault each, and
 * the delivery ledger checked after a quiet period (every event delivered or {@code Undelivered} exactly once, no
 * duplicates, FIFO per pair of incarnations, nothing crossing incarnations). Each scenario prints its figures as
 * {@code RESULT name=chaos.<scenario>.<figure>} lines; a failure prints the seed, the fault timeline, the first
 * violations and the nodes' logs.
 */
@Timeout(value = 240)
class ChaosScenariosIT
{
    /** Tracked events per second each node sends each peer. */
    private static final int RATE = 100;
    private static final Duration QUIET = Duration.ofSeconds(20);
    private static final long DELAY_MS = Long.getLong("chaos.delay.ms", 100);
    /** 0: FIFO. A jitter reorders the datagrams, which a relayed path does not repair well (chaos-tests/README.md). */
    private static final long DELAY_JITTER_MS = Long.getLong("chaos.delay.jitter.ms", 0);

    @TempDir
    Path ledgers;

    @Test
    void partitionOfANodeFor5sIsDetectedWithin2sAndHealsWithin5s()
    {
        try (Scenario run = new Scenario("partition", 81, 3, ledgers, RATE))
        {
            run.startAndAwaitMesh();
            Scenario.sleep(Scenario.STEADY_MS);
            final long cut = run.faults().partition(3);
            Scenario.sleep(5_000); // the partition: more than three failure timeouts
            final long healed = run.faults().heal(3);
            run.awaitUntil(() -> run.reconnectedSince(healed, 3, 1, 2), Duration.ofSeconds(20),
                "the mesh back after the heal");
            final Ledger ledger = run.ledger();
            final long detected = Math.max(Timing.first(ledger, 1, "X", 3, cut), Timing.first(ledger, 2, "X", 3, cut));
            long reconnected = 0;
            for (int node = 1; node <= 3; node++)
            {
                for (int peer = 1; peer <= 3; peer++)
                {
                    if (peer != node && (node == 3 || peer == 3))
                    {
                        reconnected = Math.max(reconnected, Timing.first(ledger, node, "C", peer, healed));
                    }
                }
            }
            run.result("failure_detection_ms", detected - cut, "ms");
            run.result("reconnect_after_heal_ms", reconnected - healed, "ms");
            Scenario.sleep(Scenario.STEADY_MS);
            run.finish(QUIET);
            run.check(Timing.first(ledger, 1, "X", 3, cut) > 0 && detected - cut <= 2_000,
                "nodes 1 and 2 saw node 3 go within 2 s: " + (detected - cut) + " ms");
            run.check(reconnected - healed <= 5_000, "reconnected within 5 s of the heal: " + (reconnected - healed) +
                " ms");
        }
    }

    @Test
    void aPauseOfHalfASecondGoesUnnoticedAndOneOf5sIsDetectedAndRecoveredOnBothSides()
    {
        try (Scenario run = new Scenario("pause", 82, 3, ledgers, RATE))
        {
            run.startAndAwaitMesh();
            Scenario.sleep(Scenario.STEADY_MS);
            final long shortPause = run.faults().pause(2);
            // a third of the failure timeout: docker's pause and unpause take their own time on a busy machine (a
            // "1 s" pause lasted 1.27 s once, its heartbeats late besides, and node 1 gave node 2 up)
            Scenario.sleep(500);
            final long shortEnd = run.faults().unpause(2);
            Scenario.sleep(3_000);
            Ledger ledger = run.ledger();
            for (int node = 1; node <= 3; node++)
            {
                for (int peer = 1; peer <= 3; peer++)
                {
                    run.check(peer == node || !Timing.any(ledger, node, "X", peer, shortPause, shortEnd + 3_000),
                        "no NodeDisconnected for a 0.5 s pause, but node " + node + " saw node " + peer + " go");
                }
            }
            final long longPause = run.faults().pause(2);
            Scenario.sleep(5_000); // the long pause: more than three failure timeouts
            final long longEnd = run.faults().unpause(2);
            run.awaitUntil(() -> run.reconnectedSince(longEnd, 2, 1, 3), Duration.ofSeconds(10),
                "the mesh back after the unpause");
            ledger = run.ledger();
            final long detected = Math.max(Timing.first(ledger, 1, "X", 2, longPause),
                Timing.first(ledger, 3, "X", 2, longPause));
            long recovered = 0;
            for (final int other : new int[] {1, 3})
            {
                recovered = Math.max(recovered, Timing.first(ledger, other, "C", 2, longEnd));
                recovered = Math.max(recovered, Timing.first(ledger, 2, "C", other, longEnd));
                // no one-sided session: the paused node itself ends its old sessions before the new ones begin
                final long ended = Timing.first(ledger, 2, "X", other, longEnd);
                run.check(ended >= 0 && ended <= Timing.first(ledger, 2, "C", other, longEnd),
                    "node 2 saw its session with node " + other + " end before a new one began");
            }
            run.result("failure_detection_ms", detected - longPause, "ms");
            run.result("recovery_after_unpause_ms", recovered - longEnd, "ms");
            Scenario.sleep(Scenario.STEADY_MS);
            run.finish(QUIET);
            run.check(detected - longPause <= 2_000, "a 5 s pause detected within 2 s: " + (detected - longPause));
            // the node runs again at once and ends its sessions (stood still); its peers ended theirs in silence: both
            // sides renewed their publications, so the new streams get images at once (measured 0.5 s; it took 2 s
            // while the drivers ignored the old Aeron sessions' setups during their cool-down)
            run.check(recovered - longEnd <= 1_000,
                "both sides up within 1 s of the unpause: " + (recovered - longEnd));
        }
    }

    @Test
    void killMinus9AndRestartIsANewIncarnationAndNothingOfTheOldReachesTheNew()
    {
        try (Scenario run = new Scenario("kill", 83, 3, ledgers, RATE))
        {
            run.startAndAwaitMesh();
            Scenario.sleep(Scenario.STEADY_MS);
            run.killedCurrentIncarnation(3);
            final long killed = run.faults().kill(3);
            Scenario.sleep(3_000);
            final long restarted = run.faults().restart(3);
            run.awaitUntil(() -> run.ledger().incarnations(3).size() == 2, Duration.ofSeconds(30),
                "node 3's new incarnation writing its ledger");
            run.awaitUntil(() -> run.reconnectedSince(restarted, 3, 1, 2), Duration.ofSeconds(20),
                "the mesh with node 3's new incarnation");
            final Ledger ledger = run.ledger();
            final long detected = Math.max(Timing.first(ledger, 1, "X", 3, killed),
                Timing.first(ledger, 2, "X", 3, killed));
            run.result("failure_detection_ms", detected - killed, "ms");
            run.result("reconnect_after_restart_ms", Math.max(Timing.first(ledger, 1, "C", 3, restarted),
                Timing.first(ledger, 2, "C", 3, restarted)) - restarted, "ms");
            Scenario.sleep(Scenario.STEADY_MS);
            final LedgerCheck check = run.finish(QUIET);
            run.check(check.figures().get("undelivered_unsure") + check.figures().get("undelivered_sure") > 0,
                "events to the killed incarnation came back Undelivered");
            // ticks to the actor ids of node 3's first incarnation reach no actor of its second (the check above
            // counts one delivered there as crossed incarnations): they come back as unknown actors
            run.check(check.figures().get("to_first_id_actor_unknown") > 0,
                "ticks to node 3's old receiver id came back Undelivered(ACTOR_UNKNOWN) after its restart: " +
                    check.figures().get("to_first_id_actor_unknown"));
        }
    }

    @Test
    void udpLossOf15PercentKeepsTheLedgerClean()
    {
        try (Scenario run = new Scenario("loss", 84, 3, ledgers, RATE))
        {
            run.startAndAwaitMesh();
            for (int node = 1; node <= 3; node++)
            {
                run.faults().loss(node, 0.15);
            }
            final long from = System.currentTimeMillis();
            final long deliveredBefore = run.ledger().receiverLines().size();
            Scenario.sleep(Long.getLong("chaos.loss.seconds", 5) * 1000);
            final long deliveredDuring = run.ledger().receiverLines().size() - deliveredBefore;
            final long elapsed = System.currentTimeMillis() - from;
            for (int node = 1; node <= 3; node++)
            {
                run.faults().clearRules(node);
            }
            run.result("throughput_under_loss", deliveredDuring * 1000 / elapsed, "events/s");
            run.finish(QUIET);
        }
    }

    @Test
    void udpDelayOfANodeHoldsItsEventsAndNoSessionEnds()
    {
        try (Scenario run = new Scenario("delay", 80, 3, ledgers, RATE))
        {
            run.cluster().relayAll();
            run.startAndAwaitMesh();
            Scenario.sleep(1_000);
            final long delayed = run.faults().delay(1, DELAY_MS, DELAY_JITTER_MS);
            Scenario.sleep(Long.getLong("chaos.delay.seconds", 5) * 1000);
            final long undelayed = run.faults().undelay(1);
            Scenario.sleep(2_000); // a second settling, a second measured after it
            final Ledger ledger = run.ledger();
            final long delayedP50 = Timing.medianLatencyMs(ledger, 1, delayed + 1_000, undelayed);
            final long otherP50 = Timing.medianLatencyMs(ledger, 2, delayed + 1_000, undelayed);
            final long afterP50 = Timing.medianLatencyMs(ledger, 1, undelayed + 1_000, System.currentTimeMillis());
            run.result("latency_p50_delayed_node_ms", delayedP50, "ms");
            run.result("latency_p50_other_node_ms", otherP50, "ms");
            run.result("latency_p50_after_ms", afterP50, "ms");
            final LedgerCheck check = run.finish(QUIET);
            run.check(delayedP50 >= Math.max(1, DELAY_MS - DELAY_JITTER_MS) &&
                delayedP50 < DELAY_MS + DELAY_JITTER_MS + 200,
                "node 1's events held about the delay: median " + delayedP50 + " ms");
            run.check(otherP50 < Math.max(1, DELAY_MS - DELAY_JITTER_MS),
                "node 2's events not held: median " + otherP50 + " ms");
            run.check(check.figures().get("sessions_ended") == 0, "no session ended under a delay of " + DELAY_MS +
                " ms: " + check.figures().get("sessions_ended"));
        }
    }

    @Test
    void anAsymmetricPartitionEndsTheSessionOnBothSidesAndNoOtherLink()
    {
        try (Scenario run = new Scenario("asymmetric", 85, 3, ledgers, RATE))
        {
            run.startAndAwaitMesh();
            Scenario.sleep(Scenario.STEADY_MS);
            // node 3 hears nothing from node 1; node 1 still hears node 3
            final long cut = run.faults().dropFrom(3, 1);
            run.awaitUntil(() ->
            {
                final Ledger ledger = run.ledger();
                return Timing.first(ledger, 3, "X", 1, cut) > 0 && Timing.first(ledger, 1, "X", 3, cut) > 0;
            }, Duration.ofSeconds(10), "both node 1 and node 3 to end their session");
            Scenario.sleep(4_000); // the cut goes on: neither side may make a half-open session meanwhile
            final long healed = run.faults().clearRules(3);
            Ledger ledger = run.ledger();
            final long threeSaw = Timing.first(ledger, 3, "X", 1, cut);
            final long oneSaw = Timing.first(ledger, 1, "X", 3, cut);
            run.result("detection_blind_side_ms", threeSaw - cut, "ms");
            run.result("detection_heard_side_ms", oneSaw - cut, "ms");
            // defined behaviour: while one way is cut, neither side keeps or re-makes a session (no half-open one)
            run.check(!Timing.any(ledger, 1, "C", 3, oneSaw + 1, healed) && !Timing.any(ledger, 3, "C", 1, threeSaw + 1,
                healed), "a session between nodes 1 and 3 came up while one direction was cut");
            for (final int[] link : new int[][] {{1, 2}, {2, 1}, {2, 3}, {3, 2}})
            {
                run.check(!Timing.any(ledger, link[0], "X", link[1], cut, healed),
                    "node " + link[0] + " lost node " + link[1] + ", a link the fault did not touch");
            }
            run.awaitUntil(() -> Timing.first(run.ledger(), 1, "C", 3, healed) > 0 &&
                Timing.first(run.ledger(), 3, "C", 1, healed) > 0, Duration.ofSeconds(10),
                "nodes 1 and 3 together again");
            ledger = run.ledger();
            run.result("reconnect_after_heal_ms", Math.max(Timing.first(ledger, 1, "C", 3, healed),
                Timing.first(ledger, 3, "C", 1, healed)) - healed, "ms");
            Scenario.sleep(Scenario.STEADY_MS);
            run.finish(QUIET);
        }
    }
}
