package io.troupe.interconnect;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.testing.Await;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.NodeDisconnected;
import io.troupe.actor.ServiceId;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Two nodes in one JVM over real Aeron UDP on 127.0.0.1. */
@Timeout(60)
class TwoNodeTest
{
    private static final Duration CONNECT = Duration.ofSeconds(30);
    /** Asks that must succeed: generous, their timeout is not what is tested. */
    private static final Duration ASK = Duration.ofSeconds(30);
    /**
     * The failure timeout of a node that must see its peer leave by the goodbye: made slow, so that seeing it in
     * seconds proves the goodbye, however slow a loaded machine is at closing the peer.
     */
    private static final Duration PATIENT = Duration.ofSeconds(20);
    private TestCluster cluster;

    @AfterEach
    void tearDown()
    {
        if (cluster != null)
        {
            cluster.close();
        }
    }

    private static Envelope next(final BlockingQueue<Envelope> queue)
    {
        return Await.next(queue);
    }

    private static Object ask(final TestCluster.Node from, final ActorId to, final String question) throws Exception
    {
        return from.system.ask(to, question, TestCluster.TEXT, ASK).get(ASK.toSeconds(), TimeUnit.SECONDS);
    }

    /** An actor that only records what it receives. */
    private static ActorId recorder(final TestCluster.Node node, final BlockingQueue<Envelope> log)
    {
        return node.system.register((ctx, envelope) -> log.add(envelope));
    }

    /** An actor that echoes text events back to their sender and records everything. */
    private static ActorId echo(final TestCluster.Node node, final BlockingQueue<Envelope> log)
    {
        return node.system.register((ctx, envelope) ->
        {
            log.add(envelope);
            if (envelope.type() == TestCluster.TEXT && !envelope.sender().isNone())
            {
                ctx.send(envelope.sender(), "echo:" + envelope.event(), TestCluster.TEXT, 0, envelope.cookie());
            }
        });
    }

    /** An actor on {@code node} that subscribes to {@code peer}'s session and records everything it receives. */
    private static ActorId watcher(final TestCluster.Node node, final int peer, final BlockingQueue<Envelope> events)
    {
        final ActorId watcher = node.system.register((ctx, envelope) ->
        {
            if ("watch".equals(envelope.event()))
            {
                ctx.subscribeToNode(peer);
            }
            else
            {
                events.add(envelope);
            }
        });
        node.system.send(watcher, "watch");
        return watcher;
    }

    @Test
    void nodesConnectAndActorsTalkWithTheSameSendTheyUseLocally() throws Exception
    {
        cluster = TestCluster.of(2).startAll();
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final BlockingQueue<Envelope> atTwo = new LinkedBlockingQueue<>();
        final BlockingQueue<Envelope> atOne = new LinkedBlockingQueue<>();
        final ActorId remoteEcho = echo(two, atTwo);
        final ActorId localProbe = recorder(one, atOne);

        ActorSystemSpi.of(one.system).send(
            new Envelope(remoteEcho, localProbe, TestCluster.TEXT, Envelope.FLAG_TRACK_DELIVERY, 42L,
            "hello", null));

        final Envelope arrived = next(atTwo);
        assertThat(arrived.event()).isEqualTo("hello");
        assertThat(arrived.sender()).isEqualTo(localProbe);
        assertThat(arrived.cookie()).isEqualTo(42L);
        assertThat(arrived.isSerialized()).isTrue();
        final Envelope reply = next(atOne);
        assertThat(reply.event()).isEqualTo("echo:hello");
        assertThat(reply.sender()).isEqualTo(remoteEcho);

        assertThat(ask(one, remoteEcho, "ask me")).isEqualTo("echo:ask me");
    }

    @Test
    void aRemoteServiceIsResolvedByItsNodeAndAnUnknownActorComesBackUndelivered() throws Exception
    {
        cluster = TestCluster.of(2).startAll();
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final BlockingQueue<Envelope> atTwo = new LinkedBlockingQueue<>();
        final BlockingQueue<Envelope> atOne = new LinkedBlockingQueue<>();
        final ActorId service = echo(two, atTwo);
        two.system.registerService(ServiceId.of(0, "echo"), service);
        final ActorId probe = recorder(one, atOne);

        ActorSystemSpi.of(one.system).send(
            new Envelope(ServiceId.of(2, "echo"), probe, TestCluster.TEXT, 0, 1L, "via service", null));
        assertThat(next(atTwo).event()).isEqualTo("via service");
        assertThat(next(atOne).event()).isEqualTo("echo:via service");

        final ActorId nobody = ActorId.of(2, 987_654, 4_000);
        ActorSystemSpi.of(one.system).send(
            new Envelope(nobody, probe, TestCluster.TEXT, Envelope.FLAG_TRACK_DELIVERY, 7L, "lost", null));
        final Envelope notice = next(atOne);
        assertThat(notice.type()).isEqualTo(Undelivered.TYPE);
        assertThat(notice.event())
            .isEqualTo(new Undelivered(nobody, TestCluster.TEXT, 7L, UndeliveredReason.ACTOR_UNKNOWN, false));
    }

    @Test
    void aDriverOnItsOwnThreadTalksToADriverOnTheAgentsThreadAndItsGoodbyeIsSeenAtOnce() throws Exception
    {
        cluster = TestCluster.of(2);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        cluster.start(one, cluster.config(one).driverOnAgentThread(false).failureTimeout(PATIENT));
        cluster.start(two, cluster.config(two));
        cluster.awaitConnected(CONNECT);
        final ActorId remoteEcho = echo(two, new LinkedBlockingQueue<>());
        assertThat(ask(one, remoteEcho, "ask me")).isEqualTo("echo:ask me");
        final ActorId oneEcho = echo(one, new LinkedBlockingQueue<>());
        assertThat(ask(two, oneEcho, "and me")).isEqualTo("echo:and me");

        final long stoppedAt = System.nanoTime();
        cluster.stop(two); // its driver runs on the closing thread once the agent has stopped, to send the goodbye
        Await.until(() -> !one.interconnect.isConnected(2), "node 1 sees node 2 leave");
        assertThat(Duration.ofNanos(System.nanoTime() - stoppedAt))
            .as("the goodbye, long before node 1's %s failure timeout", PATIENT).isLessThan(PATIENT.dividedBy(2));
    }

    @Test
    void subscribersHearOfConnectAndDisconnectAndSendsToADownPeerFailFast() throws Exception
    {
        cluster = TestCluster.of(2);
        final TestCluster.Node one = cluster.node(1);
        cluster.start(one, cluster.config(one).failureTimeout(PATIENT));
        cluster.start(cluster.node(2), cluster.config(cluster.node(2)));
        cluster.awaitConnected(CONNECT);
        final BlockingQueue<Envelope> events = new LinkedBlockingQueue<>();
        final ActorId watcher = watcher(one, 2, events);
        assertThat(next(events).event()).isEqualTo(new NodeConnected(2));

        final long stoppedAt = System.nanoTime();
        cluster.stop(cluster.node(2));
        assertThat(next(events).event()).isEqualTo(new NodeDisconnected(2));
        assertThat(Duration.ofNanos(System.nanoTime() - stoppedAt))
            .as("the goodbye is seen at once, long before node 1's %s failure timeout", PATIENT)
            .isLessThan(PATIENT.dividedBy(2));

        ActorSystemSpi.of(one.system).send(
            new Envelope(ActorId.of(2, 1, 1), watcher, TestCluster.TEXT, Envelope.FLAG_TRACK_DELIVERY, 3L,
            "x", null));
        final Envelope notice = next(events);
        assertThat(((Undelivered)notice.event()).reason()).isEqualTo(UndeliveredReason.DISCONNECTED);
        assertThat(events.poll(200, TimeUnit.MILLISECONDS)).as("one notice per change").isNull();
    }

    @Test
    void aClosingInterconnectSendsWhatIsQueuedAndHasItAcknowledgedBeforeItsGoodbye() throws Exception
    {
        cluster = TestCluster.of(2).startAll();
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final AtomicInteger received = new AtomicInteger();
        final ActorId sink = one.system.register((ctx, envelope) -> received.incrementAndGet());
        final BlockingQueue<Envelope> notices = new LinkedBlockingQueue<>();
        final CountDownLatch sent = new CountDownLatch(1);
        final int count = 500;
        final ActorId sender = two.system.register((ctx, envelope) ->
        {
            if ("go".equals(envelope.event()))
            {
                for (long i = 0; i < count; i++)
                {
                    ctx.send(sink, "e" + i, TestCluster.TEXT, Envelope.FLAG_TRACK_DELIVERY, i);
                }
                sent.countDown();
            }
            else
            {
                notices.add(envelope);
            }
        });
        final BlockingQueue<Envelope> atOne = new LinkedBlockingQueue<>();
        final ActorId probe = watcher(one, 2, atOne);
        assertThat(next(atOne).event()).isEqualTo(new NodeConnected(2));
        two.system.send(sender, "go");
        Await.latch(sent, "node 2's sender done sending");

        two.interconnect.close(); // at once: most of the events are still queued

        assertThat(next(atOne).event()).isEqualTo(new NodeDisconnected(2));
        Await.until(() -> received.get() == count, CONNECT, "every event sent before the goodbye delivered");
        assertThat(notices.poll(200, TimeUnit.MILLISECONDS)).as("nothing reported undelivered").isNull();
    }

    @Test
    void aNodeWhoseSystemStoppedLeavesEventsUnacknowledgedSoTheirSendersReportThemWhenItSaysGoodbye() throws Exception
    {
        cluster = TestCluster.of(2).startAll();
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final ActorId sink = one.system.register((ctx, envelope) ->
        {
        });
        final BlockingQueue<Envelope> events = new LinkedBlockingQueue<>();
        final ActorId sender = two.system.register((ctx, envelope) ->
        {
            if ("go".equals(envelope.event()))
            {
                for (long i = 0; i < 10; i++)
                {
                    ctx.send(sink, "late" + i, TestCluster.TEXT, Envelope.FLAG_TRACK_DELIVERY, i);
                }
            }
            else
            {
                events.add(envelope);
            }
        });
        one.system.shutdown(Duration.ZERO); // node 1 takes no more events; its interconnect is still up
        two.system.send(sender, "go");
        Await.until(() -> one.interconnect.peerCounters().get(0).eventsIn() == 10, CONNECT, "all 10 arrived");

        one.interconnect.close();

        final Set<Long> reported = new HashSet<>();
        for (int i = 0; i < 10; i++)
        {
            final Envelope notice = next(events);
            assertThat(notice.event()).isInstanceOf(Undelivered.class);
            final Undelivered undelivered = (Undelivered)notice.event();
            assertThat(undelivered.reason()).isEqualTo(UndeliveredReason.DISCONNECTED);
            assertThat(undelivered.unsure()).isTrue();
            assertThat(reported.add(notice.cookie())).isTrue();
        }
        assertThat(events.poll(200, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void bothSidesMeasureTheRoundTripFromHeartbeatEchoesAndForgetItWhenTheSessionEnds()
    {
        cluster = TestCluster.of(2).startAll();
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);

        // a side measures once the peer echoed one of its heartbeats (50 ms apart here); let a second sample come
        Await.until(() -> one.interconnect.peerCounters().get(0).rttSmoothedNs() > 0 &&
            two.interconnect.peerCounters().get(0).rttSmoothedNs() > 0, CONNECT, "a round trip measured on both sides");
        final long firstAtOne = one.interconnect.peerCounters().get(0).rttLastNs();
        final long firstAtTwo = two.interconnect.peerCounters().get(0).rttLastNs();
        Await.until(() -> one.interconnect.peerCounters().get(0).rttLastNs() != firstAtOne &&
            two.interconnect.peerCounters().get(0).rttLastNs() != firstAtTwo,
            "another round trip measured on both sides");

        for (final TestCluster.Node node : cluster.nodes)
        {
            final PeerCounters counters = node.interconnect.peerCounters().get(0);
            // a sample longer than the failure timeout is ignored; how short a round trip is on loopback depends on
            // how loaded the machine is, so it is not asserted here (the arithmetic is: PeerRttTest)
            final long ceilingNs = cluster.config(node).failureTimeout().toNanos();
            assertThat(counters.connected()).isTrue();
            assertThat(counters.rttLastNs()).as("node %d last", node.id).isPositive().isLessThanOrEqualTo(ceilingNs);
            assertThat(counters.rttSmoothedNs()).as("node %d smoothed", node.id).isPositive()
                .isLessThanOrEqualTo(ceilingNs);
            assertThat(counters.rttMinNs()).as("node %d min", node.id).isPositive()
                .isLessThanOrEqualTo(counters.rttSmoothedNs()).isLessThanOrEqualTo(counters.rttLastNs());
        }

        cluster.stop(two);
        // the round trips are forgotten after the session is seen down (isConnected): wait for them, not for that
        Await.until(() ->
        {
            final PeerCounters afterwards = one.interconnect.peerCounters().get(0);
            return !afterwards.connected() && afterwards.rttLastNs() == 0 && afterwards.rttSmoothedNs() == 0 &&
                afterwards.rttMinNs() == 0;
        }, CONNECT, () -> "node 2 down and its round trips forgotten: " + one.interconnect.peerCounters().get(0));
    }

    @Test
    void aNodeWithTheWrongSecretIsRefusedAndCounted()
    {
        cluster = TestCluster.of(2);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        cluster.start(one, cluster.config(one));
        cluster.start(two, cluster.config(two).clusterSecret("another secret of 32 bytes here!".getBytes()));
        Await.until(() -> one.interconnect.peerCounters().get(0).handshakesRefused() > 0 ||
            two.interconnect.peerCounters().get(0).handshakesRefused() > 0, CONNECT, "a refusal");
        assertThat(one.interconnect.isConnected(2)).isFalse();
        assertThat(two.interconnect.isConnected(1)).isFalse();
    }

    @Test
    void anEventWithoutACodecIsRefusedAtSendWithAClearError()
    {
        cluster = TestCluster.of(2).startAll();
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        assertThatThrownBy(() -> one.interconnect.send(new Envelope(ActorId.of(2, 1, 1), ActorId.NONE, 99, 0, 0L, 3.14,
            null)))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("no codec");
        final String huge = "x".repeat(one.interconnect.largestEventBytes() + 1);
        assertThatThrownBy(() -> one.interconnect.send(new Envelope(ActorId.of(2, 1, 1), ActorId.NONE, TestCluster.TEXT,
            0, 0L, huge, null)))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("at most");
        assertThat(one.interconnect.isConnected(2)).as("never ends a session").isTrue();
    }
}
