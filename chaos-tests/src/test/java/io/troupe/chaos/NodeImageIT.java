package io.troupe.chaos;

import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The node image ({@code ./troupe image}) as an operator uses it: two containers form a cluster on their own
 * network, the {@code troupe} CLI inside a container answers from the node's files, and a {@code drain} over the
 * control socket stops a node.
 */
@Timeout(value = 180)
class NodeImageIT
{
    @TempDir
    static Path ledgers;

    private static ChaosCluster cluster;

    @BeforeAll
    static void startTwoNodes()
    {
        cluster = new ChaosCluster(77, 2, ledgers.resolve("pair"), 0);
        cluster.start();
    }

    @AfterAll
    static void removeThem()
    {
        if (cluster != null)
        {
            cluster.close();
        }
    }

    @Test
    void statusInsideTheContainerSaysTheNodeIsReadyWithItsPeerUp()
    {
        Await.until(() -> cluster.cli(1, "status", "--check").getExitCode() == 0, Duration.ofSeconds(30),
            "node 1's troupe status --check to pass");
        final Map<String, Object> status = cluster.cliJson(1, "status");
        assertThat(status).containsEntry("nodeId", 1L).containsEntry("clusterId", "chaos")
            .containsEntry("state", "running").containsEntry("ready", true);
        @SuppressWarnings("unchecked")
        final Map<String, Object> peers = (Map<String, Object>)status.get("peers");
        assertThat(peers).containsEntry("total", 1L).containsEntry("up", 1L);
        @SuppressWarnings("unchecked")
        final Map<String, Object> quota = (Map<String, Object>)status.get("memquota");
        assertThat(quota).as("no quota configured").containsEntry("maxBytes", 0L);

        final ExecResult table = cluster.cli(2, "status");
        assertThat(table.getExitCode()).isZero();
        assertThat(table.getStdout()).contains("node 2 (cluster chaos)").contains("1 of 1 up")
            .contains("(no quota: nothing is reclaimed)");
    }

    @Test
    void nodesListsThePeerWithItsSessionUp()
    {
        Await.until(() -> cluster.cli(2, "status", "--check").getExitCode() == 0, Duration.ofSeconds(30),
            "node 2's troupe status --check to pass");
        final Map<String, Object> nodes = cluster.cliJson(2, "nodes");
        @SuppressWarnings("unchecked")
        final List<Map<String, Object>> peers = (List<Map<String, Object>>)nodes.get("peers");
        assertThat(peers).hasSize(1);
        assertThat(peers.get(0)).containsEntry("nodeId", 1L).containsEntry("connected", true);
        assertThat((Long)peers.get(0).get("sessionsUp")).isGreaterThanOrEqualTo(1L);
    }

    @Test
    void aDrainOverTheControlSocketStopsTheNodeAndItsPeerSeesItGo()
    {
        try (ChaosCluster pair = new ChaosCluster(78, 2, ledgers.resolve("drained"), 0))
        {
            pair.start();
            Await.until(() -> pair.cli(1, "status", "--check").getExitCode() == 0, Duration.ofSeconds(30),
                "node 1 ready");
            // The node is the container's process: when it stops, Docker ends the container and every process
            // in it, a waiting CLI too. So here the CLI returns once the node has taken the command.
            final ExecResult drain = pair.cli(2, "drain", "--timeout", "2", "--no-wait");
            assertThat(drain.getExitCode()).as(drain.getStdout() + drain.getStderr()).isZero();
            assertThat(drain.getStdout()).contains("node 2 is draining for up to 2s");
            final GenericContainer<?> two = pair.node(2);
            Await.until(() -> !two.isRunning(), Duration.ofSeconds(20), "node 2's container to exit after the drain");
            assertThat(two.getLogs()).contains("node 2: shut down in");
            Await.until(() -> pair.cli(1, "status", "--check").getExitCode() == 1, Duration.ofSeconds(20),
                "node 1 to say it is not ready with its peer gone");
        }
    }
}
