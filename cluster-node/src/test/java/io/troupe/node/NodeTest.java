package io.troupe.node;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.EventTypes;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.NodeDisconnected;
import io.troupe.actor.ServiceId;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import io.troupe.broker.BrokerAsk;
import io.troupe.node.local.LocalCluster;
import io.troupe.registry.ServiceInstance;
import io.troupe.testing.Await;
import io.troupe.serialization.RecordCodec;
import org.agrona.CloseHelper;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Nodes in this JVM, started from config files, over real Aeron on 127.0.0.1. */
@Timeout(60)
class NodeTest
{
    private static final Duration CONNECT = Duration.ofSeconds(20);
    private static final ServiceId SLOW = ServiceId.of(0, "slow");

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

    /** The local cluster {@link #twoConnected} made. */
    private LocalCluster cluster;

    /** Nodes 1 and 2 of a local cluster in this JVM ({@link #cluster}), with their sessions up. */
    private Node[] twoConnected(final String... settings)
    {
        cluster = LocalCluster.create(dir, 2, settings);
        final Node one = start(cluster, 1);
        final Node two = start(cluster, 2);
        Await.until(() -> one.interconnect().isConnected(2) && two.interconnect().isConnected(1), CONNECT,
            "sessions up");
        return new Node[] {one, two};
    }

    @Test
    void aNodeStartsFromItsConfigWithItsServicesAndDataDirAndTalksToItsPeer() throws Exception
    {
        final Node[] pair = twoConnected();
        final Node one = pair[0];
        final Node two = pair[1];

        assertThat(one.config().dataDir()).isDirectory();
        assertThat(cluster.aeronDir(1)).isDirectory();
        final Object echo = one.system().ask(TestEvents.ECHO.onNode(2), new TestEvents.Note("hi"), TestEvents.NOTE,
            Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS);
        assertThat(echo).isEqualTo(new TestEvents.Note("echo: hi"));
    }

    @Test
    void aServiceRegisteredOnOneNodeIsFoundOnTheOtherThroughItsDirectory() throws Exception
    {
        final Node[] pair = twoConnected();
        final Node one = pair[0];
        final Node two = pair[1];
        final ServiceId greeter = ServiceId.of(0, "greeter");
        final ActorId actor = one.system().register((ctx, envelope) -> ctx.reply(envelope.event()));

        final ServiceInstance instance = one.registry().register(greeter, actor);
        Await.until(() -> two.registry().lookup(greeter).contains(instance), CONNECT, "node 2 sees node 1's instance");
        assertThat(instance.incarnation()).isEqualTo(one.identity().incarnation());
        final Object answer = two.system().ask(two.registry().pickLocalFirst(greeter).orElseThrow().service(),
            new TestEvents.Note("hello"), TestEvents.NOTE, Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS);
        assertThat(answer).isEqualTo(new TestEvents.Note("hello"));
    }

    @Test
    void aRestartInTheSameDataDirectoryIsTheNextIncarnationAndItsPeerSeesTheNewOne()
    {
        final LocalCluster cluster = LocalCluster.create(dir, 2);
        final Node one = start(cluster, 1);
        Node two = start(cluster, 2);
        Await.until(() -> one.interconnect().isConnected(2), CONNECT, "session up");
        final long first = two.identity().incarnation();
        assertThat(two.interconnect().incarnation()).as("the handshake uses the persisted one").isEqualTo(first);

        two.close();
        nodes.remove(two);
        two = start(cluster, 2);
        final Node restarted = two;
        assertThat(restarted.identity().incarnation()).isGreaterThan(first);
        assertThat(restarted.identity().previous()).isEqualTo(first);
        Await.until(() -> one.interconnect().isConnected(2) && restarted.interconnect().isConnected(1), CONNECT,
            "a session with the new incarnation");
        assertThat(NodeIdentity.read(restarted.config().dataDir()).incarnation())
            .isEqualTo(restarted.interconnect().incarnation());
    }

    @Test
    void closeSaysGoodbyeSoThePeerSeesTheDepartureAtOnceRemovesTheAeronDirAndRunsOnce() throws Exception
    {
        // the failure detector made slow (20 s): a departure seen in seconds can only be the goodbye's doing
        final Node[] pair = twoConnected("troupe.failure-detector.timeout = 20s");
        final Node one = pair[0];
        final Node two = pair[1];
        final BlockingQueue<Object> sightings = new LinkedBlockingQueue<>();
        final ActorId watcher = one.system().register((ctx, envelope) ->
        {
            if ("watch".equals(envelope.event()))
            {
                ctx.subscribeToNode(2);
            }
            else
            {
                sightings.add(envelope.event());
            }
        });
        one.system().send(watcher, "watch");
        assertThat(sightings.poll(10, TimeUnit.SECONDS)).isEqualTo(new NodeConnected(2));

        final long closeNs = System.nanoTime();
        final Thread concurrent = new Thread(two::close);
        concurrent.start();
        two.close();
        assertThat(two.isClosed()).as("a second close returns once the first has finished").isTrue();
        concurrent.join(10_000);
        assertThat(sightings.poll(30, TimeUnit.SECONDS)).isEqualTo(new NodeDisconnected(2));
        assertThat(Duration.ofNanos(System.nanoTime() - closeNs)).as("seen by the goodbye, long before the detector")
            .isLessThan(Duration.ofSeconds(10));
        assertThat(cluster.aeronDir(2)).doesNotExist();
        assertThat(two.drained()).isTrue();
        assertThat(two.system().isRunning()).isFalse();
        two.close();
    }

    @Test
    void trackedEventsFromAnotherNodeStillQueuedWhenTheDrainDeadlinePassesComeBackAsUndeliveredShutdown()
        throws Exception
    {
        final LocalCluster cluster = LocalCluster.create(dir, 2, "troupe.shutdown-timeout = 200ms");
        final Node one = start(cluster, 1);
        final CountDownLatch firstHandled = new CountDownLatch(1);
        final Set<Long> handled = ConcurrentHashMap.newKeySet();
        final Node two = Node.start(NodeConfigLoader.load(cluster.configFile(2), new Properties()), system ->
            system.registerService(SLOW, system.register((ctx, envelope) ->
            {
                handled.add(envelope.cookie());
                firstHandled.countDown();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // slow: the drain deadline passes first
            })), TestEvents.NOTE_CODEC);
        nodes.add(two);
        Await.until(() -> one.interconnect().isConnected(2) && two.interconnect().isConnected(1), CONNECT,
            "sessions up");

        final int count = 40;
        final Map<Long, Undelivered> undelivered = new ConcurrentHashMap<>();
        final Set<Long> duplicates = ConcurrentHashMap.newKeySet();
        final ActorId sender = one.system().register((ctx, envelope) ->
        {
            if ("go".equals(envelope.event()))
            {
                for (long i = 0; i < count; i++)
                {
                    ctx.send(SLOW.onNode(2), new TestEvents.Note("#" + i), TestEvents.NOTE,
                        Envelope.FLAG_TRACK_DELIVERY, i);
                }
            }
            else if (envelope.event() instanceof Undelivered notice &&
                undelivered.put(envelope.cookie(), notice) != null)
            {
                duplicates.add(envelope.cookie());
            }
        });
        one.system().send(sender, "go");
        assertThat(firstHandled.await(10, TimeUnit.SECONDS)).isTrue();
        Await.until(() -> one.interconnect().peerCounters().get(0).queueDepth() == 0 &&
            two.interconnect().peerCounters().get(0).eventsIn() == count, CONNECT, "all sent and received");

        two.close();
        assertThat(two.drained()).as("the deadline cut the drain short").isFalse();
        Await.until(() -> handled.size() + undelivered.size() >= count, Duration.ofSeconds(10),
            "every event accounted for");
        assertThat(duplicates).isEmpty();
        assertThat(handled).isNotEmpty();
        final Set<Long> all = new HashSet<>(handled);
        all.addAll(undelivered.keySet());
        assertThat(all).hasSize(count);
        for (final Map.Entry<Long, Undelivered> notice : undelivered.entrySet())
        {
            assertThat(handled).as("handled and reported undelivered").doesNotContain(notice.getKey());
            assertThat(notice.getValue().reason()).isEqualTo(UndeliveredReason.SHUTDOWN);
            assertThat(notice.getValue().unsure()).isFalse();
        }
    }

    @Test
    void theCodecsAreTroupesTheBrokersAndTheCallersAndAClashFailsAtStart()
    {
        final int type = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 9);
        final RecordCodec<Long> extra = RecordCodec.of(type, "test.Long", Long.class, (out, v) -> out.writeLong(v),
            in -> in.readLong());
        assertThat(Node.codecs(extra).codec(type)).isSameAs(extra);
        assertThat(Node.codecs().codec(TestEvents.NOTE)).as("no codecs of an application's by default").isNull();
        assertThat(Node.codecs().codec(Undelivered.TYPE)).isNotNull();
        assertThat(Node.codecs().codec(BrokerAsk.TYPE)).as("every node speaks the broker's events").isNotNull();
        assertThatThrownBy(() -> Node.codecs(TestEvents.NOTE_CODEC, RecordCodec.of(TestEvents.NOTE, "test.Clash",
            String.class, (out, v) -> out.writeString(v), in -> in.readString())))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("test.Note");
    }

    @Test
    void aNodeWhoseMediaDriverStopsStopsItselfSaysWhyAndWouldExitWithOne()
    {
        cluster = LocalCluster.create(dir, 2);
        final String aeronDir = dir.resolve("external-driver").toString();
        final MediaDriver driver = MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(aeronDir).threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(new BackoffIdleStrategy()).dirDeleteOnStart(true).dirDeleteOnShutdown(true));
        try
        {
            final Properties external = new Properties();
            external.setProperty(NodeConfigMapper.EMBEDDED_DRIVER, "false");
            external.setProperty(NodeConfigMapper.AERON_DIR, aeronDir);
            // with a client ingress: its removal from the interconnect's thread must not wait out its 10 s limit
            external.setProperty(NodeConfigMapper.CLIENT_SECRET, "a client secret of 32 bytes or so");
            final Node one = Node.start(NodeConfigLoader.load(cluster.configFile(1), external),
                TestEvents::registerEcho, TestEvents.NOTE_CODEC);
            nodes.add(one);
            final Node two = start(cluster, 2);
            Await.until(() -> one.interconnect().isConnected(2) && two.interconnect().isConnected(1), CONNECT,
                "sessions up");
            assertThat(one.failure()).isNull();
            final long errorsBefore = one.counters().recorder().errors();

            driver.close();

            final long stoppingNs = System.nanoTime();
            Await.until(one::isClosed, Duration.ofSeconds(15), "node 1 stopped itself");
            assertThat(Duration.ofNanos(System.nanoTime() - stoppingNs)).as("no part of the close waits for a " +
                "transport that is gone").isLessThan(Duration.ofSeconds(5));
            assertThat(one.clients()).isNotNull();
            assertThat(one.failure()).contains("Aeron client has closed").contains("no peer can be reached");
            assertThat(NodeCommand.exitCode(one)).isEqualTo(NodeCommand.EXIT_FAILED);
            assertThat(one.counters().recorder().errors()).as("recorded").isGreaterThan(errorsBefore);
            Await.until(() -> !two.interconnect().isConnected(1), CONNECT, "node 2 sees node 1 go");
            assertThat(two.failure()).isNull();
            two.close();
            assertThat(NodeCommand.exitCode(two)).as("a node stopped from outside exits cleanly")
                .isEqualTo(NodeCommand.EXIT_CLEAN);
        }
        finally
        {
            CloseHelper.quietClose(driver);
        }
    }

    @Test
    void twoNodesOfOneProcessCannotShareADataDirectoryAndACloseFreesIt()
    {
        cluster = LocalCluster.create(dir, 2);
        final NodeConfig config = NodeConfigLoader.load(cluster.configFile(1), new Properties());
        final Node one = start(cluster, 1);
        assertThatThrownBy(() -> Node.start(config)).isInstanceOf(NodeStartException.class)
            .hasMessageContaining("is in use by another node (pid " + ProcessHandle.current().pid() + ")")
            .hasMessageContaining("node 1 needs a data directory of its own");
        assertThat(one.system().isRunning()).isTrue();
        one.close();
        final Node again = start(cluster, 1);
        assertThat(again.system().isRunning()).isTrue();
    }

    @Test
    void aNodeThatCannotStartStopsWhatItStarted()
    {
        final LocalCluster cluster = LocalCluster.create(dir, 2);
        final NodeConfig config = NodeConfigLoader.load(cluster.configFile(1), new Properties());
        assertThatThrownBy(() -> Node.start(config, system ->
        {
            throw new IllegalStateException("setup failed");
        })).hasMessage("setup failed");
        assertThat(cluster.aeronDir(1)).doesNotExist();
        final Node node = Node.start(config);
        nodes.add(node);
        assertThat(node.system().isRunning()).isTrue();
    }
}
