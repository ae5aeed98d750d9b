package io.troupe.node;

import io.troupe.memquota.CounterDescriptor;
import io.troupe.node.counters.NodeCounter;
import io.troupe.interconnect.scheduler.SchedulerCounters;
import io.troupe.interconnect.PeerCounter;
import io.troupe.broker.BrokerCounter;
import io.troupe.actor.SystemCounter;
import io.troupe.actor.PoolCounter;
import io.troupe.actor.CreditAccountCounter;
import io.troupe.actor.ActorId;
import io.troupe.actor.CreditAccount;
import io.troupe.broker.BrokerSpec;
import io.troupe.broker.Brokers;
import io.troupe.broker.DropQueueSpec;
import io.troupe.broker.Side;
import io.troupe.interconnect.scheduler.Priority;
import io.troupe.interconnect.scheduler.Receiver;
import io.troupe.interconnect.scheduler.RequestFailure;
import io.troupe.node.counters.CounterRecord;
import io.troupe.node.counters.CountersFileReader;
import io.troupe.node.counters.ErrorRecord;
import io.troupe.node.counters.NodeState;
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
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A node's counters file and error log, read as another process reads them, over real nodes on 127.0.0.1. */
@Timeout(60)
class NodeCountersTest
{
    private static final Duration CONNECT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private final List<Node> nodes = new ArrayList<>();

    @AfterEach
    void tearDown()
    {
        for (final Node node : nodes)
        {
            node.close();
        }
    }

    private Node start(final LocalCluster cluster, final int nodeId)
    {
        final Node node = Node.start(NodeConfigLoader.load(cluster.configFile(nodeId), new Properties()),
            TestEvents::registerEcho, TestEvents.NOTE_CODEC);
        nodes.add(node);
        return node;
    }

    private static Optional<CounterRecord> find(final List<CounterRecord> records, final CounterDescriptor type,
        final Map<String, String> labels)
    {
        return records.stream().filter(each -> each.typeId() == type.typeId() && each.labels().equals(labels))
            .findFirst();
    }

    private static long value(final CountersFileReader reader, final CounterDescriptor type,
        final Map<String, String> labels)
    {
        return find(reader.counters(), type, labels).orElseThrow(() -> new AssertionError("no counter " +
            type.metricName() + " " + labels)).value();
    }

    @Test
    void theFileSaysWhoTheNodeIsAndCarriesItsCountersPerPoolAndPerPeer() throws Exception
    {
        final LocalCluster cluster = LocalCluster.create(dir, 2);
        final Node one = start(cluster, 1);
        final Node two = start(cluster, 2);
        Await.until(() -> one.interconnect().isConnected(2) && two.interconnect().isConnected(1), CONNECT,
            "sessions up");
        for (int i = 0; i < 20; i++)
        {
            one.system().ask(TestEvents.ECHO.onNode(2), new TestEvents.Note("hi " + i), TestEvents.NOTE,
                Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS);
        }
        one.counters().publishNow();

        final CountersFileReader reader = CountersFileReader.open(one.config().dataDir());
        assertThat(reader.nodeId()).isEqualTo(1);
        assertThat(reader.incarnation()).isEqualTo(one.interconnect().incarnation());
        assertThat(reader.pid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(reader.state()).isEqualTo(NodeState.RUNNING);
        assertThat(reader.clusterId()).isEqualTo(one.config().interconnectConfig().clusterId());
        assertThat(reader.processAlive()).isTrue();
        assertThat(System.currentTimeMillis() - reader.heartbeatEpochMs()).isLessThan(5_000);

        assertThat(value(reader, PeerCounter.PEER_CONNECTED, Map.of("peer", "2"))).isEqualTo(1);
        assertThat(value(reader, PeerCounter.PEER_EVENTS_OUT, Map.of("peer", "2"))).isGreaterThanOrEqualTo(20);
        assertThat(value(reader, PeerCounter.PEER_EVENTS_IN, Map.of("peer", "2"))).isGreaterThanOrEqualTo(20);
        assertThat(value(reader, PeerCounter.PEER_SESSIONS_UP, Map.of("peer", "2"))).isEqualTo(1);
        assertThat(value(reader, PoolCounter.POOL_THREADS, Map.of("pool", "default")))
            .isEqualTo(one.system().counters().pool("default").threads());
        assertThat(value(reader, PoolCounter.POOL_EVENTS_HANDLED, Map.of("pool", "default")))
            .isGreaterThanOrEqualTo(20);
        assertThat(value(reader, SystemCounter.ACTORS_REGISTERED, Map.of()))
            .isEqualTo(one.system().counters().actorsRegistered());
        assertThat(value(reader, NodeCounter.AGENT_ERRORS, Map.of())).isZero();
        assertThat(find(reader.counters(), PeerCounter.PEER_CONNECTED, Map.of("peer", "2")).orElseThrow().label())
            .isEqualTo("peer_connected peer=2");

        // the counters thread publishes by itself, every interval (1 s by default)
        for (int i = 0; i < 5; i++)
        {
            one.system().ask(TestEvents.ECHO.onNode(2), new TestEvents.Note("more " + i), TestEvents.NOTE,
                Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS);
        }
        final long out = one.interconnect().peerCounters().get(0).eventsOut();
        Await.until(() -> value(reader, PeerCounter.PEER_EVENTS_OUT, Map.of("peer", "2")) >= out, CONNECT,
            "the counters thread publishes");
    }

    @Test
    void theNodesPeerSchedulerReachesItsPeersAndItsCountersAreInTheFile() throws Exception
    {
        final LocalCluster cluster = LocalCluster.create(dir, 2);
        final Node one = start(cluster, 1);
        final Node two = start(cluster, 2);
        Await.until(() -> one.interconnect().isConnected(2) && two.interconnect().isConnected(1), CONNECT,
            "sessions up");
        final CompletableFuture<Object> answer = new CompletableFuture<>();
        final Receiver receiver = new Receiver()
        {
            @Override
            public void onSuccess(final long requestId, final Object response)
            {
                answer.complete(response);
            }

            @Override
            public void onFailure(final long requestId, final RequestFailure reason)
            {
                answer.completeExceptionally(new AssertionError("failed: " + reason));
            }
        };
        one.peerScheduler().schedule(offer -> offer.request(offer.channels().get(0), TestEvents.ECHO.onNode(2),
            new TestEvents.Note("scheduled"), Duration.ofSeconds(5), receiver),
            Priority.NORMAL);
        assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo(new TestEvents.Note("echo: scheduled"));
        one.counters().publishNow();
        final CountersFileReader reader = CountersFileReader.open(one.config().dataDir());
        assertThat(value(reader, SchedulerCounters.Counter.REQUESTS, Map.of())).isEqualTo(1);
        assertThat(value(reader, SchedulerCounters.Counter.RESPONSES, Map.of())).isEqualTo(1);
        assertThat(value(reader, SchedulerCounters.Counter.IN_FLIGHT_PEAK, Map.of())).isEqualTo(1);
        assertThat(value(reader, PeerCounter.PEER_SCHEDULED_IN_FLIGHT, Map.of("peer", "2"))).isZero();
    }

    @Test
    void aCreditAccountHasCountersWhileItIsOpenAndNoneOnceItIsClosed()
    {
        final LocalCluster cluster = LocalCluster.create(dir, 1);
        final Node one = start(cluster, 1);
        final CreditAccount account = one.system().flow().openAccount(500);
        account.charge(120);
        one.counters().publishNow();
        final CountersFileReader reader = CountersFileReader.open(one.config().dataDir());
        final Map<String, String> labels = Map.of("account", Long.toString(account.accountId()));
        assertThat(value(reader, CreditAccountCounter.CREDIT_ACCOUNT_DEBT, labels)).isEqualTo(120);
        assertThat(value(reader, CreditAccountCounter.CREDIT_ACCOUNT_THRESHOLD, labels)).isEqualTo(500);
        assertThat(value(reader, CreditAccountCounter.CREDIT_ACCOUNT_WAITS, labels)).isZero();
        // the node's own account is an account too
        assertThat(find(reader.counters(), CreditAccountCounter.CREDIT_ACCOUNT_DEBT,
            Map.of("account", Long.toString(one.system().flow().nodeAccount().accountId())))).isPresent();
        assertThat(value(reader, NodeCounter.CREDIT_ACCOUNTS_UNPUBLISHED, Map.of())).isZero();

        account.repay(120);
        account.close();
        one.counters().publishNow();
        assertThat(find(reader.counters(), CreditAccountCounter.CREDIT_ACCOUNT_DEBT, labels)).isEmpty();
        assertThat(find(reader.counters(), CreditAccountCounter.CREDIT_ACCOUNT_THRESHOLD, labels)).isEmpty();
        assertThat(find(reader.counters(), CreditAccountCounter.CREDIT_ACCOUNT_WAITS, labels)).isEmpty();
    }

    @Test
    void aNamedBrokerHasCountersAndItsConfigurationInALabel() throws Exception
    {
        final LocalCluster cluster = LocalCluster.create(dir, 1);
        final Node one = start(cluster, 1);
        final ActorId broker = one.brokers().start("jobs", BrokerSpec.of(DropQueueSpec.fifo(1)));
        Brokers.ask(one.system(), broker, Side.ASK_R, null, Duration.ofSeconds(30));
        Brokers.ask(one.system(), broker, Side.ASK_R, null, Duration.ofSeconds(30));
        Await.until(() -> one.brokers().get("jobs").gauges().drops(Side.ASK_R) == 1, CONNECT,
            "the second askR dropped");
        one.counters().publishNow();
        final CountersFileReader reader = CountersFileReader.open(one.config().dataDir());
        final Map<String, String> labels = Map.of("broker", "jobs");
        assertThat(value(reader, BrokerCounter.BROKER_ASKR_QUEUE, labels)).isEqualTo(1);
        assertThat(value(reader, BrokerCounter.BROKER_ASKR_DROPS, labels)).isEqualTo(1);
        assertThat(value(reader, BrokerCounter.BROKER_ASK_QUEUE, labels)).isZero();
        final CounterRecord config = find(reader.counters(), BrokerCounter.BROKER_RECONFIGURATIONS, labels)
            .orElseThrow();
        assertThat(config.label()).isEqualTo("broker_reconfigurations broker=jobs: ask=drop(max=1) askR=drop(max=1)");
        assertThat(config.description()).isEqualTo("ask=drop(max=1) askR=drop(max=1)");
    }

    @Test
    void aFailingHandlerIsInTheErrorLogOnceWithItsCountAndTheStoppedNodesFileStaysReadable() throws Exception
    {
        final LocalCluster cluster = LocalCluster.create(dir, 1);
        final Node one = start(cluster, 1);
        final ActorId failing = one.system().register((ctx, envelope) ->
        {
            throw new IllegalStateException("broken handler");
        });
        for (int i = 0; i < 7; i++)
        {
            one.system().send(failing, "boom " + i);
        }
        Await.until(() -> one.system().counters().handlerFailures() == 7, CONNECT, "seven failures");
        one.counters().publishNow();

        final CountersFileReader reader = CountersFileReader.open(one.config().dataDir());
        final List<ErrorRecord> errors = reader.errors();
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0).count()).isEqualTo(7);
        assertThat(errors.get(0).summary()).contains("node 1: handler of").contains("failed");
        assertThat(errors.get(0).text()).contains("IllegalStateException: broken handler");
        assertThat(errors.get(0).lastEpochMs()).isGreaterThanOrEqualTo(errors.get(0).firstEpochMs());
        assertThat(value(reader, NodeCounter.AGENT_ERRORS, Map.of())).isEqualTo(7);
        assertThat(value(reader, SystemCounter.HANDLER_FAILURES, Map.of())).isEqualTo(7);

        one.close();
        final CountersFileReader after = CountersFileReader.open(one.config().dataDir());
        assertThat(after.state()).isEqualTo(NodeState.STOPPED);
        assertThat(value(after, SystemCounter.HANDLER_FAILURES, Map.of())).isEqualTo(7);
        assertThat(after.errors()).hasSize(1);
    }

    @Test
    void errorsAFullErrorLogHasNoRoomForAreCountedApart()
    {
        final LocalCluster cluster = LocalCluster.create(dir, 1);
        final Properties smallLog = new Properties();
        smallLog.setProperty("troupe.ops.error-log-size", "64KiB");
        final Node one = Node.start(NodeConfigLoader.load(cluster.configFile(1), smallLog));
        nodes.add(one);
        final ActorId failing = one.system().register((ctx, envelope) ->
        {
            throw new IllegalStateException("broken handler, distinct error " + envelope.event());
        });
        final int count = 300; // each distinct error takes its stack trace's room: 64 KiB holds far fewer
        for (int i = 0; i < count; i++)
        {
            one.system().send(failing, i);
        }
        Await.until(() -> one.system().counters().handlerFailures() == count, CONNECT, "all failed");
        one.counters().publishNow();

        final CountersFileReader reader = CountersFileReader.open(one.config().dataDir());
        final long unrecorded = value(reader, NodeCounter.AGENT_ERRORS_UNRECORDED, Map.of());
        assertThat(value(reader, NodeCounter.AGENT_ERRORS, Map.of())).isEqualTo(count);
        assertThat(unrecorded).as("the full log's overflow is counted").isPositive();
        assertThat(reader.errors()).as("what the log kept and what it could not add up")
            .hasSize((int)(count - unrecorded));
    }

    @Test
    void aRestartMakesAFreshFileWithTheNewIncarnation()
    {
        final LocalCluster cluster = LocalCluster.create(dir, 1);
        Node one = start(cluster, 1);
        final long first = one.interconnect().incarnation();
        one.close();
        nodes.remove(one);
        one = start(cluster, 1);
        final CountersFileReader reader = CountersFileReader.open(one.config().dataDir());
        assertThat(reader.incarnation()).isEqualTo(one.interconnect().incarnation()).isGreaterThan(first);
        assertThat(reader.state()).isEqualTo(NodeState.RUNNING);
        assertThat(reader.errors()).isEmpty();
    }
}
