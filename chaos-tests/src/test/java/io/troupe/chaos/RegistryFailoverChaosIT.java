package io.troupe.chaos;

import io.troupe.actor.ServiceId;
import io.troupe.actor.UndeliveredException;
import io.troupe.actor.UndeliveredReason;
import io.troupe.chaos.workload.FloodEvent;
import io.troupe.client.ClientConfig;
import io.troupe.client.TroupeClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Scenario 6 of the chaos suite: the service directory and a client under a partition. A client in this JVM is
 * connected to node 3 and asks node 2's {@code chaos-echo} through it every 20 ms; node 3 is cut off for 10 s. Nodes 1
 * and 2 drop node 3's services from their directories and take them back after the heal (their workloads log the
 * directory's {@code ServiceDown}/{@code ServiceUp}; {@code troupe services} in node 1's container agrees at the
 * end); the client's asks in flight end {@code Undelivered(DISCONNECTED)} within the failure time, the client moves
 * to node 1, and its asks complete again. Every ask ends, none hangs, and the ticks' ledger is clean.
 */
@Timeout(value = 180)
class RegistryFailoverChaosIT
{
    private static final int RATE = 100;
    private static final Duration QUIET = Duration.ofSeconds(20);
    private static final ServiceId ECHO_ON_2 = ServiceId.of(2, "chaos-echo");

    @TempDir
    Path ledgers;

    @Test
    void aPartitionedNodesServicesGoAndComeBackAndItsClientFailsOverWithEveryAskEnded() throws Exception
    {
        try (Scenario run = new Scenario("registry", 87, 3, ledgers, RATE))
        {
            final ChaosCluster cluster = run.cluster();
            cluster.withReplica(); // troupe services reads it
            run.startAndAwaitMesh();
            run.awaitUntil(() -> directoryChange(run.ledger(), "SU", 0) > 0, Duration.ofSeconds(20),
                "node 3's chaos-rx in the directories of nodes 1 and 2");
            final List<Ask> asks = new ArrayList<>();
            try (TroupeClient client = TroupeClient.connect(new ClientConfig()
                .endpoint(cluster.address(3) + ":" + ChaosCluster.PORT)
                .endpoint(cluster.address(1) + ":" + ChaosCluster.PORT)
                .clusterId(ChaosCluster.CLUSTER_ID)
                .secret(ChaosCluster.CLIENT_SECRET.getBytes(StandardCharsets.UTF_8))
                .codec(FloodEvent.CODEC)))
            {
                run.check(client.nodeId() == 3, "the client connected to node 3 first, not " + client.nodeId());
                final AtomicBoolean asking = new AtomicBoolean(true);
                final Thread asker = new Thread(() -> ask(client, asks, asking), "chaos-asker");
                asker.start();
                Scenario.sleep(Scenario.STEADY_MS);

                final long cut = run.faults().partition(3);
                final long movedAt = awaitClientOn(run, client, 1, Duration.ofSeconds(15));
                run.awaitUntil(() -> answeredSince(asks, movedAt), Duration.ofSeconds(10),
                    "an ask answered through node 1");
                // from the move on: an ask sent just before the cut took effect may be answered through node 3 after it
                final long answeredAgain = firstAnsweredAfter(asks, movedAt);
                run.awaitUntil(() -> directoryChange(run.ledger(), "SD", cut) > 0, Duration.ofSeconds(10),
                    "node 3's chaos-rx gone from the directories of nodes 1 and 2");
                final long servicesDown = directoryChange(run.ledger(), "SD", cut);
                Scenario.sleep(Math.max(0, cut + 7_000 - System.currentTimeMillis()));

                final long healed = run.faults().heal(3);
                run.awaitUntil(() -> directoryChange(run.ledger(), "SU", healed) > 0, Duration.ofSeconds(20),
                    "node 3's chaos-rx back in the directories of nodes 1 and 2");
                final long servicesUp = directoryChange(run.ledger(), "SU", healed);
                run.awaitUntil(() -> run.reconnectedSince(healed, 3, 1, 2), Duration.ofSeconds(20), "the mesh back");
                final List<Integer> listed = instancesOn(cluster, 1);
                run.faults().step("troupe services chaos-rx in node 1's container: " + listed);
                run.check(listed.containsAll(List.of(1, 2, 3)),
                    "troupe services chaos-rx on node 1 lists every node's instance: " + listed);
                asking.set(false);
                asker.join(5_000);
                run.awaitUntil(() -> asks.stream().allMatch(ask -> ask.future.isDone()), Duration.ofSeconds(10),
                    "every ask ended");

                int answered = 0;
                int disconnected = 0;
                long slowestFailureMs = 0;
                final List<String> otherwise = new ArrayList<>();
                for (final Ask ask : asks)
                {
                    final Throwable failure = failure(ask.future);
                    if (failure == null)
                    {
                        answered++;
                    }
                    else if (failure instanceof UndeliveredException notice &&
                        notice.undelivered().reason() == UndeliveredReason.DISCONNECTED)
                    {
                        disconnected++;
                        slowestFailureMs = Math.max(slowestFailureMs, ask.endedMs - Math.max(ask.sentMs, cut));
                    }
                    else
                    {
                        otherwise.add(ask.sentMs - cut + " ms after the cut: " + failure);
                    }
                }
                run.result("services_gone_after_cut_ms", servicesDown - cut, "ms");
                run.result("services_back_after_heal_ms", servicesUp - healed, "ms");
                run.result("client_failover_after_cut_ms", movedAt - cut, "ms");
                run.result("first_answer_through_node_1_after_cut_ms", answeredAgain - cut, "ms");
                run.result("asks_answered", answered, "asks");
                run.result("asks_disconnected", disconnected, "asks");
                run.result("asks_failed_otherwise", otherwise.size(), "asks");
                run.result("slowest_disconnect_ms", slowestFailureMs, "ms");
                run.finish(QUIET);

                run.check(otherwise.isEmpty(), "asks ended other than answered or DISCONNECTED: " +
                    otherwise.subList(0, Math.min(5, otherwise.size())));
                run.check(slowestFailureMs <= 3_500, "asks in flight failed within the failure time (and slack): " +
                    slowestFailureMs + " ms");
                run.check(servicesDown - cut <= 3_000, "node 3's services gone within 3 s: " + (servicesDown - cut));
                run.check(servicesUp - healed <= 5_000, "node 3's services back within 5 s of the heal: " +
                    (servicesUp - healed));
                run.check(answeredAgain - cut <= 5_000, "asks answered again within 5 s of the cut: " +
                    (answeredAgain - cut));
            }
        }
    }

    /**
     * When both node 1 and node 2 logged {@code SU} or {@code SD} for node 3's {@code chaos-rx} at or after
     * {@code sinceMs}: the later of the two, or -1 while one has not.
     */
    private static long directoryChange(final Ledger ledger, final String kind, final long sinceMs)
    {
        final long one = Timing.first(ledger, 1, kind, 3, sinceMs);
        final long two = Timing.first(ledger, 2, kind, 3, sinceMs);
        return one < 0 || two < 0 ? -1 : Math.max(one, two);
    }

    /** Polls every 10 ms until the client is connected to {@code nodeId}; returns when it was seen so. */
    private static long awaitClientOn(final Scenario run, final TroupeClient client, final int nodeId,
        final Duration timeout)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!(client.isConnected() && client.nodeId() == nodeId))
        {
            run.check(System.nanoTime() - deadline < 0,
                "the client on node " + nodeId + " within " + timeout.toMillis() +
                " ms (it is on node " + client.nodeId() + ", connected " + client.isConnected() + ")");
            Scenario.sleep(10);
        }
        return System.currentTimeMillis();
    }

    /** One ask: when it went, how it ended and when. */
    private static final class Ask
    {
        final long sentMs = System.currentTimeMillis();
        final CompletableFuture<Object> future;
        volatile long endedMs;

        Ask(final CompletableFuture<Object> future)
        {
            this.future = future;
            future.whenComplete((reply, failure) -> endedMs = System.currentTimeMillis());
        }
    }

    /** Asks every 20 ms while {@code asking}, at most 3,000 times (about a minute). */
    private static void ask(final TroupeClient client, final List<Ask> asks, final AtomicBoolean asking)
    {
        for (long seq = 1; seq <= 3_000 && asking.get(); seq++)
        {
            final Ask ask = new Ask(client.ask(ECHO_ON_2, new FloodEvent(seq), Duration.ofSeconds(5)));
            synchronized (asks)
            {
                asks.add(ask);
            }
            Scenario.sleep(20);
        }
    }

    private static boolean answeredSince(final List<Ask> asks, final long sinceMs)
    {
        return firstAnsweredAfter(asks, sinceMs) > 0;
    }

    /** The first time an ask sent at or after {@code sinceMs} was answered, or -1. */
    private static long firstAnsweredAfter(final List<Ask> asks, final long sinceMs)
    {
        long first = -1;
        synchronized (asks)
        {
            for (final Ask ask : asks)
            {
                if (ask.sentMs >= sinceMs && ask.future.isDone() && failure(ask.future) == null &&
                    (first < 0 || ask.endedMs < first))
                {
                    first = ask.endedMs;
                }
            }
        }
        return first;
    }

    private static Throwable failure(final CompletableFuture<Object> future)
    {
        try
        {
            future.getNow(null);
            return null;
        }
        catch (final CompletionException ex)
        {
            return ex.getCause();
        }
        catch (final CancellationException ex)
        {
            return ex;
        }
    }

    /** The nodes whose {@code chaos-rx} node {@code nodeId}'s directory lists now. */
    private static List<Integer> instancesOn(final ChaosCluster cluster, final int nodeId)
    {
        final Map<String, Object> doc = cluster.cliJson(nodeId, "services", "chaos-rx");
        final List<Integer> nodes = new ArrayList<>();
        for (final Object service : (List<?>)doc.get("services"))
        {
            for (final Object instance : (List<?>)((Map<?, ?>)service).get("instances"))
            {
                nodes.add(((Number)((Map<?, ?>)instance).get("nodeId")).intValue());
            }
        }
        return nodes;
    }
}
