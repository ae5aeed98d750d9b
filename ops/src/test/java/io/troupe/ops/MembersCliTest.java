package io.troupe.ops;

import io.troupe.membership.table.MemberStatus;
import io.troupe.node.Node;
import io.troupe.node.local.LocalCluster;
import io.troupe.node.local.LocalNodes;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.troupe.ops.TroupeCliTest.troupe;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code troupe members}, {@code down} and {@code leave} against nodes of a membership in this JVM. */
@Timeout(120)
class MembersCliTest
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

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> members(final TroupeCliTest.Run run)
    {
        return (List<Map<String, Object>>)run.json().get("members");
    }

    @SuppressWarnings("unchecked")
    private static long counter(final String dataDir, final String name)
    {
        final TroupeCliTest.Run run = troupe("counters", "--json", "--data-dir", dataDir);
        for (final Map<String, Object> record : (List<Map<String, Object>>)run.json().get("counters"))
        {
            if (name.equals(record.get("name")))
            {
                return ((Number)record.get("value")).longValue();
            }
        }
        return -100;
    }

    @Test
    void membersShowsTheTableDownRemovesAMemberAndLeaveStopsTheNodeGracefully()
    {
        final LocalCluster cluster = LocalCluster.withMembership(dir, 3, 1);
        final Node one = start(cluster, 1);
        start(cluster, 2);
        final Node three = start(cluster, 3);
        final String dataDir = cluster.dataDir(1).toString();
        Await.until(() -> one.membership().members().stream().filter(m -> m.status() == MemberStatus.UP).count() == 3,
            WAIT, () -> "three members up: " + one.membership().members());

        final TroupeCliTest.Run json = troupe("members", "--json", "--data-dir", dataDir);
        assertThat(json.code()).as(json.err()).isZero();
        assertThat(json.json()).containsEntry("voter", true).containsEntry("role", "LEADER");
        assertThat(members(json)).extracting(m -> m.get("nodeId")).containsExactly(1L, 2L, 3L);
        assertThat(members(json)).extracting(m -> m.get("status")).containsOnly("UP");
        final TroupeCliTest.Run table = troupe("members", "--data-dir", dataDir);
        assertThat(table.out()).contains("node 1: epoch", "3 members; a voter, LEADER", "NODE", "127.0.0.1:");

        Await.until(() -> counter(dataDir, "membership_members") == 3 && counter(dataDir, "membership_voter_role") == 2,
            WAIT, "the counters file has the membership's figures");
        assertThat(counter(dataDir, "membership_joins")).isEqualTo(3);
        Await.until(() -> troupe("status", "--check", "--data-dir", dataDir).code() == TroupeCli.OK, WAIT,
            "node 1 ready as a member");

        final TroupeCliTest.Run down = troupe("down", "3", "--data-dir", dataDir);
        assertThat(down.code()).as(down.err()).isZero();
        assertThat(down.out()).contains("node 3 downed");
        Await.until(three::isClosed, WAIT, "node 3, downed, stopped itself");
        final TroupeCliTest.Run status = troupe("status", "--data-dir", dataDir);
        assertThat(status.out()).as("one member gone takes no other out of service").containsPattern("ready\\s+yes");
        assertThat(troupe("status", "--json", "--data-dir", dataDir).json().get("readiness"))
            .asString().startsWith("ready: a member (UP)");
        assertThat(troupe("status", "--check", "--data-dir", dataDir).code()).isEqualTo(TroupeCli.OK);
        assertThat(three.failure()).contains("downed");
        assertThat(troupe("down", "3", "--data-dir", dataDir).err()).contains("node 1 says:");

        final TroupeCliTest.Run leave = troupe("leave", "--data-dir", cluster.dataDir(2).toString());
        assertThat(leave.code()).as(leave.err()).isZero();
        assertThat(leave.out()).contains("leaving: recorded as LEAVING", "stopped: drained");
        Await.until(() -> one.membership().members().size() == 1, WAIT, () -> "only node 1 left: " +
            one.membership().members());
    }
}
