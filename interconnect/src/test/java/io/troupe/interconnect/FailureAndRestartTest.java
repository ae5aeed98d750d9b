package io.troupe.interconnect;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.testing.Await;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.NodeDisconnected;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** A peer that dies without a goodbye, tracked events in flight, and the peer's restart. */
@Timeout(90)
class FailureAndRestartTest
{
    private static final Duration CONNECT = Duration.ofSeconds(30);
    /** Node 1's failure detector in the kill test: heartbeats every 100 ms, down after 1.5 s (the defaults). */
    private static final Duration DETECTOR_TIMEOUT = Duration.ofMillis(1500);
    private TestCluster cluster;

    @AfterEach
    void tearDown()
    {
        if (cluster != null)
        {
            cluster.close();
        }
    }

    private static int accountedFor(final Set<Long> delivered, final Set<Long> undelivered)
    {
        final Set<Long> all = new HashSet<>(delivered);
        all.addAll(undelivered);
        return all.size();
    }

    @Test
    void aKilledPeerIsDeclaredDownByTheDetectorEveryTrackedEventIsAccountedForAndItsRestartReconnects() throws Exception
    {
        cluster = TestCluster.of(2);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        cluster.start(one, cluster.config(one).failureTimeout(DETECTOR_TIMEOUT)
            .heartbeatInterval(Duration.ofMillis(100)));
        cluster.start(two, cluster.config(two));
        cluster.awaitConnected(CONNECT);

        final Set<Long> delivered = ConcurrentHashMap.newKeySet();
        final ActorId sink = two.system.register((ctx, envelope) -> delivered.add(envelope.cookie()));
        final BlockingQueue<Envelope> events = new LinkedBlockingQueue<>();
        final AtomicLong downAtNs = new AtomicLong();
        final ActorId sender = one.system.register((ctx, envelope) ->
        {
            if (envelope.event() instanceof NodeDisconnected)
            {
                downAtNs.compareAndSet(0, System.nanoTime()); // when it is told, not when this thread gets to it
            }
            if ("watch".equals(envelope.event()))
            {
                ctx.subscribeToNode(2);
            }
            else if ("go".equals(envelope.event()))
            {
                for (long i = 0; i < 2_000; i++)
                {
                    ctx.send(sink, "e" + i, TestCluster.TEXT, Envelope.FLAG_TRACK_DELIVERY, i);
                }
            }
            else
            {
                events.add(envelope);
            }
        });
        one.system.send(sender, "watch");
        assertThat(Await.next(events).event()).isEqualTo(new NodeConnected(2));

        one.system.send(sender, "go");
        Await.until(() -> delivered.size() > 100, CONNECT, "some events delivered");
        final long killedAt = System.nanoTime();
        two.interconnect.kill();

        // exactly one outcome per tracked event: delivered, or an Undelivered notice
        final Map<Long, Boolean> undelivered = new HashMap<>();
        boolean down = false;
        while (!down || accountedFor(delivered, undelivered.keySet()) < 2_000)
        {
            final Envelope envelope = Await.next(events);
            if (envelope.event() instanceof NodeDisconnected)
            {
                down = true;
            }
            else if (envelope.event() instanceof Undelivered notice)
            {
                assertThat(notice.reason()).isEqualTo(UndeliveredReason.DISCONNECTED);
                assertThat(undelivered.put(envelope.cookie(), notice.unsure())).as("no duplicate notice").isNull();
            }
        }
        // the detector's exact bound (down between 1.5 s and 1.6 s after the last frame) is tested on clocks the tests
        // move (FailureDetectorTest, CallerDrivenAgentTest); here a loaded 2-core machine adds its agents' and
        // workers' lateness, seconds at worst
        assertThat(Duration.ofNanos(downAtNs.get() - killedAt))
            .as("declared down by the detector, about %s after the kill", DETECTOR_TIMEOUT)
            .isLessThan(Duration.ofSeconds(6));
        assertThat(accountedFor(delivered, undelivered.keySet())).as("every tracked event accounted for")
            .isEqualTo(2_000);
        for (final Long cookie : delivered)
        {
            if (undelivered.containsKey(cookie))
            {
                assertThat(undelivered.get(cookie)).as("delivered and reported: only as unsure").isTrue();
            }
        }

        // the peer comes back with a new incarnation, and traffic resumes
        two.system.close();
        two.system = null;
        final long oldIncarnation = one.interconnect.peerCounters().get(0).incarnation();
        cluster.start(two, cluster.config(two));
        assertThat(Await.next(events).event()).isEqualTo(new NodeConnected(2));
        assertThat(one.interconnect.peerCounters().get(0).incarnation()).isNotEqualTo(oldIncarnation);
        final BlockingQueue<Object> fresh = new LinkedBlockingQueue<>();
        final ActorId newSink = two.system.register((ctx, e) -> fresh.add(e.event()));
        ActorSystemSpi.of(one.system).send(new Envelope(newSink, ActorId.NONE, TestCluster.TEXT, 0, 0L, "again", null));
        assertThat(Await.next(fresh)).isEqualTo("again");
    }

    @Test
    void aPeerRestartedBeforeItWasMissedGetsTheFirstEventOfItsNewSession() throws Exception
    {
        // node 2 misses nobody for 20 s, so its publications to node 1 still count as connected (to the killed
        // driver) when node 1, the initiator, comes back and shakes hands anew: the new session may carry events
        // only once node 1's new driver hears those streams
        cluster = TestCluster.of(2);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        cluster.start(one, cluster.config(one));
        cluster.start(two, cluster.config(two).failureTimeout(Duration.ofSeconds(20)));
        cluster.awaitConnected(CONNECT);
        final BlockingQueue<Object> notices = new LinkedBlockingQueue<>();
        final ActorId watcher = two.system.register((ctx, envelope) ->
        {
            if ("watch".equals(envelope.event()))
            {
                ctx.subscribeToNode(1);
            }
            else
            {
                notices.add(envelope.event());
            }
        });
        two.system.send(watcher, "watch");
        assertThat(Await.next(notices)).isEqualTo(new NodeConnected(1));

        // three: the killed incarnations' images stay at node 2 until they time out, and an address may hold four
        // per stream (ImageGuard)
        for (int restart = 1; restart <= 3; restart++)
        {
            one.interconnect.kill();
            one.system.close();
            one.system = null;
            cluster.start(one, cluster.config(one));
            final BlockingQueue<Object> fresh = new LinkedBlockingQueue<>();
            final ActorId sink = one.system.register((ctx, e) -> fresh.add(e.event()));
            Object notice;
            do
            {
                notice = Await.next(notices);
            }
            while (!(notice instanceof NodeConnected));
            // sent the moment node 2 sees the new session up: the first event node 1's new driver can receive
            ActorSystemSpi.of(two.system).send(
                new Envelope(sink, ActorId.NONE, TestCluster.TEXT, 0, 0L, "first " + restart, null));
            assertThat(Await.next(fresh)).as("restart " + restart).isEqualTo("first " + restart);
        }
    }
}
