package io.troupe.ops;

import io.troupe.actor.ActorId;
import io.troupe.actor.EventTypes;
import io.troupe.actor.ServiceId;
import io.troupe.node.Node;
import io.troupe.node.NodeConfigLoader;
import io.troupe.node.local.LocalCluster;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.RecordCodec;
import io.troupe.testing.Await;
import io.troupe.testing.JsonReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The CLI against nodes running in this JVM over real Aeron on 127.0.0.1: every read command, tables and JSON. */
@Timeout(90)
class TroupeCliTest
{
    private static final Duration CONNECT = Duration.ofSeconds(45); // a child JVM starting on a busy machine

    @TempDir
    Path dir;

    private final List<Node> nodes = new ArrayList<>();
    private LocalCluster cluster;

    /** An event that crosses nodes, for traffic between them. */
    record Note(String text)
    {
    }

    private static final EventCodec<Note> NOTE_CODEC = RecordCodec.of(
        EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 1), "ops.test.Note", Note.class,
        (out, note) -> out.writeString(note.text()), in -> new Note(in.readString()));

    record Run(int code, String out, String err)
    {
        Map<String, Object> json()
        {
            return JsonReader.object(out);
        }
    }

    static Run troupe(final String... args)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code = TroupeCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @AfterEach
    void tearDown()
    {
        for (final Node node : nodes)
        {
            node.close();
        }
    }

    private Node start(final int nodeId)
    {
        final Node node = Node.start(NodeConfigLoader.load(cluster.configFile(nodeId), new Properties()), NOTE_CODEC);
        nodes.add(node);
        return node;
    }

    private Node[] twoConnected()
    {
        cluster = LocalCluster.create(dir, 2);
        final Node one = start(1);
        final Node two = start(2);
        Await.until(() -> one.interconnect().isConnected(2) && two.interconnect().isConnected(1), CONNECT,
            "sessions up");
        one.counters().publishNow();
        return new Node[] {one, two};
    }

    private static String dataDir(final Node node)
    {
        return node.config().dataDir().toString();
    }

    @SuppressWarnings("unchecked")
    private static <T> T at(final Object document, final Object... path)
    {
        Object current = document;
        for (final Object step : path)
        {
            current = step instanceof Integer index ? ((List<Object>)current).get(index) :
                ((Map<String, Object>)current).get(step);
        }
        return (T)current;
    }

    private static Object get(final Object document, final Object... path)
    {
        return at(document, path);
    }

    @Test
    void statusSaysWhoTheNodeIsAndThatItIsReadyAsATableAndAsJson()
    {
        final Node one = twoConnected()[0];

        final Run table = troupe("status", "--data-dir", dataDir(one));
        assertThat(table.code()).isZero();
        assertThat(table.out()).contains("node 1 (cluster " + cluster.clusterId() + "), incarnation " +
            one.interconnect().incarnation()).contains(": running").contains("1 of 1 up").contains("pool default");

        final Run json = troupe("status", "--json", "--data-dir", dataDir(one));
        final Map<String, Object> doc = json.json();
        assertThat(doc).containsEntry("nodeId", 1L).containsEntry("state", "running").containsEntry("ready", true)
            .containsEntry("incarnation", one.interconnect().incarnation())
            .containsEntry("pid", ProcessHandle.current().pid()).containsEntry("responding", true)
            .containsEntry("readiness", "ready: 1 of 1 peers up");
        assertThat(get(doc, "peers", "up")).isEqualTo(1L);
        assertThat(get(doc, "pools", 0, "name")).isEqualTo("default");
        assertThat(get(doc, "pools", 0, "threads"))
            .isEqualTo((long)one.system().counters().pool("default").threads());
        assertThat(troupe("status", "--check", "--data-dir", dataDir(one)).code()).isZero();
    }

    @Test
    void statusCheckFailsWhenAPeerIsDownAndSaysWhichAndAStoppedNodeIsUnreachable()
    {
        final Node[] pair = twoConnected();
        final Node one = pair[0];
        pair[1].close();
        Await.until(() -> !one.interconnect().isConnected(2), CONNECT, "node 2 gone");
        one.counters().publishNow();

        final Run check = troupe("status", "--check", "--data-dir", dataDir(one));
        assertThat(check.code()).isEqualTo(TroupeCli.NOT_OK);
        assertThat(check.out()).contains("no: peers down [2]");

        one.close();
        final Run stopped = troupe("status", "--check", "--data-dir", dataDir(one));
        assertThat(stopped.out()).contains(": stopped");
        assertThat(stopped.code()).as("its process (this JVM) lives, but the node stopped").isEqualTo(TroupeCli.NOT_OK);
        assertThat(troupe("status", "--json", "--data-dir", dataDir(one)).json()).containsEntry("state", "stopped")
            .containsEntry("ready", false).containsEntry("responding", false);
    }

    @Test
    void aNodeWhosePeerRefusesItSaysWhyInStatusAndIsNotReady() throws Exception
    {
        cluster = LocalCluster.create(dir, 2);
        final Path otherSecret = dir.resolve("other-secret");
        Files.writeString(otherSecret, "a different cluster secret, 32 bytes");
        Files.setPosixFilePermissions(otherSecret, PosixFilePermissions.fromString("rw-------"));
        final Properties wrongSecret = new Properties();
        wrongSecret.setProperty("troupe.cluster-secret-file", otherSecret.toString());
        final Node one = start(1);
        nodes.add(Node.start(NodeConfigLoader.load(cluster.configFile(2), wrongSecret), NOTE_CODEC));

        Await.until(() -> String.valueOf(troupe("status", "--json", "--data-dir", dataDir(one)).json().get("readiness"))
            .contains("cluster secret"), CONNECT, "node 1 says why node 2 is not up");
        final Map<String, Object> doc = troupe("status", "--json", "--data-dir", dataDir(one)).json();
        assertThat(doc).containsEntry("ready", false);
        assertThat((String)doc.get("readiness")).startsWith("not ready: 0 of 1 peers up; ")
            .containsPattern("node 2 refuses: |refused node 2: ");
        final Run check = troupe("status", "--check", "--data-dir", dataDir(one));
        assertThat(check.code()).isEqualTo(TroupeCli.NOT_OK);
        assertThat(check.out()).contains("not ready: 0 of 1 peers up; ");
    }

    @Test
    void nodesAndSessionsShowThePeerAndItsTraffic() throws Exception
    {
        final Node one = twoConnected()[0];
        final ActorId echo = nodes.get(1).system().register((ctx, envelope) -> ctx.reply(envelope.event()));
        nodes.get(1).registry().register(ServiceId.of(0, "echo"), echo);
        assertThat(one.system().ask(echo.onNode(2), new Note("hello"), Duration.ofSeconds(10)).get(10,
            TimeUnit.SECONDS)).isEqualTo(new Note("hello"));
        one.counters().publishNow();

        final Map<String, Object> peers = troupe("nodes", "--json", "--data-dir", dataDir(one)).json();
        assertThat(get(peers, "peers", 0, "nodeId")).isEqualTo(2L);
        assertThat(get(peers, "peers", 0, "connected")).isEqualTo(true);
        assertThat(get(peers, "peers", 0, "incarnation")).isEqualTo(nodes.get(1).interconnect().incarnation());
        assertThat((Long)at(peers, "peers", 0, "eventsIn")).isPositive();
        assertThat(troupe("nodes", "--data-dir", dataDir(one)).out()).contains("node").contains("up");

        final Run sessions = troupe("sessions", "--json", "--data-dir", dataDir(one));
        assertThat(get(sessions.json(), "peerSessions", 0, "sessionsUp")).isEqualTo(1L);
        assertThat(get(sessions.json(), "clientSessions", "open")).isEqualTo(0L);
        assertThat(troupe("sessions", "--data-dir", dataDir(one)).out()).contains("clients: 0 open");
    }

    @Test
    void countersListsEveryCounterFiltersAndWatches()
    {
        final Node one = twoConnected()[0];

        final Map<String, Object> all = troupe("counters", "--json", "--data-dir", dataDir(one)).json();
        final List<Map<String, Object>> counters = at(all, "counters");
        assertThat(counters).anySatisfy(counter ->
        {
            assertThat(counter).containsEntry("name", "pool_events_handled").containsEntry("kind", "count");
            assertThat(counter.get("labels")).isEqualTo(Map.of("pool", "default"));
        });
        assertThat(counters).anySatisfy(counter -> assertThat(counter).containsEntry("name", "peer_connected")
            .containsEntry("value", 1L).containsEntry("kind", "gauge"));

        final Run filtered = troupe("counters", "--filter", "peer=2", "--data-dir", dataDir(one));
        assertThat(filtered.code()).isZero();
        assertThat(filtered.out().lines().skip(2)).isNotEmpty().allMatch(line -> line.contains("peer=2"));

        final Run watched = troupe("counters", "--watch", "0.1", "--count", "2", "--filter", "^agent_errors$",
            "--data-dir", dataDir(one));
        assertThat(watched.out().lines().filter(line -> line.contains("agent_errors"))).hasSize(2);

        assertThat(troupe("counters", "--filter", "(", "--data-dir", dataDir(one)).code()).isEqualTo(TroupeCli.USAGE);
    }

    @Test
    void errorsShowsEachDistinctErrorOnceWithItsCount()
    {
        cluster = LocalCluster.create(dir, 1);
        final Node one = start(1);
        assertThat(troupe("errors", "--data-dir", dataDir(one)).out()).contains("no errors");
        final ActorId failing = one.system().register((ctx, envelope) ->
        {
            throw new IllegalStateException("deliberately broken");
        });
        for (int i = 0; i < 3; i++)
        {
            one.system().send(failing, "boom");
        }
        Await.until(() -> one.system().counters().handlerFailures() == 3, CONNECT, "three failures");

        final Map<String, Object> doc = troupe("errors", "--json", "--data-dir", dataDir(one)).json();
        assertThat(get(doc, "errors", 0, "count")).isEqualTo(3L);
        assertThat((String)at(doc, "errors", 0, "text")).contains("deliberately broken");
        final Run table = troupe("errors", "--data-dir", dataDir(one));
        assertThat(table.out()).contains("1 distinct error:").contains("3 times").contains("deliberately broken");
        assertThat(troupe("errors", "--brief", "--data-dir", dataDir(one)).out()).doesNotContain("\tat ");
    }

    @Test
    void memquotaAndCreditShowTheirFigures()
    {
        cluster = LocalCluster.create(dir, 1);
        final Node one = start(1);
        one.counters().publishNow();
        final Map<String, Object> quota = troupe("memquota", "--json", "--data-dir", dataDir(one)).json();
        assertThat(get(quota, "figures", "memquota_max_bytes"))
            .isEqualTo(one.system().memoryQuota().counters().maxBytes());
        assertThat(troupe("memquota", "--data-dir", dataDir(one)).out()).contains("used_bytes");
        final Map<String, Object> credit = troupe("credit", "--json", "--data-dir", dataDir(one)).json();
        assertThat(get(credit, "figures", "credit_accounts_open"))
            .isEqualTo((long)one.system().flow().openAccounts());
    }

    @Test
    void servicesReadsTheDirectoryReplica()
    {
        final Node[] pair = twoConnected();
        final Node one = pair[0];
        final ActorId greeter = pair[1].system().register((ctx, envelope) -> { });
        pair[1].registry().register(ServiceId.of(0, "greeter"), greeter);
        Await.until(() -> !one.registry().lookup(ServiceId.of(0, "greeter")).isEmpty(), CONNECT, "greeter seen");
        // the CLI reads the node's replica, which opens in the background and holds the greeter a moment later
        Await.until(() -> troupe("services", "greeter", "--data-dir", dataDir(one)).code() == TroupeCli.OK, CONNECT,
            "greeter in node 1's directory replica");

        final Map<String, Object> doc = troupe("services", "--json", "--data-dir", dataDir(one)).json();
        final List<Map<String, Object>> services = at(doc, "services");
        assertThat(services).anySatisfy(service ->
        {
            assertThat(service).containsEntry("name", "greeter");
            assertThat(get(service, "instances", 0, "nodeId")).isEqualTo(2L);
            assertThat(get(service, "instances", 0, "actor")).isEqualTo(greeter.onNode(2).toString());
        });
        assertThat(troupe("services", "greeter", "--data-dir", dataDir(one)).out()).contains("greeter");
        assertThat(troupe("services", "nobody", "--data-dir", dataDir(one)).code()).isEqualTo(TroupeCli.NOT_OK);
        assertThat(troupe("services", "far-too-long-a-name", "--data-dir", dataDir(one)).code())
            .isEqualTo(TroupeCli.USAGE);
    }

    @Test
    void aWrongCommandLineIsUsageAndANodeWithNoFileIsUnreachable()
    {
        assertThat(troupe("no-such-command").code()).isEqualTo(TroupeCli.USAGE);
        assertThat(troupe("status", "--no-such-option").code()).isEqualTo(TroupeCli.USAGE);
        final Run none = troupe("status", "--data-dir", dir.resolve("nothing").toString());
        assertThat(none.code()).isEqualTo(TroupeCli.UNREACHABLE);
        assertThat(none.err()).contains("no counters file at");
        final Run both = troupe("status", "--data-dir", "a", "--config", "b");
        assertThat(both.code()).isEqualTo(TroupeCli.USAGE);
        assertThat(both.err()).contains("not both");
        assertThat(troupe("--help").code()).isZero();
    }

    @Test
    void theConfigFileNamesTheDataDirectory()
    {
        cluster = LocalCluster.create(dir, 1);
        final Node one = start(1);
        final Run run = troupe("status", "--json", "--config", cluster.configFile(1).toString());
        assertThat(run.code()).isZero();
        assertThat(run.json()).containsEntry("nodeId", 1L).containsEntry("incarnation",
            one.interconnect().incarnation());
    }
}
