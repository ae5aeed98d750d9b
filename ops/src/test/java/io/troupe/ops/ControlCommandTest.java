package io.troupe.ops;

import io.troupe.node.counters.NodeCounter;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.Envelope;
import io.troupe.actor.EventTypes;
import io.troupe.actor.ServiceId;
import io.troupe.actor.Undelivered;
import io.troupe.node.Node;
import io.troupe.node.NodeConfigLoader;
import io.troupe.node.control.ControlException;
import io.troupe.node.control.ControlProtocol;
import io.troupe.node.counters.CountersFileReader;
import io.troupe.node.counters.NodeState;
import io.troupe.node.local.LocalCluster;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.RecordCodec;
import io.troupe.testing.Await;
import io.troupe.testing.DeliveryLedger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import static io.troupe.ops.TroupeCliTest.troupe;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code troupe drain} and {@code troupe stop} over the control channel, against nodes in this JVM. */
@Timeout(90)
class ControlCommandTest
{
    private static final Duration CONNECT = Duration.ofSeconds(45); // a child JVM starting on a busy machine
    private static final ServiceId SLOW = ServiceId.of(0, "slow");
    private static final int JOB = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 2);

    record Job(long seq)
    {
    }

    private static final EventCodec<Job> JOB_CODEC = RecordCodec.of(JOB, "ops.test.Job", Job.class,
        (out, job) -> out.writeLong(job.seq()), in -> new Job(in.readLong()));

    @TempDir
    Path dir;

    private final List<Node> nodes = new ArrayList<>();
    private LocalCluster cluster;

    @AfterEach
    void tearDown()
    {
        for (final Node node : nodes)
        {
            node.close();
        }
    }

    private Node start(final int nodeId, final Consumer<ActorSystem> setup)
    {
        final Node node = Node.start(NodeConfigLoader.load(cluster.configFile(nodeId), new Properties()), setup,
            JOB_CODEC);
        nodes.add(node);
        return node;
    }

    private static String dataDir(final Node node)
    {
        return node.config().dataDir().toString();
    }

    /**
     * Node 1 sends {@code count} tracked jobs to node 2's slow service (each takes {@code handleMs}), recording every
     * outcome in the ledger; returns when node 2 has received them all.
     */
    private Node[] busyPair(final DeliveryLedger ledger, final int count, final long handleMs)
    {
        cluster = LocalCluster.create(dir, 2);
        final Node one = start(1, system -> { });
        final Node two = start(2, system -> system.registerService(SLOW, system.register((ctx, envelope) ->
        {
            if (envelope.event() instanceof Job job)
            {
                ledger.delivered(job.seq());
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(handleMs));
            }
        })));
        Await.until(() -> one.interconnect().isConnected(2) && two.interconnect().isConnected(1), CONNECT,
            "sessions up");
        final ActorId sender = one.system().register((ctx, envelope) ->
        {
            if ("go".equals(envelope.event()))
            {
                for (long i = 0; i < count; i++)
                {
                    ledger.sent(i);
                    ctx.send(SLOW.onNode(2), new Job(i), JOB, Envelope.FLAG_TRACK_DELIVERY, i);
                }
            }
            else if (envelope.event() instanceof Undelivered notice)
            {
                ledger.undelivered(envelope.cookie(), notice.unsure(), notice.reason());
            }
        });
        one.system().send(sender, "go");
        Await.until(() -> two.interconnect().peerCounters().get(0).eventsIn() >= count, CONNECT,
            "node 2 received every job");
        return new Node[] {one, two};
    }

    @Test
    void drainOnABusyNodeEndsWithEveryTrackedEventDeliveredOrUndeliveredShutdown()
    {
        final DeliveryLedger ledger = new DeliveryLedger();
        final Node[] pair = busyPair(ledger, 300, 5); // 1.5 s of work: a 0.5 s drain cannot finish it
        final Node two = pair[1];

        final TroupeCliTest.Run drain = troupe("drain", "--timeout", "0.5", "--data-dir", dataDir(two));
        assertThat(drain.out()).contains("node 2: node 2 is draining for up to 500ms, then stopping")
            .contains("node 2 stopped: the drain deadline passed");
        assertThat(drain.code()).isEqualTo(TroupeCli.NOT_OK);
        Await.until(two::isClosed, Duration.ofSeconds(5), "node 2 closed"); // (STOPPED is written just before)
        assertThat(two.drained()).isFalse();

        Await.until(ledger::allAccountedFor, Duration.ofSeconds(20), "every job delivered or undelivered");
        ledger.assertExactlyOnce();
        assertThat(ledger.deliveredCount()).isPositive();
        assertThat(ledger.undeliveredCount()).isPositive();
        assertThat(ledger.deliveredCount() + ledger.undeliveredCount() - ledger.deliveredAndNoticedCount())
            .isEqualTo(300);
        final CountersFileReader file = CountersFileReader.open(two.config().dataDir());
        assertThat(file.state()).isEqualTo(NodeState.STOPPED);
        assertThat(new NodeSnapshot(file).get(NodeCounter.CONTROL_REQUESTS)).isEqualTo(1);
    }

    @Test
    void aDrainWithTimeEnoughDrainsEverythingAndExitsZero()
    {
        final DeliveryLedger ledger = new DeliveryLedger();
        final Node two = busyPair(ledger, 50, 2)[1];

        final TroupeCliTest.Run drain = troupe("drain", "--json", "--timeout", "30", "--data-dir", dataDir(two));
        assertThat(drain.code()).isZero();
        assertThat(drain.json()).containsEntry("nodeId", 2L).containsEntry("command", "drain")
            .containsEntry("stopped", true).containsEntry("drained", true);
        Await.until(ledger::allAccountedFor, Duration.ofSeconds(20), "every job accounted for");
        ledger.assertExactlyOnce();
        assertThat(ledger.deliveredCount()).isEqualTo(50);
    }

    @Test
    void stopStopsWithoutDrainingAndASecondCommandFindsNoNode()
    {
        final DeliveryLedger ledger = new DeliveryLedger();
        final Node two = busyPair(ledger, 200, 5)[1];

        final TroupeCliTest.Run stop = troupe("stop", "--data-dir", dataDir(two));
        assertThat(stop.out()).contains("stopping without draining");
        // the CLI returns when the counters file says STOPPED, the node's last step but one before isClosed()
        Await.until(two::isClosed, Duration.ofSeconds(5), "node 2 closed");
        Await.until(ledger::allAccountedFor, Duration.ofSeconds(20), "every job accounted for");
        ledger.assertExactlyOnce();
        assertThat(ledger.undeliveredCount()).isPositive();

        final TroupeCliTest.Run again = troupe("drain", "--data-dir", dataDir(two));
        assertThat(again.code()).isEqualTo(TroupeCli.UNREACHABLE);
        assertThat(again.err()).contains("node 2 is not running");
    }

    @Test
    void aRequestWithoutTheTokenIsRefusedAndCountedAndTheNodeRunsOn() throws IOException
    {
        cluster = LocalCluster.create(dir, 1);
        final Node one = start(1, system -> { });
        final Path socket = one.config().dataDir().resolve(ControlProtocol.SOCKET_NAME);
        assertThat(rawRequest(socket, "stop")).startsWith("error refused: wrong control token");
        assertThat(rawRequest(socket, "0123456789abcdef stop")).startsWith("error refused: wrong control token");
        assertThat(rawRequest(socket, "x".repeat(5000))).startsWith("error refused: no request line");
        assertThat(rawRequest(socket, "broker-set any ask=drop(max=0)"))
            .startsWith("error refused: wrong control token");
        assertThat(one.isClosed()).isFalse();
        assertThat(ControlProtocol.request(one.config().dataDir(), "ping", 5_000))
            .isEqualTo("ok node 1 incarnation " + one.interconnect().incarnation() + " running");
        assertThat(ControlProtocol.request(one.config().dataDir(), "drain soon", 5_000))
            .startsWith("error the drain deadline is a number of ms");
        assertThat(ControlProtocol.request(one.config().dataDir(), "reboot", 5_000))
            .startsWith("error unknown command 'reboot'");
        one.counters().publishNow();
        final NodeSnapshot node = new NodeSnapshot(CountersFileReader.open(one.config().dataDir()));
        assertThat(node.get(NodeCounter.CONTROL_REFUSED)).isEqualTo(4);
        assertThat(node.get(NodeCounter.CONTROL_REQUESTS)).isEqualTo(3);
        assertThat(Files.getPosixFilePermissions(socket))
            .isEqualTo(PosixFilePermissions.fromString("rw-------"));

        one.close();
        assertThat(socket).doesNotExist();
        assertThatThrownBy(() -> ControlProtocol.request(one.config().dataDir(), "ping", 1_000))
            .isInstanceOf(ControlException.class).hasMessageContaining("the node is not running");
    }

    private static String rawRequest(final Path socket, final String line) throws IOException
    {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX))
        {
            channel.connect(UnixDomainSocketAddress.of(socket));
            channel.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.US_ASCII)));
            final ByteBuffer answer = ByteBuffer.allocate(2048);
            while (channel.read(answer) >= 0 && (answer.position() == 0 || answer.get(answer.position() - 1) != '\n'))
            {
                // until the answer's line ends
            }
            return new String(answer.array(), 0, answer.position(), StandardCharsets.US_ASCII).strip();
        }
    }
}
