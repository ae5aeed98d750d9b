package io.troupe.node;

import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import io.troupe.node.counters.CounterRecord;
import io.troupe.node.counters.CountersFileReader;
import io.troupe.node.local.LocalCluster;
import io.troupe.node.local.NodeProcess;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three voters, each a node process of its own, and node 4 in this JVM, which reads the table: the membership
 * outlives a killed follower and a killed leader, and a killed voter restarted on its files catches up — shown by
 * the membership committing a join while the voter is one of the only two left.
 */
@Timeout(240)
class VoterFailoverProcessTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Leader role, as the counter membership_voter_role reads (Aeron Cluster's Cluster.Role code). */
    private static final long LEADER = 2;

    /** Kept when the test fails: the voters' logs ({@code node-<id>.log}) say how each election went. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;
    private LocalCluster cluster;
    private Node four;
    private final Map<Integer, NodeProcess> voters = new HashMap<>();

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

    private Optional<Member> member(final int nodeId)
    {
        return four.membership().members().stream().filter(m -> m.nodeId() == nodeId).findFirst();
    }

    private boolean up(final int nodeId)
    {
        return member(nodeId).map(m -> m.status() == MemberStatus.UP).orElse(false);
    }

    private long role(final int voter)
    {
        try
        {
            for (final CounterRecord record : CountersFileReader.open(cluster.dataDir(voter)).counters())
            {
                if (record.name().equals("membership_voter_role"))
                {
                    return record.value();
                }
            }
        }
        catch (final RuntimeException notYet)
        {
            // the file is not there yet, or is being replaced by a restart
        }
        return -1;
    }

    private int leader()
    {
        Await.until(() -> List.of(1, 2, 3).stream().filter(v -> voters.get(v).isAlive() && role(v) == LEADER)
            .count() == 1, WAIT, "one live voter leads");
        return List.of(1, 2, 3).stream().filter(v -> voters.get(v).isAlive() && role(v) == LEADER).findFirst()
            .orElseThrow();
    }

    /** Kills a voter with -9; the others down it as a member once its lease lapses. */
    private void kill(final int voter)
    {
        final long incarnation = member(voter).orElseThrow().incarnation();
        voters.get(voter).kill();
        Await.until(() -> member(voter).map(m -> m.incarnation() != incarnation).orElse(true), WAIT,
            () -> "voter " + voter + "'s killed incarnation downed: " + four.membership().members());
    }

    /** Restarts a voter on its files: its archive has the log, it catches up and joins as a new incarnation. */
    private void restart(final int voter)
    {
        voters.put(voter, cluster.start(voter));
        Await.until(() -> up(voter), WAIT, () -> "voter " + voter + " up again: " + four.membership().members());
    }

    /** A node with no id joins: the membership commits it, so a majority of voters is working. */
    private int join(final String name)
    {
        final long before = four.membership().members().stream().filter(m -> m.nodeId() >= 1000).count();
        cluster.start(100 + (int)before, LocalCluster.NODE_MAIN,
            List.of("node", "--config", cluster.writeJoinerFile(name).toString()));
        Await.until(() -> four.membership().members().stream().filter(m -> m.nodeId() >= 1000 &&
            m.status() == MemberStatus.UP).count() == before + 1, WAIT,
            () -> name + " joined: " + four.membership().members());
        return four.membership().members().stream().mapToInt(Member::nodeId).max().orElseThrow();
    }

    @Test
    void membershipOutlivesAKilledFollowerAndAKilledLeaderAndARestartedVoterCatchesUp()
    {
        // a lease long enough for an election on a busy 2-core host: node 4 must keep its lease through one; the
        // default heartbeat timeout (2 s), since with 1 s the voters of a loaded host time each other out
        cluster = LocalCluster.withMembership(dir, 4, 3, "troupe.membership { lease = 8s, renew-interval = 1s, " +
            "safety-margin = 1s, heartbeat-timeout = 2s, startup-canvass = 4s }");
        for (int voter = 1; voter <= 3; voter++)
        {
            voters.put(voter, cluster.start(voter));
        }
        four = Node.start(NodeConfigLoader.load(cluster.configFile(4), new Properties()));
        Await.until(() -> up(1) && up(2) && up(3) && up(4), WAIT,
            () -> "all four up: " + four.membership().members());

        final int first = leader();
        final int follower = first == 1 ? 2 : 1;
        kill(follower);
        final int joinedWithAFollowerDown = join("joiner-a");
        restart(follower);

        final int leader = leader();
        kill(leader);
        // the two left are the restarted voter and one other: committing needs both, so the restarted one caught up
        final int joinedWithTheLeaderDown = join("joiner-b");
        assertThat(leader()).as("a new leader").isNotEqualTo(leader);
        restart(leader);

        assertThat(four.failure()).as("node 4 kept its lease throughout").isNull();
        assertThat(four.membership().members()).extracting(Member::nodeId)
            .containsExactly(1, 2, 3, 4, joinedWithAFollowerDown, joinedWithTheLeaderDown);
        assertThat(four.membership().members()).extracting(Member::status).containsOnly(MemberStatus.UP);
    }
}
