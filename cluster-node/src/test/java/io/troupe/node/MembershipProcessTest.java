package io.troupe.node;

import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import io.troupe.node.local.LocalCluster;
import io.troupe.node.local.NodeProcess;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The membership with real node processes: node 1 (the voter) runs in this JVM, so the test reads its table; the
 * others are processes of their own, killed with -9 and restarted as a restart would be.
 */
@Timeout(180)
class MembershipProcessTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration LEASE = Duration.ofSeconds(3);

    @TempDir
    Path dir;
    private LocalCluster cluster;
    private Node one;

    @AfterEach
    void tearDown()
    {
        if (one != null)
        {
            one.close(Duration.ZERO);
        }
        if (cluster != null)
        {
            cluster.close();
        }
    }

    private Optional<Member> member(final int nodeId)
    {
        return one.membership().members().stream().filter(m -> m.nodeId() == nodeId).findFirst();
    }

    @Test
    void aKilledNodeIsDownedWithinItsLeaseAndItsRestartJoinsAsANewIncarnation() throws Exception
    {
        cluster = LocalCluster.withMembership(dir, 3, 1, "troupe.membership { lease = 3s, renew-interval = 500ms, " +
            "safety-margin = 500ms, heartbeat-timeout = 1s, startup-canvass = 2s }");
        one = Node.start(NodeConfigLoader.load(cluster.configFile(1), new Properties()));
        cluster.start(2);
        final NodeProcess three = cluster.start(3);
        Await.until(() -> member(2).map(m -> m.status() == MemberStatus.UP).orElse(false) &&
            member(3).map(m -> m.status() == MemberStatus.UP).orElse(false), WAIT,
            () -> "nodes 2 and 3 up: " + one.membership().members());
        Await.until(() -> one.interconnect().isConnected(3), WAIT, "node 1 connected to node 3");
        final long firstIncarnation = member(3).orElseThrow().incarnation();

        final long killedAt = System.nanoTime();
        three.kill();
        Await.until(() -> member(3).isEmpty(), WAIT, "node 3 downed");
        final Duration downedAfter = Duration.ofNanos(System.nanoTime() - killedAt);
        assertThat(downedAfter).as("downed after the lease, within the lease and a second")
            .isLessThanOrEqualTo(LEASE.plusSeconds(1)).isGreaterThanOrEqualTo(LEASE.minusMillis(600));
        Await.until(() -> !one.interconnect().isConnected(3), WAIT, "node 1's session to node 3 ended");

        cluster.start(3);
        Await.until(() -> member(3).map(m -> m.status() == MemberStatus.UP).orElse(false), WAIT,
            () -> "node 3 back up: " + one.membership().members());
        assertThat(member(3).orElseThrow().incarnation()).isGreaterThan(firstIncarnation);
        Await.until(() -> one.interconnect().isConnected(3), WAIT, "node 1 connected to node 3's new incarnation");
        assertThat(member(2).orElseThrow().status()).isEqualTo(MemberStatus.UP);
        assertThat(one.failure()).isNull();
    }

    @Test
    void aNodeCutOffFromTheVotersStopsItselfBeforeItsLeaseCouldLapseOnTheirSide() throws Exception
    {
        cluster = LocalCluster.withMembership(dir, 2, 1, "troupe.membership { lease = 3s, renew-interval = 500ms, " +
            "safety-margin = 500ms, heartbeat-timeout = 1s, startup-canvass = 2s }");
        final NodeProcess voter = cluster.start(1);
        final Node two = Node.start(NodeConfigLoader.load(cluster.configFile(2), new Properties()));
        one = two; // closed after the test
        Await.until(() -> two.membership().members().stream().anyMatch(m -> m.nodeId() == 2 &&
            m.status() == MemberStatus.UP), WAIT, () -> "node 2 up: " + two.membership().members());

        final long cutAt = System.nanoTime();
        voter.kill(); // node 2 can renew nowhere: as on the minority side of a partition
        Await.until(() -> two.failure() != null, WAIT, "node 2 gave up its membership");
        final Duration stoppedAfter = Duration.ofNanos(System.nanoTime() - cutAt);
        assertThat(two.failure()).contains("could not renew its membership lease in time");
        // its deadline: the lease less the margin after sending its last renewal that was accepted (at most a
        // renewal interval before the cut), so 2.5 s after the cut at the latest
        assertThat(stoppedAfter).as("stopped before the lease could lapse on the voters' side")
            .isLessThan(LEASE);
        Await.until(two::isClosed, WAIT, "node 2 stopped itself");
    }
}
