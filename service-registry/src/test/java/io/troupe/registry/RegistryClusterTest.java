package io.troupe.registry;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;
import io.troupe.interconnect.TestCluster;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three nodes in one JVM over real Aeron on 127.0.0.1, each with its directory: registrations converge, a
 * subscriber hears instances of other nodes come and go, a node that leaves takes its instances down, and a node
 * back as a new incarnation replaces them.
 */
@Timeout(90)
class RegistryClusterTest
{
    /** How long to wait for what should happen (sessions, notices, convergence): never reached on a slow machine. */
    private static final Duration WAIT = Await.DEFAULT_TIMEOUT;
    private static final ServiceId ECHO = ServiceId.of(0, "echo");

    private final TestCluster cluster = TestCluster.of(3);
    private final Map<Integer, ServiceRegistry> registries = new HashMap<>();

    @AfterEach
    void tearDown()
    {
        registries.values().forEach(ServiceRegistry::close);
        cluster.close();
    }

    private void startAll()
    {
        cluster.startAll();
        for (final TestCluster.Node node : cluster.nodes)
        {
            registries.put(node.id, ServiceRegistry.start(node.system, node.interconnect, new RegistryConfig()));
        }
        cluster.awaitConnected(WAIT);
    }

    private ServiceRegistry registry(final int node)
    {
        return registries.get(node);
    }

    private ActorId actorOn(final int node)
    {
        return cluster.node(node).system.register((ctx, envelope) -> { });
    }

    private void awaitEverywhere(final ServiceId name, final int count)
    {
        Await.until(() -> registries.values().stream().allMatch(r -> r.lookup(name).size() == count), WAIT,
            "every node sees " + count + " instance(s) of " + name);
    }

    @Test
    void registrationsAndRemovalsConvergeOnEveryNode()
    {
        startAll();
        final ServiceInstance onOne = registry(1).register(ECHO, actorOn(1));
        final ServiceInstance onThree = registry(3).register(ECHO, actorOn(3));
        awaitEverywhere(ECHO, 2);
        assertThat(registry(2).lookup(ECHO)).containsExactlyInAnyOrder(onOne, onThree);
        assertThat(registry(2).lookup(ServiceId.of(3, "echo"))).containsExactly(onThree);
        assertThat(onOne.incarnation()).isEqualTo(cluster.node(1).interconnect.incarnation());
        assertThat(registry(2).pickLocalFirst(ECHO)).as("none on node 2: another node's").isPresent();

        final List<ServiceInstance> many = new ArrayList<>();
        for (int i = 0; i < 500; i++)
        {
            many.add(registry(2).register(ServiceId.of(0, "svc-" + i), actorOn(2)));
        }
        Await.until(() -> registry(1).size() == 502 && registry(3).size() == 502, WAIT, "500 more everywhere");

        registry(1).unregister(ECHO, onOne.actor());
        awaitEverywhere(ECHO, 1);
        assertThat(registry(2).lookup(ECHO)).containsExactly(onThree);
    }

    @Test
    void aSubscriberHearsAnotherNodesInstancesComeAndGoAndANodeThatLeavesTakesItsInstancesDown() throws Exception
    {
        startAll();
        final BlockingQueue<Object> heard = new LinkedBlockingQueue<>();
        final ActorId subscriber = cluster.node(1).system.register((ctx, envelope) -> heard.add(envelope.event()));
        registry(1).subscribe(ECHO, subscriber);

        final ServiceInstance onTwo = registry(2).register(ECHO, actorOn(2));
        assertThat(Await.next(heard, WAIT)).isEqualTo(new ServiceUp(onTwo));
        final ServiceInstance onThree = registry(3).register(ECHO, actorOn(3));
        assertThat(Await.next(heard, WAIT)).isEqualTo(new ServiceUp(onThree));

        final long stoppedAt = System.nanoTime();
        registries.remove(3).close();
        cluster.stop(cluster.node(3));
        assertThat(Await.next(heard, WAIT)).isEqualTo(new ServiceDown(onThree));
        // once node 3 is gone its instances go down within the failure timeout (1 s in TestCluster) at worst; the
        // bound allows for closing node 3 itself and for a slow machine, not for a missed leave
        assertThat(Duration.ofNanos(System.nanoTime() - stoppedAt)).isLessThan(Duration.ofSeconds(10));
        assertThat(registry(1).lookup(ECHO)).containsExactly(onTwo);
        assertThat(registry(2).lookup(ECHO)).containsExactly(onTwo);
    }

    @Test
    void aNodeBackAsANewIncarnationReplacesItsInstancesAndNoneOfTheOldResurface() throws Exception
    {
        startAll();
        final BlockingQueue<Object> heard = new LinkedBlockingQueue<>();
        registry(1).subscribe(ECHO, cluster.node(1).system.register((ctx, envelope) -> heard.add(envelope.event())));
        final ServiceInstance old = registry(3).register(ECHO, actorOn(3));
        registry(3).register(ServiceId.of(0, "only-old"), actorOn(3));
        assertThat(Await.next(heard, WAIT)).isEqualTo(new ServiceUp(old));
        Await.until(() -> registry(2).lookup(ServiceId.of(0, "only-old")).size() == 1, WAIT, "seen at node 2");

        registries.remove(3).close();
        final TestCluster.Node three = cluster.node(3);
        cluster.stop(three);
        assertThat(Await.next(heard, WAIT)).isEqualTo(new ServiceDown(old));
        cluster.start(three, cluster.config(three));
        registries.put(3, ServiceRegistry.start(three.system, three.interconnect, new RegistryConfig()));
        final ServiceInstance fresh = registry(3).register(ECHO, actorOn(3));
        assertThat(fresh.incarnation()).isGreaterThan(old.incarnation());

        assertThat(Await.next(heard, WAIT)).isEqualTo(new ServiceUp(fresh));
        Await.until(() -> registry(2).lookup(ECHO).equals(List.of(fresh)), WAIT, "node 2 holds only the new one");
        assertThat(registry(1).lookup(ECHO)).containsExactly(fresh);
        assertThat(registry(1).lookup(ServiceId.of(0, "only-old"))).isEmpty();
        assertThat(registry(2).lookup(ServiceId.of(0, "only-old"))).isEmpty();
        assertThat(heard.poll(300, TimeUnit.MILLISECONDS)).as("nothing of the old incarnation").isNull();
    }
}
