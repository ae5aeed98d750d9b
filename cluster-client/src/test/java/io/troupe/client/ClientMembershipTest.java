package io.troupe.client;

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
import java.util.concurrent.TimeUnit;

import static io.troupe.client.TestEvents.GREETER;
import static org.assertj.core.api.Assertions.assertThat;

/** A client of a cluster with a membership follows its members: nodes in this JVM, node 1 the voter. */
@Timeout(180)
class ClientMembershipTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;
    private final LocalNodes nodes = new LocalNodes();
    private TroupeClient client;

    @AfterEach
    void tearDown()
    {
        if (client != null)
        {
            client.close();
        }
        nodes.close();
    }

    private Node start(final Path configFile)
    {
        final Node node = nodes.start(configFile, system -> { }, TestEvents.codecs());
        TestEvents.registerServices(node);
        return node;
    }

    private static String endpoint(final Node node)
    {
        return "127.0.0.1:" + node.config().interconnectConfig().bindPort();
    }

    @Test
    void aClientGivenOneMemberLearnsEveryMemberUpIncludingOneThatJoinsLaterAndFailsOverToThem() throws Exception
    {
        final LocalCluster cluster = LocalCluster.withMembership(dir, 2, 1, TestEvents.clusterSettings());
        final Node one = start(cluster.configFile(1));
        final Node two = start(cluster.configFile(2));
        Await.until(() -> one.membership().members().stream().filter(m -> m.status() == MemberStatus.UP).count() == 2,
            WAIT, () -> "both members up: " + one.membership().members());

        client = TroupeClient.connect(TestEvents.clientConfig(cluster, 2)); // given node 2 only
        Await.until(() -> client.endpoints().contains(endpoint(one)), WAIT,
            () -> "the client learned node 1 from node 2: " + client.endpoints());

        final Node joiner = start(cluster.writeJoinerFile("joiner"));
        Await.until(() -> client.endpoints().contains(endpoint(joiner)), WAIT,
            () -> "the client learned the member that joined after it connected: " + client.endpoints());
        assertThat(client.endpoints()).startsWith(endpoint(two)).hasSize(3);
        assertThat(client.counters().endpointUpdates()).isGreaterThanOrEqualTo(2);

        nodes.remove(two);
        two.close(); // its node goes (a graceful leave): the client goes on with members it was never given
        Await.until(() -> client.connectedEndpoint() != null && !client.connectedEndpoint().equals(endpoint(two)),
            WAIT, () -> "the client reconnected to another member: " + client.connectedEndpoint());
        assertThat(client.connectedEndpoint()).isIn(endpoint(one), endpoint(joiner));
        assertThat(client.ask(TestEvents.GREETER.onNode(joiner.nodeId()), new TestEvents.Greeting("new"),
            Duration.ofSeconds(10)).get(10, TimeUnit.SECONDS))
            .isEqualTo(new TestEvents.Reply("hello new from " + joiner.nodeId()));
        assertThat(client.ask(GREETER, new TestEvents.Greeting("any"), Duration.ofSeconds(10))
            .get(10, TimeUnit.SECONDS)).isInstanceOf(TestEvents.Reply.class);
        Await.until(() -> !client.endpoints().subList(1, client.endpoints().size()).contains(endpoint(two)), WAIT,
            () -> "node 2 is no longer among the learned endpoints: " + client.endpoints());
    }
}
