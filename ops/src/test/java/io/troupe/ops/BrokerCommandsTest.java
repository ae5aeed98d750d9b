package io.troupe.ops;

import io.troupe.actor.ActorId;
import io.troupe.broker.BrokerSpec;
import io.troupe.broker.Brokers;
import io.troupe.broker.Drop;
import io.troupe.broker.DropQueueSpec;
import io.troupe.broker.Go;
import io.troupe.broker.Side;
import io.troupe.node.Node;
import io.troupe.node.NodeConfigLoader;
import io.troupe.node.local.LocalCluster;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.troupe.ops.TroupeCliTest.troupe;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code troupe brokers} and {@code troupe broker set} against a node in this JVM with a named broker. */
@Timeout(90)
class BrokerCommandsTest
{
    @TempDir
    Path dir;

    private Node node;

    @AfterEach
    void tearDown()
    {
        if (node != null)
        {
            node.close();
        }
    }

    private String start()
    {
        final LocalCluster cluster = LocalCluster.create(dir, 1);
        node = Node.start(NodeConfigLoader.load(cluster.configFile(1), new Properties()));
        return node.config().dataDir().toString();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> broker(final TroupeCliTest.Run run, final int index)
    {
        assertThat(run.code()).as(run.err()).isZero();
        return ((List<Map<String, Object>>)run.json().get("brokers")).get(index);
    }

    @Test
    void brokersShowsQueuesDropsAndConfigAndBrokerSetChangesTheRunningBroker() throws Exception
    {
        final String dataDir = start();
        final ActorId orders = node.brokers().start("orders", new BrokerSpec(DropQueueSpec.fifo(3),
            DropQueueSpec.unbounded(), List.of()));
        node.brokers().start("billing", BrokerSpec.of(DropQueueSpec.unbounded()));
        final List<CompletableFuture<Object>> asks = new ArrayList<>();
        for (int i = 0; i < 5; i++)
        {
            asks.add(Brokers.ask(node.system(), orders, Side.ASK, null, Duration.ofSeconds(30)));
        }
        Await.until(() -> node.brokers().get("orders").gauges().drops(Side.ASK) == 2, "two asks dropped");
        node.counters().publishNow();

        final TroupeCliTest.Run all = troupe("brokers", "--json", "--data-dir", dataDir);
        final Map<String, Object> billing = broker(all, 0);
        final Map<String, Object> before = broker(all, 1);
        assertThat(billing).containsEntry("name", "billing").containsEntry("config", "ask=drop() askR=drop()");
        assertThat(before).containsEntry("name", "orders").containsEntry("askQueue", 3L)
            .containsEntry("askRQueue", 0L).containsEntry("askDrops", 2L).containsEntry("askMatches", 0L)
            .containsEntry("reconfigurations", 0L).containsEntry("config", "ask=drop(max=3) askR=drop()");
        assertThat((Long)before.get("askSojournNs")).isPositive();
        final TroupeCliTest.Run table = troupe("brokers", "orders", "--data-dir", dataDir);
        assertThat(table.out()).contains("ask queue").contains("orders: ask=drop(max=3) askR=drop()")
            .doesNotContain("billing");

        // the three queued asks move to a timeout queue and are dropped by it; the broker runs on
        final TroupeCliTest.Run set = troupe("broker", "set", "orders", "--ask", "timeout(timeout=100ms, max=10)",
            "--data-dir", dataDir);
        assertThat(set.code()).as(set.out() + set.err()).isZero();
        assertThat(set.out()).contains("node 1: broker orders on node 1 takes ask=timeout(timeout=100ms,max=10)")
            .contains("broker orders runs with ask=timeout(timeout=100ms,max=10) askR=drop()");
        for (final CompletableFuture<Object> ask : asks)
        {
            assertThat(ask.get(10, TimeUnit.SECONDS)).isInstanceOf(Drop.class);
        }
        final CompletableFuture<Object> worker = Brokers.ask(node.system(), orders, Side.ASK_R, null,
            Duration.ofSeconds(30));
        assertThat(Brokers.ask(node.system(), orders, Side.ASK, null, Duration.ofSeconds(5)).get())
            .isInstanceOf(Go.class);
        assertThat(worker.get(5, TimeUnit.SECONDS)).isInstanceOf(Go.class);
        Await.until(() -> node.brokers().get("orders").gauges().matches(Side.ASK) == 1, "the match counted");
        node.counters().publishNow();
        final Map<String, Object> after = broker(troupe("brokers", "orders", "--json", "--data-dir", dataDir), 0);
        assertThat(after).containsEntry("askQueue", 0L).containsEntry("askDrops", 5L).containsEntry("askMatches", 1L)
            .containsEntry("askRMatches", 1L).containsEntry("reconfigurations", 1L)
            .containsEntry("config", "ask=timeout(timeout=100ms,max=10) askR=drop()");

        final TroupeCliTest.Run json = troupe("broker", "set", "billing", "--ask-r", "codel(target=5ms)", "--json",
            "--data-dir", dataDir);
        assertThat(json.code()).as(json.err()).isZero();
        assertThat(json.json()).containsEntry("broker", "billing").containsEntry("applied", true)
            .containsEntry("config", "ask=drop() askR=codel(target=5ms)");
    }

    @Test
    void aBadPolicyOrAnUnknownBrokerIsRefusedWithAClearMessage()
    {
        final String dataDir = start();
        node.brokers().start("orders", BrokerSpec.of(DropQueueSpec.unbounded()));
        node.counters().publishNow();

        final TroupeCliTest.Run badPolicy = troupe("broker", "set", "orders", "--ask", "codel(target=5)",
            "--data-dir", dataDir);
        assertThat(badPolicy.code()).isEqualTo(TroupeCli.USAGE);
        assertThat(badPolicy.err()).contains("--ask: codel.target needs a unit (ns, us, ms, s, m, h): '5'");
        final TroupeCliTest.Run nothing = troupe("broker", "set", "orders", "--data-dir", dataDir);
        assertThat(nothing.code()).isEqualTo(TroupeCli.USAGE);
        assertThat(nothing.err()).contains("give --ask POLICY, --ask-r POLICY or both");
        final TroupeCliTest.Run unknown = troupe("broker", "set", "payments", "--ask", "drop", "--data-dir", dataDir);
        assertThat(unknown.code()).isEqualTo(TroupeCli.NOT_OK);
        assertThat(unknown.err()).contains("node 1 has no broker named 'payments'");
        final TroupeCliTest.Run list = troupe("brokers", "payments", "--data-dir", dataDir);
        assertThat(list.code()).isEqualTo(TroupeCli.NOT_OK);
        assertThat(list.err()).contains("no broker named 'payments' (it runs orders)");
        assertThat(node.brokers().get("orders").gauges().reconfigurations()).isZero();
    }
}
