package io.troupe.ops;

import io.troupe.node.local.LocalCluster;
import io.troupe.node.local.NodeProcess;
import io.troupe.node.counters.CountersLayout;
import io.troupe.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.troupe.ops.TroupeCliTest.troupe;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CLI against a node in a child process ({@code troupe node}), as an operator runs it: stopped with SIGSTOP, the
 * read commands still answer from its files alone; {@code troupe drain} ends the process with exit code 0.
 */
@Timeout(120)
class NodeProcessCliTest
{
    @TempDir
    Path dir;

    @Test
    void countersAndServicesAnswerForAStoppedProcessAndStatusSaysItIsNotResponding() throws Exception
    {
        try (LocalCluster cluster = LocalCluster.create(dir, 1))
        {
            final NodeProcess node = cluster.start(1);
            final Path dataDir = dir.resolve("data").resolve("node-1");
            Await.until(() -> troupe("status", "--check", "--data-dir", dataDir.toString()).code() == 0,
                Duration.ofSeconds(60), "the node is up");
            assertThat(Files.exists(dataDir.resolve(CountersLayout.FILE_NAME))).isTrue();

            signal("STOP", node.pid());
            try
            {
                // the counters thread is stopped with the rest: after the stale limit, status says so
                Await.until(() -> troupe("status", "--data-dir", dataDir.toString()).out().contains("not responding"),
                    Duration.ofSeconds(20), "status sees the node stop publishing");
                assertThat(troupe("status", "--check", "--data-dir", dataDir.toString()).code())
                    .isEqualTo(TroupeCli.NOT_OK);
                final TroupeCliTest.Run counters = troupe("counters", "--json", "--data-dir", dataDir.toString());
                assertThat(counters.code()).isZero();
                final List<Map<String, Object>> records = at(counters.json(), "counters");
                assertThat(records).anySatisfy(record -> assertThat(record).containsEntry("name", "pool_threads"));
                final TroupeCliTest.Run services = troupe("services", "--json", "--data-dir", dataDir.toString());
                assertThat(services.code()).isZero();
                assertThat(services.json()).containsEntry("nodeId", 1L);
                assertThat(troupe("errors", "--data-dir", dataDir.toString()).code()).isZero();
            }
            finally
            {
                signal("CONT", node.pid());
            }
            Await.until(() -> troupe("status", "--check", "--data-dir", dataDir.toString()).code() == 0,
                Duration.ofSeconds(20), "the node responds again");
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T at(final Map<String, Object> doc, final String key)
    {
        return (T)doc.get(key);
    }

    private static void signal(final String signal, final long pid) throws Exception
    {
        final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor()).isZero();
    }

    @Test
    void drainEndsTheNodeProcessCleanly() throws Exception
    {
        try (LocalCluster cluster = LocalCluster.create(dir, 1))
        {
            final NodeProcess node = cluster.start(1);
            final Path dataDir = dir.resolve("data").resolve("node-1");
            Await.until(() -> troupe("status", "--check", "--data-dir", dataDir.toString()).code() == 0,
                Duration.ofSeconds(60), "the node is up");

            final TroupeCliTest.Run drain = troupe("drain", "--data-dir", dataDir.toString());
            assertThat(drain.code()).as(drain.out() + drain.err()).isZero();
            assertThat(drain.out()).contains("node 1 stopped: drained");
            assertThat(node.awaitExit(Duration.ofSeconds(30))).isZero();
            assertThat(troupe("status", "--data-dir", dataDir.toString()).out()).contains(": stopped");
        }
    }
}
