package io.troupe.client;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;
import io.troupe.actor.TerminationReason;
import io.troupe.actor.Terminated;
import io.troupe.actor.SystemCounter;
import io.troupe.actor.UndeliveredException;
import io.troupe.actor.UndeliveredReason;
import io.troupe.node.Node;
import io.troupe.node.NodeConfigLoader;
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

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.troupe.client.TestEvents.GREETER;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An actor id held from before its node restarted names no actor of the new start: node 2 runs in a process of its
 * own and registers its services in the same order at every start; a peer (node 1, in this JVM) and clients hold the
 * greeter's actor id from the first start. After the restart, events to that id are {@code Undelivered
 * (ACTOR_UNKNOWN)}, from the peer, from a client through node 1 and from a client of node 2 itself, and never reach
 * the new greeter (it would answer them); the service id reaches the new greeter. A watcher on node 1 hears of the
 * greeter's end as node 2 shuts down.
 */
@Timeout(120)
class ActorIdsAcrossRestartsTest
{
    private static final Duration WAIT = Duration.ofSeconds(45); // a child JVM starting on a busy machine
    private static final Duration ASK = Duration.ofSeconds(20);
    private static final ServiceId GREETER_OF_2 = ServiceId.of(2, "greeter");

    @TempDir
    Path dir;
    private LocalCluster cluster;
    private Node one;
    private NodeProcess two;
    private TroupeClient viaOne;
    private TroupeClient ofTwo;

    @AfterEach
    void tearDown()
    {
        for (final TroupeClient client : new TroupeClient[] {ofTwo, viaOne})
        {
            if (client != null)
            {
                client.close();
            }
        }
        if (one != null)
        {
            one.close();
        }
        if (two != null)
        {
            two.kill();
        }
        if (cluster != null)
        {
            cluster.close();
        }
    }

    @Test
    void anActorIdFromBeforeARestartIsUndeliveredFromPeerAndClientsAndTheServiceIdReachesTheNewActor()
        throws Exception
    {
        cluster = LocalCluster.create(dir, 2, TestEvents.clusterSettings());
        two = startTwo();
        one = Node.start(NodeConfigLoader.load(cluster.configFile(1), new Properties()), system -> { },
            TestEvents.codecs());
        TestEvents.registerServices(one);
        final ServiceInstance before = greeterOfTwo(0);
        final ActorId held = before.actor();
        viaOne = TroupeClient.connect(TestEvents.clientConfig(cluster, 1));
        assertThat(viaOne.lookup(GREETER)).extracting(ServiceInstance::actor).as("the client holds it too")
            .contains(held);
        assertThat(one.system().ask(held, new TestEvents.Greeting("peer"), ASK).get(ASK.toMillis(),
            TimeUnit.MILLISECONDS)).isEqualTo(new TestEvents.Reply("hello peer from 2"));
        assertThat(viaOne.ask(held, new TestEvents.Greeting("client"), ASK).get(ASK.toMillis(), TimeUnit.MILLISECONDS))
            .isEqualTo(new TestEvents.Reply("hello client from 2"));

        // a watcher on node 1 hears of the greeter's end when node 2 shuts down (its goodbye), once
        final BlockingQueue<Object> watched = new LinkedBlockingQueue<>();
        final ActorId watcher = one.system().register((ctx, envelope) ->
        {
            if (envelope.event() instanceof ActorId target)
            {
                ctx.watch(target);
            }
            else
            {
                watched.add(envelope.event());
            }
        });
        final long heldBefore = watchersHeldAtTwo(); // the client's ask through node 1 watches the greeter too
        one.system().send(watcher, held);
        Await.until(() -> watchersHeldAtTwo() > heldBefore, WAIT, "node 2 holds the watch");

        two.terminate();
        // ServiceNodeMain closes the node in a shutdown hook: the JVM then exits as SIGTERM has it (143)
        assertThat(two.awaitExit(WAIT)).as("node 2 stopped; log:%n%s", two.logTail(10)).isNotNull();
        assertThat(watched.poll(WAIT.toSeconds(), TimeUnit.SECONDS))
            .isEqualTo(new Terminated(held, TerminationReason.NODE_STOPPED));
        two = startTwo();
        final ServiceInstance after = greeterOfTwo(before.incarnation());
        assertThat(after.actor()).as("the greeter registered again, in the same order: a new id")
            .isNotEqualTo(held);
        assertThat(after.actor().localId()).as("counted up from the new start's first id")
            .isGreaterThanOrEqualTo(ActorId.firstLocalId(after.incarnation()));
        assertThat(after.actor().localId() - ActorId.firstLocalId(after.incarnation()))
            .as("the same place in the start's order: with ids counted from 1 at every start, it had the old id")
            .isEqualTo(held.localId() - ActorId.firstLocalId(before.incarnation()));

        assertThat(undeliveredBecause(one.system().ask(held, new TestEvents.Greeting("peer again"), ASK)))
            .as("from the peer").isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);
        assertThat(undeliveredBecause(viaOne.ask(held, new TestEvents.Greeting("client again"), ASK)))
            .as("from a client through node 1").isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);
        ofTwo = TroupeClient.connect(TestEvents.clientConfig(cluster, 2));
        assertThat(undeliveredBecause(ofTwo.ask(held, new TestEvents.Greeting("local"), ASK)))
            .as("from a client of node 2 itself").isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);

        // the name is what survives a restart
        assertThat(one.system().ask(GREETER_OF_2, new TestEvents.Greeting("by name"), ASK)
            .get(ASK.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(new TestEvents.Reply("hello by name from 2"));
        assertThat(viaOne.ask(GREETER_OF_2, new TestEvents.Greeting("by name"), ASK)
            .get(ASK.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(new TestEvents.Reply("hello by name from 2"));
        assertThat(ofTwo.ask(after.actor(), new TestEvents.Greeting("new id"), ASK)
            .get(ASK.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(new TestEvents.Reply("hello new id from 2"));
    }

    /** The watchers node 2's actors hold, as its counters file (published every so often) says. */
    private long watchersHeldAtTwo()
    {
        final int typeId = SystemCounter.WATCHERS_HELD.typeId();
        return CountersFileReader.open(cluster.dataDir(2)).counters().stream()
            .filter(counter -> counter.typeId() == typeId).mapToLong(CounterRecord::value).sum();
    }

    private NodeProcess startTwo()
    {
        return cluster.start(2, ServiceNodeMain.class.getName(), List.of(cluster.configFile(2).toString()));
    }

    /** Node 2's greeter as node 1 sees it, once node 2 is up with an incarnation past {@code after}. */
    private ServiceInstance greeterOfTwo(final long after)
    {
        final ServiceInstance[] found = new ServiceInstance[1];
        Await.until(() ->
        {
            for (final ServiceInstance instance : one.registry().lookup(GREETER))
            {
                if (instance.nodeId() == 2 && instance.incarnation() > after)
                {
                    found[0] = instance;
                    return one.interconnect().isConnected(2);
                }
            }
            return false;
        }, WAIT, () -> "node 2's greeter past incarnation " + after + " seen from node 1: " +
            one.registry().lookup(GREETER) + "; node 2's log:\n" + two.logTail(10));
        return found[0];
    }

    /** Why the ask ended undelivered; an answer (delivered to a new actor) or another failure fails the test. */
    private static UndeliveredReason undeliveredBecause(final CompletableFuture<?> ask) throws Exception
    {
        try
        {
            final Object answer = ask.get(ASK.toMillis(), TimeUnit.MILLISECONDS);
            throw new AssertionError("answered, so delivered to a new actor: " + answer);
        }
        catch (final ExecutionException ex)
        {
            if (ex.getCause() instanceof UndeliveredException undelivered)
            {
                return undelivered.undelivered().reason();
            }
            throw new AssertionError("failed otherwise: " + ex.getCause(), ex.getCause());
        }
    }
}
