package io.troupe.node.metrics;

import io.troupe.actor.ActorId;
import io.troupe.node.Node;
import io.troupe.node.NodeConfigLoader;
import io.troupe.node.NodeStartException;
import io.troupe.node.local.LocalCluster;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The node's Prometheus endpoint, scraped over HTTP and parsed. */
@Timeout(60)
class PrometheusEndpointTest
{
    private static final String TOKEN = "scrape-token-of-the-tests";

    @TempDir
    Path dir;

    private final List<Node> nodes = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void tearDown()
    {
        for (final Node node : nodes)
        {
            node.close();
        }
    }

    private Node start(final LocalCluster cluster)
    {
        final Node node = Node.start(NodeConfigLoader.load(cluster.configFile(1), new Properties()));
        nodes.add(node);
        return node;
    }

    private HttpResponse<String> scrape(final Node node, final String token) throws IOException, InterruptedException
    {
        final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.metricsPort() +
            "/metrics")).timeout(Duration.ofSeconds(10));
        if (token != null)
        {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The value of a sample of the text format with this name and (at least) these labels. */
    static Optional<Double> sample(final String text, final String name, final Map<String, String> labels)
    {
        for (final String line : text.split("\n"))
        {
            if (line.startsWith("#") || !line.startsWith(name + "{") && !line.startsWith(name + " "))
            {
                continue;
            }
            final boolean all = labels.entrySet().stream()
                .allMatch(label -> line.contains(label.getKey() + "=\"" + label.getValue() + "\""));
            if (all)
            {
                return Optional.of(Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
            }
        }
        return Optional.empty();
    }

    @Test
    void aScrapeHasTheNodesCountersTheJvmsMetricsAndPerActorTypeHistograms() throws Exception
    {
        final LocalCluster cluster = LocalCluster.create(dir, 1, "troupe.metrics.prometheus { enabled = true, " +
            "port = 0, bearer-token = \"" + TOKEN + "\", actor-types = true }");
        final Node node = start(cluster);
        assertThat(node.metricsPort()).isPositive();
        final ActorId counter = node.system().register((ctx, envelope) -> { });
        for (int i = 0; i < 10; i++)
        {
            node.system().send(counter, "tick " + i);
        }
        Await.until(() -> node.system().counters().eventsHandled() >= 10, Duration.ofSeconds(10), "ticks handled");
        node.counters().publishNow();

        final HttpResponse<String> response = scrape(node, TOKEN);
        assertThat(response.statusCode()).isEqualTo(200);
        final String text = response.body();
        assertThat(sample(text, "troupe_pool_events_handled_total", Map.of("node", "1", "pool", "default")))
            .hasValueSatisfying(value -> assertThat(value).isGreaterThanOrEqualTo(10));
        assertThat(sample(text, "troupe_pool_threads", Map.of("node", "1", "pool", "default")))
            .contains((double)node.system().counters().pool("default").threads());
        assertThat(text).containsPattern("# TYPE troupe_pool_events_handled(_total)? counter")
            .contains("# TYPE troupe_pool_threads gauge");
        assertThat(sample(text, "troupe_node_info", Map.of("node", "1", "incarnation",
            Long.toString(node.interconnect().incarnation())))).contains(1.0);
        assertThat(sample(text, "jvm_memory_used_bytes", Map.of("area", "heap"))).isPresent();
        final Map<String, String> type = Map.of("node", "1", "actor_type", PrometheusEndpointTest.class.getName());
        assertThat(sample(text, "troupe_actor_events_handled_total", type)).contains(10.0);
        assertThat(sample(text, "troupe_actor_handling_seconds_count", type)).contains(10.0);
        assertThat(sample(text, "troupe_actor_handling_seconds_bucket", Map.of("node", "1", "actor_type",
            PrometheusEndpointTest.class.getName(), "le", "+Inf"))).contains(10.0);
        assertThat(sample(text, "troupe_actor_handling_seconds_sum", type)).isPresent();

        assertThat(scrape(node, null).statusCode()).as("no token").isEqualTo(401);
        assertThat(scrape(node, "not-the-token-of-the-tests").statusCode()).as("a wrong token").isEqualTo(401);
    }

    @Test
    void offByDefaultAndWithoutActorTypesNoClockIsReadPerEvent() throws Exception
    {
        final Node off = start(LocalCluster.create(dir.resolve("off"), 1));
        assertThat(off.metricsPort()).isZero();
        off.close();
        nodes.clear();

        final Node plain = start(LocalCluster.create(dir.resolve("plain"), 1,
            "troupe.metrics.prometheus { enabled = true, port = 0 }"));
        final HttpResponse<String> response = scrape(plain, null);
        assertThat(response.statusCode()).as("no token configured, none asked").isEqualTo(200);
        assertThat(response.body()).contains("troupe_agent_errors_total")
            .doesNotContain("troupe_actor_handling_seconds");
    }

    @Test
    void aTakenPortNamesItsKeyAndTheNodeStopsWhatItStarted() throws IOException
    {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            final LocalCluster cluster = LocalCluster.create(dir, 1, "troupe.metrics.prometheus { enabled = true, " +
                "port = " + taken.getLocalPort() + " }");
            assertThatThrownBy(() -> start(cluster)).isInstanceOf(NodeStartException.class)
                .hasMessage("troupe.metrics.prometheus.port = " + taken.getLocalPort() + ": 127.0.0.1:" +
                    taken.getLocalPort() + " is in use (or not an address of this host)");
            // everything it started is stopped: the same data directory and ports start again
            final LocalCluster again = LocalCluster.create(dir.resolve("again"), 1);
            assertThat(start(again).metricsPort()).isZero();
        }
    }
}
