package io.troupe.node;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;
import io.troupe.node.local.LocalCluster;
import io.troupe.node.local.NodeProcess;
import io.troupe.registry.ServiceDown;
import io.troupe.registry.ServiceUp;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A peer killed with {@code kill -9} (no goodbye): its instances go down on the other nodes within the failure
 * detection time, and a subscriber hears each go.
 */
@Timeout(120)
class RegistryPeerKilledTest
{
    private static final Duration STARTUP = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private final List<Node> nodes = new ArrayList<>();

    @AfterEach
    void tearDown()
    {
        nodes.forEach(Node::close);
    }

    @Test
    void theInstancesOfAKilledPeerGoDownWithinTheFailureTimeout() throws Exception
    {
        try (LocalCluster cluster = LocalCluster.create(dir, 3))
        {
            final Node one = Node.start(NodeConfigLoader.load(cluster.configFile(1), new Properties()));
            nodes.add(one);
            final Node two = Node.start(NodeConfigLoader.load(cluster.configFile(2), new Properties()));
            nodes.add(two);
            final NodeProcess three = cluster.start(3, RegisteringNodeMain.class.getName(),
                List.of(cluster.configFile(3).toString()));
            final ServiceId first = ServiceId.of(0, "reg-0");
            Await.until(() -> !one.registry().lookup(first).isEmpty() && !two.registry().lookup(first).isEmpty(),
                STARTUP, () -> "node 3's registrations seen on nodes 1 and 2; its log:\n" + three.logTail(20));
            final BlockingQueue<Object> heard = new LinkedBlockingQueue<>();
            final ActorId subscriber = one.system().register((ctx, envelope) -> heard.add(envelope.event()));
            one.registry().subscribe(first, subscriber);
            assertThat(heard.poll(10, TimeUnit.SECONDS)).isInstanceOf(ServiceUp.class);

            final long killedAt = System.nanoTime();
            three.kill();
            final Object down = heard.poll(10, TimeUnit.SECONDS);
            final Duration after = Duration.ofNanos(System.nanoTime() - killedAt);
            assertThat(down).isInstanceOf(ServiceDown.class);
            assertThat(((ServiceDown)down).instance().nodeId()).isEqualTo(3);
            // the failure timeout (1.5 s by default), plus what a loaded 2-core machine adds to the agents' cycles
            assertThat(after).as("down after about the failure detection time").isLessThan(Duration.ofSeconds(6));
            Await.until(() -> two.registry().lookup(first).isEmpty(), "gone at node 2 too");
            assertThat(one.registry().lookup(ServiceId.of(3, "reg-1"))).isEmpty();
        }
    }
}
