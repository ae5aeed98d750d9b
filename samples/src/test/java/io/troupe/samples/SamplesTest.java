package io.troupe.samples;

import io.troupe.client.ClientConfig;
import io.troupe.client.TroupeClient;
import io.troupe.node.local.LocalCluster;
import io.troupe.samples.client.GreeterEvents;
import io.troupe.samples.client.GreeterSetup;
import io.troupe.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The programs users copy do what their documentation says. */
@Timeout(60)
class SamplesTest
{
    @TempDir
    Path dir;

    @Test
    void theFirstActorEchoes() throws Exception
    {
        assertThat(FirstActor.run("hello")).isEqualTo("echo: hello");
    }

    @Test
    void node2sGreeterAnswersNode1() throws Exception
    {
        assertThat(TwoNodes.run(dir, "hi")).isEqualTo(new TwoNodes.Greeting("node 2 greets back: hi"));
    }

    @Test
    void troupeNodeRunsTheGreeterApplicationNamedInItsConfigAndAClientAsksIt() throws Exception
    {
        final String clientSecret = "a client secret of the samples test";
        try (LocalCluster cluster = LocalCluster.create(dir, 1,
            "troupe.application.setup = [\"" + GreeterSetup.class.getName() + "\"]",
            "troupe.client.secret = \"" + clientSecret + "\""))
        {
            cluster.start(1); // troupe node --config node-1.conf, in a child process
            try (TroupeClient client = TroupeClient.connect(
                new ClientConfig().endpoint("127.0.0.1:" + cluster.port(1))
                    .clusterId(cluster.clusterId())
                    .secret(clientSecret.getBytes(StandardCharsets.UTF_8))
                    .connectTimeout(Duration.ofSeconds(30))
                    .codec(GreeterEvents.GREET)
                    .codec(GreeterEvents.GREETING)))
            {
                Await.until(() -> !client.lookup(GreeterEvents.GREETER)
                    .isEmpty(), Duration.ofSeconds(30), "the greeter is in the directory");
                final Object reply = client.ask(GreeterEvents.GREETER,
                    new GreeterEvents.Greet("ops"), Duration.ofSeconds(10))
                    .get(20, TimeUnit.SECONDS);
                assertThat(reply).isEqualTo(new GreeterEvents.Greeting("hello, ops", 1));
            }
        }
    }
}
