package io.troupe.node;

import io.troupe.membership.Membership;
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
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A member on the minority side, with real processes: node 2 runs in this JVM, its one voter is a process of its own,
 * killed with -9 as a partition would cut it off. (A killed member downed by the voters, and its restart, are in
 * {@link MembershipTrafficProcessTest}.)
 */
@Timeout(180)
class MembershipProcessTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration LEASE = Duration.ofSeconds(3);

    @TempDir
    Path dir;
    private LocalCluster cluster;
    private Node two;

    @AfterEach
    void tearDown()
    {
        if (two != null)
        {
            two.close(Duration.ZERO);
        }
        if (cluster != null)
        {
            cluster.close();
        }
    }

    @Test
    void aNodeCutOffFromTheVotersStopsItselfBeforeItsLeaseCouldLapseOnTheirSide() throws Exception
    {
        cluster = LocalCluster.withMembership(dir, 2, 1, "troupe.membership { lease = 3s, renew-interval = 500ms, " +
            "safety-margin = 500ms, heartbeat-timeout = 1s, startup-canvass = 2s }");
        final NodeProcess voter = cluster.start(1);
        two = Node.start(NodeConfigLoader.load(cluster.configFile(2), new Properties()));
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

        // the killed voter left its membership's media driver directory; the cluster's close removes it
        final Path membershipAeronDir = Path.of(Membership.aeronDirBeside(cluster.aeronDir(1).toString()));
        assertThat(membershipAeronDir).isDirectory();
        cluster.close();
        assertThat(membershipAeronDir).doesNotExist();
        assertThat(cluster.aeronDir(1)).doesNotExist();
    }
}
