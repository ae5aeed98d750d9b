package io.troupe.node;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.Undelivered;
import io.troupe.membership.MemberDowned;
import io.troupe.membership.MemberLeft;
import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import io.troupe.node.local.LocalCluster;
import io.troupe.node.local.NodeProcess;
import io.troupe.testing.Await;
import io.troupe.testing.DeliveryLedger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three voters and two more members with traffic flowing: node 4 runs in this JVM and sends a tracked event every
 * 10 ms to the {@link LedgerReceiverSetup} receiver of every other member that is up, addressed to the incarnation
 * its table lists; the other nodes are processes of their own, whose receivers write down what they were handed.
 * Node 5 is killed and restarted, and a sixth node joins, leaves and joins again, all on the one cluster (a cluster
 * of five processes takes a while to start).
 * At the end every event sent is delivered exactly once or reported {@link Undelivered} (delivered as well only if
 * the notice says it is unsure), and none reached an incarnation it was not addressed to.
 */
@Timeout(300)
class MembershipTrafficProcessTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Long enough for an election on a loaded 2-core host: heartbeat timeout 2 s + renewal 1 s + margin 1 s + 4 s. */
    private static final Duration LEASE = Duration.ofSeconds(8);
    private static final Duration RENEW = Duration.ofSeconds(1);
    private static final Duration TICK = Duration.ofMillis(10);
    private static final int SENDER_NODE = 4;
    /** Deliveries to a node that show traffic reaches it. */
    private static final int FLOWING = 30;

    /** Kept when the test fails: the node processes' logs ({@code node-<id>.log}) say why. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;
    private LocalCluster cluster;
    private Node four;
    private final Map<Long, Integer> sentTo = new ConcurrentHashMap<>();
    private final Queue<Notice> notices = new ConcurrentLinkedQueue<>();
    private final Queue<Object> changes = new ConcurrentLinkedQueue<>();
    private final List<Path> dataDirs = new ArrayList<>();
    private final Map<Path, Integer> nodeOfDir = new ConcurrentHashMap<>();
    private final Map<Integer, NodeProcess> processes = new ConcurrentHashMap<>();
    private volatile boolean sending = true;

    private record Notice(long cookie, boolean unsure, Object reason)
    {
    }

    @AfterEach
    void tearDown()
    {
        if (four != null)
        {
            four.close(Duration.ZERO);
        }
        if (cluster != null)
        {
            cluster.close();
        }
    }

    /** Node 4's sender: on each tick, one tracked event to the receiver of every other member up. */
    private final class Sender implements Behavior
    {
        private long seq;

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            if (envelope.event() instanceof Undelivered notice)
            {
                notices.add(new Notice(envelope.cookie(), notice.unsure(), notice.reason()));
            }
            else if ("tick".equals(envelope.event()) && sending)
            {
                for (final Member member : four.membership().members())
                {
                    if (member.nodeId() != SENDER_NODE && member.status() == MemberStatus.UP)
                    {
                        final long cookie = seq++;
                        sentTo.put(cookie, member.nodeId());
                        ctx.send(LedgerReceiverSetup.RECEIVER.onNode(member.nodeId()),
                            new TestEvents.Note(cookie + "/" + member.incarnation()), TestEvents.NOTE,
                            Envelope.FLAG_TRACK_DELIVERY, cookie);
                    }
                }
                ctx.schedule(TICK, "tick");
            }
        }
    }

    /** Starts voters 1-3 and node 5 as processes and node 4 here, and the traffic once all five are up. */
    private void startFiveWithTraffic()
    {
        cluster = LocalCluster.withMembership(dir, 5, 3, "troupe.membership { lease = " + LEASE.toSeconds() +
            "s, renew-interval = " + RENEW.toSeconds() + "s, safety-margin = 1s, heartbeat-timeout = 2s, " +
            "startup-canvass = 4s }",
            "troupe.application.setup = [\"" + LedgerReceiverSetup.class.getName() + "\"]");
        for (final int id : new int[] {1, 2, 3, 5})
        {
            processes.put(id, cluster.start(id));
            watch(cluster.dataDir(id), id);
        }
        four = Node.start(NodeConfigLoader.load(cluster.configFile(SENDER_NODE), new Properties()),
            TestEvents.NOTE_CODEC);
        Await.until(() -> IntStream.rangeClosed(1, 5).allMatch(this::up), WAIT,
            () -> "all five up: " + four.membership().members());
        four.membership().subscribe(four.system().register((ctx, envelope) -> changes.add(envelope.event())));
        final ActorId sender = four.system().register(new Sender());
        four.system().send(sender, "tick");
        for (final int id : new int[] {1, 2, 3, 5})
        {
            awaitFlowing(id, member(id).orElseThrow().incarnation());
        }
    }

    private void watch(final Path dataDir, final int nodeId)
    {
        dataDirs.add(dataDir);
        nodeOfDir.put(dataDir, nodeId);
    }

    private Optional<Member> member(final int nodeId)
    {
        return four.membership().members().stream().filter(m -> m.nodeId() == nodeId).findFirst();
    }

    private boolean up(final int nodeId)
    {
        return member(nodeId).map(m -> m.status() == MemberStatus.UP).orElse(false);
    }

    private void awaitFlowing(final int nodeId, final long incarnation)
    {
        final Path dataDir = dataDirs.stream().filter(d -> nodeOfDir.get(d) == nodeId).reduce((a, b) -> b)
            .orElseThrow();
        Await.until(() -> LedgerReceiverSetup.read(dataDir).stream().filter(d -> d.receiver() == incarnation)
            .count() >= FLOWING, WAIT, () -> "traffic reaches node " + nodeId + " (incarnation " + incarnation + ")");
    }

    /** A joiner process with no node id: its port, once in the table, tells which member it is. */
    private record Joiner(Path config, int port)
    {
    }

    private Joiner joiner(final String name)
    {
        final Path config = cluster.writeJoinerFile(name);
        return new Joiner(config, NodeConfigLoader.load(config, new Properties()).interconnectConfig().bindPort());
    }

    private NodeProcess start(final Joiner joiner)
    {
        return cluster.start(6, LocalCluster.NODE_MAIN, List.of("node", "--config", joiner.config().toString()));
    }

    private Member awaitUp(final Joiner joiner, final long afterIncarnation)
    {
        Await.until(() -> four.membership().members().stream().anyMatch(m -> m.port() == joiner.port() &&
            m.status() == MemberStatus.UP && m.incarnation() > afterIncarnation), WAIT,
            () -> "the joiner on port " + joiner.port() + " up: " + four.membership().members());
        return four.membership().members().stream().filter(m -> m.port() == joiner.port()).findFirst().orElseThrow();
    }

    /** Stops the traffic, waits until every event sent has an outcome, and checks the ledger. */
    private DeliveryLedger stopAndSettle()
    {
        sending = false;
        Await.until(() -> ledger().allAccountedFor(), WAIT, () -> "every event sent accounted for: " + ledger());
        final DeliveryLedger ledger = ledger();
        ledger.assertExactlyOnce();
        for (final Path dataDir : dataDirs)
        {
            for (final LedgerReceiverSetup.Delivery delivery : LedgerReceiverSetup.read(dataDir))
            {
                assertThat(delivery.addressed()).as("event %d, addressed to incarnation %d of node %d",
                    delivery.seq(), delivery.addressed(), nodeOfDir.get(dataDir))
                    .isEqualTo(delivery.receiver());
                assertThat(sentTo.get(delivery.seq())).as("event %d's node", delivery.seq())
                    .isEqualTo(nodeOfDir.get(dataDir));
            }
        }
        return ledger;
    }

    /** The ledger as the files and notices tell it now. */
    private DeliveryLedger ledger()
    {
        final DeliveryLedger ledger = new DeliveryLedger();
        sentTo.keySet().forEach(ledger::sent);
        for (final Path dataDir : dataDirs)
        {
            LedgerReceiverSetup.read(dataDir).forEach(delivery -> ledger.delivered(delivery.seq()));
        }
        notices.forEach(notice -> ledger.undelivered(notice.cookie(), notice.unsure(), notice.reason()));
        return ledger;
    }

    @Test
    void membersAreDownedJoinAndLeaveWithTrafficFlowingAndEveryEventSentEndsOnce() throws Exception
    {
        startFiveWithTraffic();
        killAndRestartTheFifth();
        aSixthJoinsLeavesGracefullyAndJoinsAgain();

        final DeliveryLedger ledger = stopAndSettle();
        assertThat(ledger.deliveredCount()).isPositive();
        assertThat(notices).as("the events in flight to the killed incarnation, reported").isNotEmpty();
        assertThat(IntStream.rangeClosed(1, 5).allMatch(this::up)).as("the first five up").isTrue();
        assertThat(four.failure()).isNull();
    }

    /** Node 5 killed: downed after its lease (not before), its session ended, its restart a new incarnation. */
    private void killAndRestartTheFifth()
    {
        final long firstIncarnation = member(5).orElseThrow().incarnation();
        final long killedAt = System.nanoTime();
        processes.get(5).kill();
        Await.until(() -> member(5).isEmpty(), WAIT, "node 5 downed");
        final Duration downedAfter = Duration.ofNanos(System.nanoTime() - killedAt);
        // its lease ran from its last renewal, at most a renewal interval before the kill
        assertThat(downedAfter).as("downed when its lease lapsed: within the lease and a second, not before")
            .isLessThanOrEqualTo(LEASE.plusSeconds(1)).isGreaterThanOrEqualTo(LEASE.minus(RENEW).minusMillis(100));
        Await.until(() -> changes.stream().anyMatch(change -> change instanceof MemberDowned downed &&
            downed.member().nodeId() == 5 && downed.member().incarnation() == firstIncarnation), WAIT,
            () -> "node 4's subscriber told node 5 was downed: " + changes);
        Await.until(() -> !four.interconnect().isConnected(5), WAIT, "node 4's session to node 5 ended");

        processes.put(5, cluster.start(5));
        Await.until(() -> member(5).map(m -> m.status() == MemberStatus.UP && m.incarnation() > firstIncarnation)
            .orElse(false), WAIT, () -> "node 5 back as a new incarnation: " + four.membership().members());
        awaitFlowing(5, member(5).orElseThrow().incarnation());
    }

    /** A joiner with no id: joins, leaves on SIGTERM before any lease could lapse, and joins again. */
    private void aSixthJoinsLeavesGracefullyAndJoinsAgain() throws InterruptedException
    {
        final Joiner sixth = joiner("sixth");
        NodeProcess process = start(sixth);
        final Member first = awaitUp(sixth, 0);
        watch(dir.resolve("data").resolve("sixth"), first.nodeId());
        awaitFlowing(first.nodeId(), first.incarnation());

        final long leaveAt = System.nanoTime();
        process.terminate();
        Await.until(() -> member(first.nodeId()).isEmpty(), WAIT, "the sixth node gone from node 4's table");
        assertThat(Duration.ofNanos(System.nanoTime() - leaveAt)).as("gone well before a lease could lapse")
            .isLessThan(LEASE);
        // the subscriber hears it after the table changed
        Await.until(() -> changes.stream().anyMatch(change -> change instanceof MemberLeft left &&
            left.member().nodeId() == first.nodeId() && left.member().incarnation() == first.incarnation()), WAIT,
            () -> "node 4's subscriber told the sixth node left: " + changes);
        assertThat(changes).as("left, not downed").noneMatch(change -> change instanceof MemberDowned downed &&
            downed.member().nodeId() == first.nodeId());
        assertThat(process.awaitExit(WAIT)).as("the sixth node's exit code after leaving; log:%n%s",
            process.logTail(10)).isZero();

        process = start(sixth);
        final Member second = awaitUp(sixth, first.incarnation());
        assertThat(second.nodeId()).as("the same id, asked for again").isEqualTo(first.nodeId());
        awaitFlowing(second.nodeId(), second.incarnation());
    }
}
