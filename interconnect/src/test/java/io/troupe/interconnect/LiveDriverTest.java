package io.troupe.interconnect;

import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A node never replaces an Aeron directory in which another node's driver is alive. */
@Timeout(60)
class LiveDriverTest
{
    /** Long enough that the second try falls in another second of the driver's heartbeat than the first. */
    private static final long ACROSS_A_HEARTBEAT_NS = 700_000_000L;

    @TempDir
    Path dir;
    @AutoClose
    private final TestCluster cluster = TestCluster.of(2);

    @Test
    void aDirectoryWithoutADriverIsNotAliveOneWithARunningNodesIs()
    {
        assertThat(LiveDriver.isAlive(dir)).isFalse();
        assertThat(LiveDriver.isAlive(dir.resolve("missing"))).isFalse();
        final TestCluster.Node one = cluster.start(cluster.node(1), cluster.configWithoutPeers(cluster.node(1)));
        assertThat(LiveDriver.isAlive(Path.of(one.interconnect.config().aeronDir()))).isTrue();
    }

    @Test
    void aSecondNodeOnARunningNodesAeronDirectoryIsRefusedAndTheFirstRunsOn()
    {
        final TestCluster.Node one = cluster.start(cluster.node(1), cluster.configWithoutPeers(cluster.node(1)));
        final String shared = one.interconnect.config().aeronDir();
        try (ActorSystem system = ActorSystem.start(new ActorSystemConfig().nodeId(2)))
        {
            // at once after the first started, and again a while later: the driver's heartbeat comes once a second
            for (int attempt = 0; attempt < 2; attempt++)
            {
                assertThatThrownBy(() -> Interconnect.start(system,
                    cluster.configWithoutPeers(cluster.node(2)).aeronDir(shared), TestCluster.CODECS))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("a media driver is running in " + shared);
                LockSupport.parkNanos(ACROSS_A_HEARTBEAT_NS); // the pause is what is tested: a heartbeat later
            }
        }
        assertThat(LiveDriver.isAlive(Path.of(shared))).isTrue();
        assertThat(one.interconnect.isConnected(2)).isFalse();
    }
}
