package io.troupe.samples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

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
        try (io.troupe.node.local.LocalCluster cluster = io.troupe.node.local.LocalCluster.create(dir, 1,
            "troupe.application.setup = [\"" + io.troupe.samples.client.GreeterSetup.class.getName() + "\"]",
            "troupe.client.secret = \"" + clientSecret + "\""))
        {
            cluster.start(1); // troupe node --config node-1.conf, in a child process
            try (io.troupe.client.TroupeClient client = io.troupe.client.TroupeClient.connect(
                new io.troupe.client.ClientConfig().endpoint("127.0.0.1:" + cluster.port(1))
                    .clusterId(cluster.clusterId())
                    .secret(clientSecret.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                    .connectTimeout(java.time.Duration.ofSeconds(30))
                    .codec(io.troupe.samples.client.GreeterEvents.GREET)
                    .codec(io.troupe.samples.client.GreeterEvents.GREETING)))
            {
                io.troupe.testing.Await.until(() -> !client.lookup(io.troupe.samples.client.GreeterEvents.GREETER)
                    .isEmpty(), java.time.Duration.ofSeconds(30), "the greeter is in the directory");
                final Object reply = client.ask(io.troupe.samples.client.GreeterEvents.GREETER,
                    new io.troupe.samples.client.GreeterEvents.Greet("ops"), java.time.Duration.ofSeconds(10))
                    .get(20, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(reply).isEqualTo(new io.troupe.samples.client.GreeterEvents.Greeting("hello, ops", 1));
            }
        }
    }
}
