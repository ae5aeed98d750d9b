package io.troupe.interconnect;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.ServiceId;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Forward-on-nondelivery across nodes: the forward target travels with the event, so the node where the
 * recipient turns out to be gone forwards it on (to any node), and when the target is gone too, the original
 * sender hears of it, naming the target. Three nodes in one JVM over real Aeron UDP on 127.0.0.1.
 */
@Timeout(60)
class ForwardAcrossNodesTest
{
    private static final Duration CONNECT = Duration.ofSeconds(10);
    private static final int TRACKED_FORWARDED = Envelope.FLAG_TRACK_DELIVERY | Envelope.FLAG_FORWARD_ON_NONDELIVERY;

    private TestCluster cluster;
    private TestCluster.Node one;
    private TestCluster.Node two;
    private TestCluster.Node three;
    private final BlockingQueue<Envelope> atOne = new LinkedBlockingQueue<>();
    private ActorId probe;

    @BeforeEach
    void startThreeNodes()
    {
        cluster = TestCluster.of(3).startAll();
        cluster.awaitConnected(CONNECT);
        one = cluster.node(1);
        two = cluster.node(2);
        three = cluster.node(3);
        probe = recorder(one, atOne);
    }

    @AfterEach
    void tearDown()
    {
        cluster.close();
    }

    private static ActorId recorder(final TestCluster.Node node, final BlockingQueue<Envelope> log)
    {
        return node.system.register((ctx, envelope) -> log.add(envelope));
    }

    private static Envelope next(final BlockingQueue<Envelope> queue) throws InterruptedException
    {
        final Envelope envelope = queue.poll(10, TimeUnit.SECONDS);
        assertThat(envelope).as("an event arrived in time").isNotNull();
        return envelope;
    }

    /** An actor id on {@code node} that nobody has. */
    private static ActorId nobodyOn(final int node)
    {
        return ActorId.of(node, 987_654_321L, 4_000);
    }

    @Test
    void anEventForAGoneActorIsForwardedToItsTargetOnAThirdNode() throws Exception
    {
        final BlockingQueue<Envelope> atThree = new LinkedBlockingQueue<>();
        final ActorId target = recorder(three, atThree);

        ActorSystemSpi.of(one.system).send(
            new Envelope(nobodyOn(2), probe, TestCluster.TEXT, TRACKED_FORWARDED, 11L, "to 2, else 3",
            target));

        final Envelope arrived = next(atThree);
        assertThat(arrived.event()).isEqualTo("to 2, else 3");
        assertThat(arrived.sender()).as("still the original sender").isEqualTo(probe);
        assertThat(arrived.cookie()).isEqualTo(11L);
        assertThat(arrived.recipient()).isEqualTo(target);
        assertThat(two.system.counters().forwarded()).as("node 2 forwarded it").isEqualTo(1);
        assertThat(atOne.poll(300, TimeUnit.MILLISECONDS)).as("delivered: the sender hears nothing").isNull();
    }

    @Test
    void whenTheTargetIsGoneTooTheSenderHearsOfItOnceNamingTheTarget() throws Exception
    {
        final ActorId target = nobodyOn(3);

        ActorSystemSpi.of(one.system).send(
            new Envelope(nobodyOn(2), probe, TestCluster.TEXT, TRACKED_FORWARDED, 12L, "lost twice",
            target));

        final Envelope notice = next(atOne);
        assertThat(notice.event()).isEqualTo(
            new Undelivered(target, TestCluster.TEXT, 12L, UndeliveredReason.ACTOR_UNKNOWN, false));
        assertThat(notice.sender()).isEqualTo(target);
        assertThat(two.system.counters().forwarded()).isEqualTo(1);
        assertThat(three.system.counters().forwarded()).as("a target does not forward again").isZero();
        assertThat(atOne.poll(300, TimeUnit.MILLISECONDS)).as("one notice").isNull();
    }

    @Test
    void aTargetThatSaysThisNodeMeansTheSendersNodeForActorsAndServices() throws Exception
    {
        final BlockingQueue<Envelope> backupLog = new LinkedBlockingQueue<>();
        final ActorId backup = recorder(one, backupLog);
        one.system.registerService(ServiceId.of(0, "backup"), backup);

        ActorSystemSpi.of(one.system).send(
            new Envelope(nobodyOn(2), probe, TestCluster.TEXT, TRACKED_FORWARDED, 13L, "home actor",
            backup.onNode(0)));
        ActorSystemSpi.of(one.system).send(
            new Envelope(nobodyOn(2), probe, TestCluster.TEXT, TRACKED_FORWARDED, 14L, "home service",
            ServiceId.of(0, "backup")));

        assertThat(next(backupLog).event()).isEqualTo("home actor");
        assertThat(next(backupLog).event()).isEqualTo("home service");
        assertThat(atOne.poll(300, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void anUntrackedEventWhoseTargetIsGoneIsDroppedAndCountedWhereItEnds() throws Exception
    {
        final long droppedBefore = three.system.counters().dropped();

        ActorSystemSpi.of(one.system).send(
            new Envelope(nobodyOn(2), probe, TestCluster.TEXT, Envelope.FLAG_FORWARD_ON_NONDELIVERY, 15L,
            "untracked", nobodyOn(3)));

        Await.until(() -> three.system.counters().dropped() == droppedBefore + 1, CONNECT,
            "node 3 drops and counts it");
        assertThat(atOne.poll(300, TimeUnit.MILLISECONDS)).as("nobody asked to hear of it").isNull();
    }

    @Test
    void aTargetOnANodeThatIsDownComesBackAsDisconnected() throws Exception
    {
        final ActorId target = recorder(three, new LinkedBlockingQueue<>());
        cluster.stop(three);
        Await.until(() -> !two.interconnect.isConnected(3), CONNECT, "node 2 sees node 3 leave");

        ActorSystemSpi.of(one.system).send(
            new Envelope(nobodyOn(2), probe, TestCluster.TEXT, TRACKED_FORWARDED, 16L, "to a down node",
            target));

        final Undelivered notice = (Undelivered)next(atOne).event();
        assertThat(notice.recipient()).isEqualTo(target);
        assertThat(notice.reason()).isEqualTo(UndeliveredReason.DISCONNECTED);
        assertThat(notice.cookie()).isEqualTo(16L);
    }
}
