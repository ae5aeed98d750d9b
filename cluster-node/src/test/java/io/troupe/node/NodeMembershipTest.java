package io.troupe.node;

import io.troupe.actor.ActorId;
import io.troupe.membership.MemberLeft;
import io.troupe.membership.MemberUp;
import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import io.troupe.node.local.LocalCluster;
import io.troupe.node.local.LocalNodes;
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

import static org.assertj.core.api.Assertions.assertThat;

/** Nodes whose peers are the membership's members: real nodes in this JVM, one of them the voter. */
@Timeout(180)
class NodeMembershipTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;
    private final LocalNodes nodes = new LocalNodes();

    @AfterEach
    void tearDown()
    {
        nodes.close();
    }

    private Node start(final LocalCluster cluster, final int nodeId)
    {
        return nodes.start(cluster, nodeId);
    }

    private static boolean upIn(final Node node, final int memberId)
    {
        return node.membership().members().stream()
            .anyMatch(m -> m.nodeId() == memberId && m.status() == MemberStatus.UP);
    }

    @Test
    void nodesThatKnowOnlyTheVoterJoinTalkToEachOtherAndAGracefulLeaveRemovesThePeer()
    {
        final LocalCluster cluster = LocalCluster.withMembership(dir, 3, 1);
        final Node one = start(cluster, 1);
        final Node two = start(cluster, 2);
        final Node three = start(cluster, 3);
        assertThat(one.membership().isVoter()).isTrue();
        assertThat(two.membership().isVoter()).isFalse();
        for (final Node node : List.of(one, two, three))
        {
            Await.until(() -> upIn(node, 1) && upIn(node, 2) && upIn(node, 3), WAIT,
                () -> "node " + node.nodeId() + " sees all three up: " + node.membership().members());
        }
        for (final Node node : List.of(one, two, three))
        {
            for (final int peer : new int[] {1, 2, 3})
            {
                if (peer != node.nodeId())
                {
                    Await.until(() -> node.interconnect().isConnected(peer), WAIT,
                        "node " + node.nodeId() + " connected to node " + peer + " with no peer configured");
                }
            }
        }

        final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        final ActorId watcher = one.system().register((ctx, envelope) -> events.add(envelope.event()));
        one.membership().subscribe(watcher);
        final List<Integer> upAtOnce = new ArrayList<>();
        for (int i = 0; i < 3; i++)
        {
            upAtOnce.add(((MemberUp)Await.next(events)).member().nodeId());
        }
        assertThat(upAtOnce).as("a new subscriber hears of every member up").containsExactlyInAnyOrder(1, 2, 3);

        nodes.remove(three);
        three.close();
        final MemberLeft left = (MemberLeft)Await.next(events);
        assertThat(left.member().nodeId()).isEqualTo(3);
        assertThat(left.member().status()).isEqualTo(MemberStatus.LEFT);
        for (final Node node : List.of(one, two))
        {
            Await.until(() -> node.membership().members().stream().noneMatch(m -> m.nodeId() == 3), WAIT,
                "node " + node.nodeId() + " no longer has node 3 as a member");
            Await.until(() -> node.interconnect().peerCounters().stream().noneMatch(p -> p.nodeId() == 3), WAIT,
                "node 3 no longer a peer of node " + node.nodeId());
        }
        assertThat(one.membership().members()).extracting(Member::nodeId).containsExactly(1, 2);
        assertThat(one.failure()).isNull();
    }

    @Test
    void anApplicationSubscribesToMemberEventsAsItSetsUpAndHearsItsNodeComeUp()
    {
        final LocalCluster cluster = LocalCluster.withMembership(dir, 1, 1);
        final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        final List<MemberStatus> whileSettingUp = new ArrayList<>();
        try (Node one = Node.start(NodeConfigLoader.load(cluster.configFile(1), new Properties()), system -> { },
            node ->
            {
                whileSettingUp.add(node.membership().members().get(0).status());
                node.membership().subscribe(node.system().register((ctx, envelope) -> events.add(envelope.event())));
            }))
        {
            assertThat(whileSettingUp).as("a member not yet serving while its application sets up")
                .containsExactly(MemberStatus.JOINING);
            final MemberUp up = (MemberUp)Await.next(events);
            assertThat(up.member().nodeId()).isEqualTo(one.nodeId());
        }
    }

    @Test
    void aNodeWithoutAnIdIsAssignedOneAndAsksForItAgainWhenItRestarts()
    {
        final LocalCluster cluster = LocalCluster.withMembership(dir, 1, 1);
        final Node one = start(cluster, 1);
        final Path joinerFile = cluster.writeJoinerFile("joiner");
        final NodeConfig joinerConfig = NodeConfigLoader.load(joinerFile, new Properties());
        assertThat(joinerConfig.idAssigned()).isTrue();

        final Node joiner = nodes.start(joinerFile, system -> { });
        final int assigned = joiner.nodeId();
        assertThat(assigned).as("the first id the membership hands out").isEqualTo(1000);
        final long firstIncarnation = joiner.identity().incarnation();
        Await.until(() -> upIn(one, assigned) && one.interconnect().isConnected(assigned), WAIT,
            () -> "node 1 sees the joiner up and is connected to it: " + one.membership().members());
        assertThat(NodeIdentity.read(joinerConfig.dataDir()).nodeId()).as("kept for the next start")
            .isEqualTo(assigned);

        nodes.remove(joiner);
        joiner.close();
        Await.until(() -> one.membership().members().stream().noneMatch(m -> m.nodeId() == assigned), WAIT,
            () -> "the joiner left: " + one.membership().members());

        final Node again = nodes.start(joinerFile, system -> { });
        assertThat(again.nodeId()).as("the same id, asked for again").isEqualTo(assigned);
        assertThat(again.identity().incarnation()).isGreaterThan(firstIncarnation);
        Await.until(() -> one.membership().members().stream().anyMatch(m -> m.nodeId() == assigned &&
            m.incarnation() == again.identity().incarnation() && m.status() == MemberStatus.UP), WAIT,
            () -> "node 1 sees the new incarnation up: " + one.membership().members());
        Await.until(() -> one.interconnect().isConnected(assigned), WAIT, "node 1 connected to the restarted joiner");
    }
}
