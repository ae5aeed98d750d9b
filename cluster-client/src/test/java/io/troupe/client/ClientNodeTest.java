package io.troupe.client;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredException;
import io.troupe.actor.UndeliveredReason;
import io.troupe.interconnect.LoopbackPorts;
import io.troupe.node.Node;
import io.troupe.node.NodeConfigLoader;
import io.troupe.node.client.ClientCounter;
import io.troupe.node.client.ClientSessionStats;
import io.troupe.node.counters.CounterRecord;
import io.troupe.node.counters.CountersFileReader;
import io.troupe.node.local.LocalCluster;
import io.troupe.registry.RegistryCodecs;
import io.troupe.registry.ServiceInstance;
import io.troupe.registry.Subscribe;
import io.troupe.testing.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import static io.troupe.client.TestEvents.GREETER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A client and one node in this JVM, over real Aeron on 127.0.0.1. */
@Timeout(60)
class ClientNodeTest
{
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;
    private LocalCluster cluster;
    private Node node;
    private TroupeClient client;

    @AfterEach
    void tearDown()
    {
        if (client != null)
        {
            client.close();
        }
        if (node != null)
        {
            node.close();
        }
    }

    private void startNode(final String... settings)
    {
        cluster = LocalCluster.create(dir, 1, TestEvents.clusterSettings(settings));
        node = Node.start(NodeConfigLoader.load(cluster.configFile(1), new Properties()), system -> { },
            TestEvents.codecs());
        TestEvents.registerServices(node);
    }

    private static Throwable failureOf(final CompletableFuture<?> future)
    {
        try
        {
            future.get(10, TimeUnit.SECONDS);
        }
        catch (final ExecutionException ex)
        {
            return ex.getCause();
        }
        catch (final Exception ex)
        {
            throw new AssertionError("the future did not fail: " + ex, ex);
        }
        throw new AssertionError("the future did not fail");
    }

    @Test
    void aClientLooksUpSendsAndAsks() throws Exception
    {
        startNode();
        client = TroupeClient.connect(TestEvents.clientConfig(cluster, 1));

        assertThat(client.isConnected()).isTrue();
        assertThat(client.nodeId()).isEqualTo(1);
        final List<ServiceInstance> greeters = client.lookup(GREETER);
        assertThat(greeters).hasSize(1);
        assertThat(greeters.get(0).nodeId()).isEqualTo(1);
        assertThat(client.lookup(ServiceId.of(0, "nobody"))).isEmpty();

        final Object reply = client.ask(GREETER, new TestEvents.Greeting("world"), Duration.ofSeconds(5))
            .get(5, TimeUnit.SECONDS);
        assertThat(reply).isEqualTo(new TestEvents.Reply("hello world from 1"));
        final TestEvents.Reply typed = client.ask(greeters.get(0).<TestEvents.Greeting>ref(),
            new TestEvents.Greeting("typed"), TestEvents.Reply.class, Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS);
        assertThat(typed.text()).isEqualTo("hello typed from 1");

        TestEvents.SUNK.clear();
        assertThat(client.send(TestEvents.SINK, new TestEvents.Greeting("one-way"))).isEqualTo(SendStatus.OK);
        assertThat(TestEvents.SUNK.poll(5, TimeUnit.SECONDS)).isEqualTo(new TestEvents.Greeting("one-way"));

        assertThat(node.clients().openSessions()).isEqualTo(1);
        assertThat(node.clients().count(ClientCounter.ASKS_IN)).as("two lookups, two asks").isEqualTo(4);
        Await.equal(() -> node.clients().pendingAsks(), 0, "every ask slot freed by its reply");
        assertThat(client.pendingAsks()).isZero();
    }

    @Test
    void anAskWhoseActorGoesBeforeItAnswersFailsAtOnceNotAtItsTimeout() throws Exception
    {
        startNode();
        client = TroupeClient.connect(TestEvents.clientConfig(cluster, 1));
        // takes the ask and passes away without an answer
        final ActorId quitter = node.system().register((ctx, envelope) -> ctx.passAway()).onNode(1);
        final long start = System.nanoTime();

        final Throwable failure = failureOf(client.ask(quitter, new TestEvents.Greeting("anyone?"),
            Duration.ofMinutes(5)));

        assertThat(failure).isInstanceOf(UndeliveredException.class);
        final Undelivered notice = ((UndeliveredException)failure).undelivered();
        assertThat(notice.reason()).isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);
        assertThat(notice.unsure()).as("it was delivered: maybe handled").isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("its watch, not the 5-minute timeout")
            .isLessThan(WAIT);
        assertThat(node.clients().count(ClientCounter.ASKS_TARGET_GONE)).isEqualTo(1);
        Await.equal(() -> node.clients().pendingAsks(), 0, "the ask's slot freed");
        assertThat(client.pendingAsks()).isZero();
    }

    @Test
    void aClientIsAdmittedOnlyOnceTheApplicationIsSetUpAndFindsItsServicesAtOnce() throws Exception
    {
        cluster = LocalCluster.create(dir, 1, TestEvents.clusterSettings());
        final CountDownLatch settingUp = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final CompletableFuture<Node> starting = CompletableFuture.supplyAsync(() -> Node.start(
            NodeConfigLoader.load(cluster.configFile(1), new Properties()), system -> { }, started ->
            {
                settingUp.countDown();
                awaitQuietly(release);
                TestEvents.registerServices(started);
            }, TestEvents.codecs()));
        final CompletableFuture<TroupeClient> connecting;
        try
        {
            assertThat(settingUp.await(30, TimeUnit.SECONDS)).as("the application sets up").isTrue();
            connecting = CompletableFuture.supplyAsync(() -> TroupeClient.connect(TestEvents.clientConfig(cluster, 1)));
            // the wait is what is tested: no session while the application sets up (the connect timeout is 10 s)
            assertThatThrownBy(() -> connecting.get(1, TimeUnit.SECONDS)).isInstanceOf(TimeoutException.class);
        }
        finally
        {
            release.countDown();
        }
        node = starting.get(30, TimeUnit.SECONDS);
        client = connecting.get(30, TimeUnit.SECONDS);
        assertThat(client.lookup(GREETER)).as("its first lookup finds the application's service").hasSize(1);
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aClientMayUseAMediaDriverThatRunsAlreadyInsteadOfItsOwn() throws Exception
    {
        startNode();
        final String nodeDriver = node.interconnect().config().aeronDir();
        client = TroupeClient.connect(TestEvents.clientConfig(cluster, 1).aeronDir(nodeDriver));

        assertThat(client.ask(GREETER, new TestEvents.Greeting("shared"), Duration.ofSeconds(30))
            .get(30, TimeUnit.SECONDS))
            .isEqualTo(new TestEvents.Reply("hello shared from 1"));
        client.close();
        client = null;
        Await.equal(() -> node.clients().openSessions(), 0, "the session ended");
        assertThat(Files.isDirectory(Path.of(nodeDriver))).as("the node's driver is not the client's to remove")
            .isTrue();
        assertThat(node.system().isRunning()).isTrue();
        try (TroupeClient again = TroupeClient.connect(TestEvents.clientConfig(cluster, 1)))
        {
            assertThat(again.lookup(GREETER)).hasSize(1);
        }
    }

    @Test
    void aSubscriberHearsEveryInstanceAndChangeUntilItStops() throws Exception
    {
        startNode();
        client = TroupeClient.connect(TestEvents.clientConfig(cluster, 1));
        final BlockingQueue<String> heard = new LinkedBlockingQueue<>();
        final ServiceId echo = ServiceId.of(0, "echo");
        final ActorId first = node.system().register((ctx, envelope) -> { });
        node.registry().register(echo, first);

        final AutoCloseable subscription = client.subscribe(echo, new ServiceListener()
        {
            @Override
            public void up(final ServiceInstance instance)
            {
                heard.add("up " + instance.actor());
            }

            @Override
            public void down(final ServiceInstance instance)
            {
                heard.add("down " + instance.actor());
            }
        });

        assertThat(heard.poll(5, TimeUnit.SECONDS)).isEqualTo("up " + first);
        final ActorId second = node.system().register((ctx, envelope) -> { });
        node.registry().register(echo, second);
        assertThat(heard.poll(5, TimeUnit.SECONDS)).isEqualTo("up " + second);
        node.registry().unregister(echo, first);
        assertThat(heard.poll(5, TimeUnit.SECONDS)).isEqualTo("down " + first);

        // each subscription is an entry in the node's directory: a client holds at most 1,024 names
        for (int i = 0; i < 1024; i++)
        {
            RawFrames.send(client, ServiceId.of(0, "n" + i), Subscribe.TYPE, 0L,
                encode(new Subscribe(ServiceId.of(0, "n" + i))));
        }
        Await.until(() -> node.clients().count(ClientCounter.EVENTS_REFUSED) == 1, Duration.ofSeconds(10),
            "the 1,025th name refused (echo is the first)");

        subscription.close();
        // the Unsubscribe and a later lookup go over one session to one directory actor, in order: once the
        // lookup is answered, the node has forgotten the subscription
        client.lookupAsync(echo).get(30, TimeUnit.SECONDS);
        final long sentBefore = node.clients().count(ClientCounter.REPLIES_OUT);
        node.registry().unregister(echo, second);
        // a notice of that unregister would be sent, and reach the client, before the answer to a lookup made after it
        client.lookupAsync(echo).get(30, TimeUnit.SECONDS);
        assertThat(node.clients().count(ClientCounter.REPLIES_OUT) - sentBefore).as("the lookup's answer only").isOne();
        assertThat(heard).as("unsubscribed: told nothing").isEmpty();
    }

    @Test
    void wrongCredentialsClusterOrVersionFailSayingWhyAndASilentEndpointTimesOut()
    {
        startNode();
        final ClientConfig wrongSecret = TestEvents.clientConfig(cluster, 1)
            .secret("not-the-client-secret!".getBytes());
        assertThatThrownBy(() -> TroupeClient.connect(wrongSecret)).isInstanceOf(ClientConnectException.class)
            .hasMessageContaining("127.0.0.1:" + cluster.port(1)).hasMessageContaining("secret");
        final ClientConfig wrongCluster = TestEvents.clientConfig(cluster, 1).clusterId("another-cluster");
        assertThatThrownBy(() -> TroupeClient.connect(wrongCluster)).isInstanceOf(ClientConnectException.class)
            .hasMessageContaining("cluster id").hasMessageContaining("another-cluster");
        final ClientConfig newer = TestEvents.clientConfig(cluster, 1).protocolVersions(7, 9);
        assertThatThrownBy(() -> TroupeClient.connect(newer)).isInstanceOf(ClientConnectException.class)
            .hasMessageContaining("protocol version").hasMessageContaining("7..9");
        // each HELLO is refused and counted (a client sends its HELLO again until answered)
        assertThat(node.clients().count(ClientCounter.REFUSED_SECRET)).isPositive();
        assertThat(node.clients().count(ClientCounter.REFUSED_CLUSTER)).isPositive();
        assertThat(node.clients().count(ClientCounter.REFUSED_VERSION)).isPositive();
        assertThat(node.clients().count(ClientCounter.REFUSALS_TOLD)).isGreaterThanOrEqualTo(3);
        assertThat(node.clients().count(ClientCounter.SESSIONS_OPENED)).isZero();

        final int silent = LoopbackPorts.freeUdp(1)[0];
        final ClientConfig nobody = TestEvents.clientConfig(cluster).endpoint("127.0.0.1:" + silent)
            .connectTimeout(Duration.ofMillis(800)).failureTimeout(Duration.ofMillis(300))
            .heartbeatInterval(Duration.ofMillis(100));
        final long start = System.nanoTime();
        assertThatThrownBy(() -> TroupeClient.connect(nobody)).isInstanceOf(ClientConnectException.class)
            .hasMessageContaining("127.0.0.1:" + silent).hasMessageContaining("no answer");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(node.system().isRunning()).isTrue();
    }

    @Test
    void badEventsAreRefusedCountedAndAnsweredAndTheSessionGoesOn() throws Exception
    {
        startNode();
        final BlockingQueue<Undelivered> undelivered = new LinkedBlockingQueue<>();
        client = TroupeClient.connect(TestEvents.clientConfig(cluster, 1).onUndelivered(undelivered::add));

        // a type the node has no codec for
        final Throwable stranger = failureOf(client.ask(GREETER, new TestEvents.Stranger(7), Duration.ofSeconds(5)));
        assertThat(stranger).isInstanceOf(UndeliveredException.class);
        assertThat(((UndeliveredException)stranger).undelivered().reason()).isEqualTo(UndeliveredReason.REFUSED);
        assertThat(client.send(GREETER, new TestEvents.Stranger(8))).isEqualTo(SendStatus.OK);
        final Undelivered told = undelivered.poll(5, TimeUnit.SECONDS);
        assertThat(told.reason()).isEqualTo(UndeliveredReason.REFUSED);
        assertThat(told.recipient()).isEqualTo(GREETER);
        // a system type, which no client codec registry lets through: written by hand
        assertThat(RawFrames.send(client, GREETER, Undelivered.TYPE, 0L, new byte[40])).isTrue();
        assertThat(undelivered.poll(5, TimeUnit.SECONDS).reason()).isEqualTo(UndeliveredReason.REFUSED);
        // nobody there
        final Throwable nobody = failureOf(client.ask(ServiceId.of(0, "nobody"), new TestEvents.Greeting("?"),
            Duration.ofSeconds(5)));
        assertThat(((UndeliveredException)nobody).undelivered().reason()).isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);
        final Throwable gone = failureOf(client.ask(ActorId.of(1, 999_999, 3),
            new TestEvents.Greeting("?"), Duration.ofSeconds(5)));
        assertThat(((UndeliveredException)gone).undelivered().reason()).isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);
        // a payload that does not decode reaches the actor as such; the node and the session carry on
        assertThat(RawFrames.send(client, TestEvents.SINK, TestEvents.GREETING.typeId(), 0L, new byte[] {1, 2, 3}))
            .isTrue();

        assertThat(node.clients().count(ClientCounter.EVENTS_REFUSED)).isEqualTo(3);
        assertThat(client.ask(GREETER, new TestEvents.Greeting("still here"), Duration.ofSeconds(5))
            .get(5, TimeUnit.SECONDS)).isEqualTo(new TestEvents.Reply("hello still here from 1"));
        assertThat(node.clients().openSessions()).isEqualTo(1);
        assertThat(node.clients().count(ClientCounter.SESSIONS_ENDED)).isZero();
    }

    @Test
    void asksBeyondTheLimitAreShedAndSlotsOfUnansweredAsksExpire() throws Exception
    {
        // the node holds a slot 2 s, so the fourth ask meets three held slots however slowly they arrive; the
        // client gives up on the first three after 200 ms, and waits for the fourth's answer as long as it takes
        startNode("troupe.client.max-pending-asks = 3", "troupe.client.ask-timeout = 2s");
        client = TroupeClient.connect(TestEvents.clientConfig(cluster, 1));

        final List<CompletableFuture<Object>> asks = new ArrayList<>();
        for (int i = 0; i < 4; i++)
        {
            asks.add(client.ask(TestEvents.SLOW, new TestEvents.Greeting("#" + i),
                i < 3 ? Duration.ofMillis(200) : Duration.ofSeconds(30)));
        }
        final Throwable shed = failureOf(asks.get(3));
        assertThat(((UndeliveredException)shed).undelivered().reason()).isEqualTo(UndeliveredReason.SHED);
        for (int i = 0; i < 3; i++)
        {
            assertThat(failureOf(asks.get(i))).isInstanceOf(TimeoutException.class);
        }
        assertThat(node.clients().count(ClientCounter.ASKS_SHED)).isEqualTo(1);
        Await.equal(() -> node.clients().pendingAsks(), 0, "the node's slots expired");
        assertThat(node.clients().count(ClientCounter.ASK_SLOTS_EXPIRED)).isEqualTo(3);
        assertThat(client.pendingAsks()).isZero();
    }

    @Test
    void anAskIdRepeatedWhileItsAskWaitsIsRefusedAndFreesNoSlot() throws Exception
    {
        startNode();
        client = TroupeClient.connect(TestEvents.clientConfig(cluster, 1));
        final CompletableFuture<Object> first = client.ask(TestEvents.SLOW, new TestEvents.Greeting("1"),
            Duration.ofSeconds(30));
        final CompletableFuture<Object> second = client.ask(TestEvents.SLOW, new TestEvents.Greeting("2"),
            Duration.ofSeconds(30));
        Await.equal(() -> node.clients().pendingAsks(), 2, "two slots on the node");

        // the first ask's id again, by hand (a client's own ids never repeat)
        final byte[] payload = new byte[TestEvents.GREETING.encodedLength(new TestEvents.Greeting("x"))];
        TestEvents.GREETING.encode(new TestEvents.Greeting("x"), new UnsafeBuffer(payload), 0);
        assertThat(RawFrames.send(client, TestEvents.SLOW, TestEvents.GREETING.typeId(), 1L, payload)).isTrue();

        Await.equal(() -> node.clients().count(ClientCounter.EVENTS_REFUSED), 1L, "the repeated id refused");
        assertThat(((UndeliveredException)failureOf(first)).undelivered().reason())
            .isEqualTo(UndeliveredReason.REFUSED);
        assertThat(node.clients().pendingAsks()).as("the first ask keeps its slot on the node").isEqualTo(2);
        assertThat(second).isNotDone();
    }

    @Test
    void closingTheClientEndsItsSessionFreesItsSlotsAndReleasesEverything() throws Exception
    {
        startNode();
        client = TroupeClient.connect(TestEvents.clientConfig(cluster, 1));
        final long aliveBefore = node.system().counters().actorsAlive();
        final List<CompletableFuture<Object>> asks = new ArrayList<>();
        for (int i = 0; i < 5; i++)
        {
            asks.add(client.ask(TestEvents.SLOW, new TestEvents.Greeting("#" + i), Duration.ofSeconds(30)));
        }
        Await.equal(() -> node.clients().pendingAsks(), 5, "five slots on the node");
        // the session's own counters: one row while it is open
        final ClientSessionStats session = node.clients().sessions().get(0);
        assertThat(session.asksIn()).isEqualTo(5);
        assertThat(session.eventsIn()).isEqualTo(5);
        assertThat(session.asksPending()).isEqualTo(5);
        assertThat(session.debt()).isNotNegative(); // the slow service may have repaid them already
        node.counters().publishNow();
        final CountersFileReader file = CountersFileReader.open(node.config().dataDir());
        final Map<String, String> labels = Map.of("client",
            Integer.toString(session.clientId()), "session", Integer.toString(session.sessionId()));
        assertThat(file.counters()).filteredOn(record -> record.labels().equals(labels))
            .extracting(CounterRecord::name, CounterRecord::value)
            .contains(Tuple.tuple("client_session_asks_in", 5L),
                Tuple.tuple("client_session_asks_pending", 5L));
        assertThat(file.counters()).filteredOn(record -> record.labels().equals(labels))
            .extracting(CounterRecord::name).contains("client_session_debt",
                "client_session_events_in", "client_session_messages_out");

        client.close();

        for (final CompletableFuture<Object> ask : asks)
        {
            assertThat(((UndeliveredException)failureOf(ask)).undelivered().reason())
                .isEqualTo(UndeliveredReason.SHUTDOWN);
        }
        Await.equal(() -> node.clients().openSessions(), 0, "the node ended the session at the goodbye");
        assertThat(node.clients().pendingAsks()).isZero();
        assertThat(node.clients().count(ClientCounter.ASK_SLOTS_FREED_AT_END)).isEqualTo(5);
        assertThat(node.clients().count(ClientCounter.GOODBYES_RECEIVED)).isEqualTo(1);
        assertThat(node.clients().sessions()).isEmpty();
        node.counters().publishNow();
        assertThat(file.counters()).as("the ended session's counters are freed")
            .noneMatch(record -> record.labels().equals(labels));
        Await.equal(() -> node.system().counters().actorsAlive(), aliveBefore - 1L, "the session's proxy passed away");
        Await.until(() -> Thread.getAllStackTraces().keySet().stream()
            .noneMatch(thread -> thread.getName().startsWith("troupe-client-")), WAIT, "the client's thread gone");
        assertThat(client.send(GREETER, new TestEvents.Greeting("late"))).isEqualTo(SendStatus.CLOSED);
        try (Stream<Path> shm = Files.list(Path.of("/dev/shm")))
        {
            assertThat(shm.map(Path::toString)).noneMatch(name ->
                name.contains("troupe-client-" + ProcessHandle.current().pid() + '-'));
        }
        client = null;
    }

    private static byte[] encode(final Subscribe subscribe)
    {
        final byte[] bytes = new byte[RegistryCodecs.SUBSCRIBE.encodedLength(subscribe)];
        RegistryCodecs.SUBSCRIBE.encode(subscribe, new UnsafeBuffer(bytes), 0);
        return bytes;
    }
}
