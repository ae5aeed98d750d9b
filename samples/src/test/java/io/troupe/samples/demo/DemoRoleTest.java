package io.troupe.samples.demo;

import io.troupe.node.Node;
import io.troupe.node.NodeConfigLoader;
import io.troupe.node.local.LocalCluster;
import io.troupe.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The demo's services answer across nodes, with the demo's codecs. */
@Timeout(60)
class DemoRoleTest
{
    private static final Duration ASK = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    @Test
    void echoPingPongAndStatusAnswerFromAnotherNode() throws Exception
    {
        final LocalCluster cluster = LocalCluster.create(dir, 2);
        try (Node one = Node.start(NodeConfigLoader.load(cluster.configFile(1), new Properties()), DemoNode.codecs());
            Node two = Node.start(NodeConfigLoader.load(cluster.configFile(2), new Properties()), DemoRole::register,
                DemoNode.codecs()))
        {
            Await.until(() -> one.interconnect().isConnected(2) && two.interconnect().isConnected(1),
                Duration.ofSeconds(20), "sessions up");
            assertThat(one.system().ask(DemoEvents.ECHO.on(2), replyTo -> new DemoEvents.EchoRequest("hi", replyTo),
                DemoEvents.Text.class, ASK).get(10, TimeUnit.SECONDS)).isEqualTo(new DemoEvents.Text("echo: hi"));
            final DemoEvents.Ping ball = one.system().ask(DemoEvents.PING_PONG.on(2),
                replyTo -> new DemoEvents.Ping(7, 11, replyTo), DemoEvents.Ping.class, ASK).get(10, TimeUnit.SECONDS);
            assertThat(ball.sequence()).isEqualTo(7);
            assertThat(ball.sentNs()).isEqualTo(11);
            assertThat(one.system().ask(DemoEvents.STATUS_SERVICE.on(2), DemoEvents.StatusRequest::new,
                DemoEvents.Status.class, ASK).get(10, TimeUnit.SECONDS)).isEqualTo(new DemoEvents.Status(2,
                ProcessHandle.current().pid(),
                two.interconnect().incarnation(), "1"));
        }
    }
}
