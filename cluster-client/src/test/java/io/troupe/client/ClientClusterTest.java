package io.troupe.client;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredException;
import io.troupe.actor.UndeliveredReason;
import io.troupe.node.Node;
import io.troupe.node.NodeConfigLoader;
import io.troupe.node.client.ClientCounter;
import io.troupe.node.counters.CounterRecord;
import io.troupe.node.counters.CountersFileReader;
import io.troupe.node.local.LocalCluster;
import io.troupe.node.local.NodeProcess;
import io.troupe.registry.ServiceInstance;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.troupe.client.TestEvents.GREETER;
import static org.assertj.core.api.Assertions.assertThat;

/** A client and three nodes (in this JVM, or nodes and clients in child JVMs that get killed). */
@Timeout(120)
class ClientClusterTest
{
    private static final Duration CONNECT = Duration.ofSeconds(45); // a child JVM starting on a busy machine
    private static final ServiceId ONLY_ON_3 = ServiceId.of(0, "only3");

    @TempDir
    Path dir;
    private LocalCluster cluster;
    private final List<Node> nodes = new ArrayList<>();
    private TroupeClient client;
    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void tearDown()
    {
        children.forEach(Process::destroyForcibly);
        if (client != null)
        {
            client.close();
        }
        nodes.forEach(Node::close);
        if (cluster != null)
        {
            cluster.close();
        }
    }

    private Node start(final int nodeId)
    {
        final Node node = Node.start(NodeConfigLoader.load(cluster.configFile(nodeId), new Properties()),
            system -> { }, TestEvents.codecs());
        TestEvents.registerServices(node);
        nodes.add(node);
        return node;
    }

    private static Throwable failureOf(final CompletableFuture<?> future, final Duration within)
    {
        try
        {
            future.get(within.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (final ExecutionException ex)
        {
            return ex.getCause();
        }
        catch (final Exception ex)
        {
            throw new AssertionError("the future did not fail within " + within + ": " + ex, ex);
        }
        throw new AssertionError("the future did not fail");
    }

    @Test
    void aClientOfOneNodeFindsAndAsksServicesOfEveryNodeAndReadsTheReplicaWithNoHop() throws Exception
    {
        cluster = LocalCluster.create(dir, 3, TestEvents.clusterSettings());
        final Node one = start(1);
        final Node two = start(2);
        final Node three = start(3);
        final ActorId only = three.system().register((ctx, envelope) ->
            ctx.reply(new TestEvents.Reply("only on 3: " + ((TestEvents.Greeting)envelope.event()).text())));
        three.registry().register(ONLY_ON_3, only);
        Await.until(() -> one.registry().lookup(GREETER).size() == 3 && one.registry().lookup(ONLY_ON_3).size() == 1 &&
            two.registry().lookup(ONLY_ON_3).size() == 1, CONNECT, "nodes 1 and 2 see every node's services");

        client = TroupeClient.connect(TestEvents.clientConfig(cluster, 1));
        final List<ServiceInstance> greeters = client.lookup(GREETER);
        assertThat(greeters).extracting(ServiceInstance::nodeId).containsExactlyInAnyOrder(1, 2, 3);
        assertThat(client.lookup(ONLY_ON_3)).extracting(ServiceInstance::actor).containsExactly(only);

        // through node 1 to node 3 and back, by the name and by the id
        assertThat(client.ask(ONLY_ON_3, new TestEvents.Greeting("by name"), Duration.ofSeconds(5))
            .get(5, TimeUnit.SECONDS)).isEqualTo(new TestEvents.Reply("only on 3: by name"));
        assertThat(client.ask(only, new TestEvents.Greeting("by id"), Duration.ofSeconds(5))
            .get(5, TimeUnit.SECONDS)).isEqualTo(new TestEvents.Reply("only on 3: by id"));
        assertThat(client.ask(ServiceId.of(2, "greeter"), new TestEvents.Greeting("two"), Duration.ofSeconds(5))
            .get(5, TimeUnit.SECONDS)).isEqualTo(new TestEvents.Reply("hello two from 2"));
        assertThat(client.ask(GREETER, new TestEvents.Greeting("any"), Duration.ofSeconds(30))
            .get(30, TimeUnit.SECONDS))
            .as("an instance of the connected node first").isEqualTo(new TestEvents.Reply("hello any from 1"));

        // the same answers from node 1's replica, in shared memory
        try (TroupeClient local = TroupeClient.connect(TestEvents.clientConfig(cluster, 1)
            .replicaDirectory(one.config().dataDir())))
        {
            final long asksBefore = one.clients().count(ClientCounter.ASKS_IN);
            assertThat(local.lookup(GREETER)).extracting(ServiceInstance::nodeId).containsExactlyInAnyOrder(1, 2, 3);
            assertThat(local.lookup(ONLY_ON_3)).extracting(ServiceInstance::actor).containsExactly(only);
            assertThat(one.clients().count(ClientCounter.ASKS_IN)).as("no lookup reached the node")
                .isEqualTo(asksBefore);
        }
        assertThat(one.clients().pendingAsks()).isZero();
    }

    @Test
    void whenTheNodeIsKilledAsksFailUnsureWithinTheFailureTimeAndTheClientMovesToTheNext() throws Exception
    {
        cluster = LocalCluster.create(dir, 2, TestEvents.clusterSettings());
        final NodeProcess first = cluster.start(1, ServiceNodeMain.class.getName(),
            List.of(cluster.configFile(1).toString()));
        final NodeProcess second = cluster.start(2, ServiceNodeMain.class.getName(),
            List.of(cluster.configFile(2).toString()));
        awaitReady(first);
        awaitReady(second);
        client = TroupeClient.connect(TestEvents.clientConfig(cluster, 1, 2));
        assertThat(client.nodeId()).isEqualTo(1);
        final BlockingQueue<String> heard = new LinkedBlockingQueue<>();
        client.subscribe(ServiceId.of(2, "greeter"), new ServiceListener()
        {
            @Override
            public void up(final ServiceInstance instance)
            {
                heard.add("up " + instance.nodeId());
            }

            @Override
            public void down(final ServiceInstance instance)
            {
                heard.add("down " + instance.nodeId());
            }
        });
        assertThat(heard.poll(30, TimeUnit.SECONDS)).as("node 2's greeter, seen from node 1").isEqualTo("up 2");
        final List<CompletableFuture<Object>> asks = new ArrayList<>();
        for (int i = 0; i < 5; i++)
        {
            asks.add(client.ask(ServiceId.of(1, "slow"), new TestEvents.Greeting("#" + i), Duration.ofSeconds(60)));
        }
        // on their way: node 1 took them (they must have gone out, for the failures to be unsure)
        Await.until(() -> clientAsksIn(cluster.dataDir(1)) >= 5, CONNECT, "node 1's counters file shows the 5 asks in");

        first.kill();
        final long killedNs = System.nanoTime();

        for (final CompletableFuture<Object> ask : asks)
        {
            final Throwable failure = failureOf(ask, Duration.ofSeconds(10));
            assertThat(failure).isInstanceOf(UndeliveredException.class);
            final Undelivered notice = ((UndeliveredException)failure).undelivered();
            assertThat(notice.reason()).isEqualTo(UndeliveredReason.DISCONNECTED);
            assertThat(notice.unsure()).as("it went out: maybe handled").isTrue();
        }
        final Duration detected = Duration.ofNanos(System.nanoTime() - killedNs);
        // the client's failure timeout is 1.5 s and the asks' own 60 s: what a slow machine adds is slack, not a minute
        assertThat(detected).as("about the failure timeout, far from the asks' timeout")
            .isLessThan(Duration.ofSeconds(8));
        Await.until(() -> client.nodeId() == 2, CONNECT, "the client moved to node 2");
        assertThat(client.ask(GREETER, new TestEvents.Greeting("again"), Duration.ofSeconds(30))
            .get(30, TimeUnit.SECONDS))
            .isEqualTo(new TestEvents.Reply("hello again from 2"));
        assertThat(heard.poll(10, TimeUnit.SECONDS)).as("subscribed again on node 2: every live instance again")
            .isEqualTo("up 2");
        assertThat(client.counters().sessionsLost()).isEqualTo(1);
        assertThat(client.counters().sessions()).isEqualTo(2);
        assertThat(client.pendingAsks()).isZero();
    }

    @Test
    void whenTheClientIsKilledTheNodeEndsItsSessionAndFreesItsSlots() throws Exception
    {
        cluster = LocalCluster.create(dir, 1, TestEvents.clusterSettings());
        final Node one = start(1);
        final long aliveBefore = one.system().counters().actorsAlive();
        final Path log = dir.resolve("client.log");
        final Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx128m", "-cp",
            System.getProperty("java.class.path"), ClientChildMain.class.getName(),
            cluster.clusterId(), "127.0.0.1:" + cluster.port(1), "7")
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        children.add(child);
        Await.until(() -> read(log).contains("READY"), CONNECT, () -> "the client child ready; log: " + read(log));
        Await.equal(() -> one.clients().pendingAsks(), 7, "the child's asks hold slots");
        assertThat(one.clients().openSessions()).isEqualTo(1);
        // the child's driver directory, which its kill leaves behind; checked while it lives: once it is dead, any
        // client that starts on the host removes it (the other test JVM's too)
        final String leftover = ClientAgent.DRIVER_DIR_PREFIX + child.pid() + '-';
        assertThat(shmEntries()).anyMatch(name -> name.startsWith(leftover));

        child.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // SIGKILL: no goodbye

        Await.equal(() -> one.clients().openSessions(), 0, "the session ended after the failure timeout");
        assertThat(one.clients().pendingAsks()).isZero();
        assertThat(one.clients().count(ClientCounter.SESSIONS_TIMED_OUT)).isEqualTo(1);
        assertThat(one.clients().count(ClientCounter.ASK_SLOTS_FREED_AT_END)).isEqualTo(7);
        Await.equal(() -> one.system().counters().actorsAlive(), aliveBefore, "the session's proxy passed away");
        assertThat(one.system().isRunning()).isTrue();
        // the killed client left its driver's directory: the next client on the host removes it
        try (TroupeClient next = TroupeClient.connect(TestEvents.clientConfig(cluster, 1)))
        {
            assertThat(next.isConnected()).isTrue();
            assertThat(shmEntries()).noneMatch(name -> name.startsWith(leftover));
        }
    }

    private static void awaitReady(final NodeProcess process)
    {
        Await.until(() -> log(process).contains("READY"), CONNECT, () -> process + " ready; log: " + log(process));
    }

    private static List<String> shmEntries() throws IOException
    {
        try (Stream<Path> entries = Files.list(Path.of("/dev/shm")))
        {
            return entries.map(path -> path.getFileName().toString()).toList();
        }
    }

    private static String log(final NodeProcess process)
    {
        return read(process.logFile());
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.readString(file) : "";
        }
        catch (final IOException ex)
        {
            return "";
        }
    }

    /** The asks a node's client ingress took, as its counters file (published every so often) says. */
    private static long clientAsksIn(final Path dataDir)
    {
        final int typeId = ClientCounter.ASKS_IN.typeId();
        return CountersFileReader.open(dataDir).counters().stream().filter(counter -> counter.typeId() == typeId)
            .mapToLong(CounterRecord::value).sum();
    }
}
