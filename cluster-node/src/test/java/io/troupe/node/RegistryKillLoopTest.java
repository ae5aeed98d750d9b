package io.troupe.node;

import io.troupe.node.local.LocalCluster;
import io.troupe.node.local.NodeProcess;
import io.troupe.registry.ReplicaReader;
import io.troupe.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code kill -9} of a node while it registers, three times by default (each round kills at another point of the
 * registrations; {@code -Dtroupe.test.kill-loop-rounds=50} runs a longer loop): every restart opens the directory
 * replica cleanly (nothing moved aside), finds it readable, and takes a strictly larger incarnation.
 */
@Timeout(300)
class RegistryKillLoopTest
{
    /** 5-10 s a round: the default keeps the suite's run short, a soak asks for more. */
    private static final int ROUNDS = Integer.getInteger("troupe.test.kill-loop-rounds", 3);
    private static final Pattern UP = Pattern.compile("up incarnation=(\\d+) replicaSetAside=(true|false)");

    @TempDir
    Path dir;

    @Test
    void aNodeKilledWhileItRegistersRestartsCleanEveryTimeWithAStrictlyGreaterIncarnation() throws Exception
    {
        try (LocalCluster cluster = LocalCluster.create(dir, 1))
        {
            final Path config = cluster.configFile(1);
            final Path dataDir = dir.resolve("data").resolve("node-1");
            long last = 0;
            for (int round = 1; round <= ROUNDS; round++)
            {
                final long before = Files.exists(cluster.logFile(1)) ? Files.size(cluster.logFile(1)) : 0;
                final NodeProcess node = cluster.start(1, RegisteringNodeMain.class.getName(),
                    List.of(config.toString()));
                final long[] up = new long[] {-1};
                final boolean[] setAside = new boolean[1];
                Await.until(() ->
                {
                    final Matcher m = UP.matcher(newLog(cluster.logFile(1), before));
                    if (m.find())
                    {
                        up[0] = Long.parseLong(m.group(1));
                        setAside[0] = Boolean.parseBoolean(m.group(2));
                        return true;
                    }
                    return !node.isAlive();
                }, Duration.ofSeconds(60), "round " + round + ": the node is up");
                assertThat(node.isAlive()).as("round " + round + ": " + node.logTail(20)).isTrue();
                assertThat(setAside[0]).as("round " + round + ": the replica opened cleanly").isFalse();
                assertThat(up[0]).as("round " + round + ": a strictly greater incarnation").isGreaterThan(last);
                last = up[0];
                try (ReplicaReader reader = ReplicaReader.open(dataDir))
                {
                    Await.until(() -> reader.names() > 0, Duration.ofSeconds(30), "registrations under way");
                    assertThat(reader.writer()[1]).isEqualTo(last);
                }
                Thread.sleep(round * 7 % 50); // kill at a different point of the registrations each round
                node.kill();
                assertThat(node.awaitExit(Duration.ofSeconds(10))).isNotNull();
            }
        }
    }

    private static String newLog(final Path log, final long from)
    {
        try
        {
            final byte[] all = Files.readAllBytes(log);
            return new String(all, (int)Math.min(from, all.length), (int)Math.max(0, all.length - from),
                StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            return "";
        }
    }
}
