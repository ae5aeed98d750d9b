package io.troupe.interconnect;

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
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A peer that dies without a goodbye, tracked events in flight, and the peer's restart. */
@Timeout(90)
class FailureAndRestartTest
{
    private static final Duration CONNECT = Duration.ofSeconds(10);
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
    void aKilledPeerIsDeclaredDownWithin2sEveryTrackedEventIsAccountedForAndItsRestartReconnects() throws Exception
    {
        cluster = TestCluster.of(2);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        cluster.start(one, cluster.config(one).failureTimeout(Duration.ofMillis(1500)).heartbeatInterval(Duration.ofMillis(100)));
        cluster.start(two, cluster.config(two));
        cluster.awaitConnected(CONNECT);

        final Set<Long> delivered = ConcurrentHashMap.newKeySet();
        final ActorId sink = two.system.register((ctx, envelope) -> delivered.add(envelope.cookie()));
        final BlockingQueue<Envelope> events = new LinkedBlockingQueue<>();
        final ActorId sender = one.system.register((ctx, envelope) ->
        {
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
        assertThat(events.poll(10, TimeUnit.SECONDS).event()).isEqualTo(new NodeConnected(2));

        one.system.send(sender, "go");
        Await.until(() -> delivered.size() > 100, CONNECT, "some events delivered");
        final long killedAt = System.nanoTime();
        two.interconnect.kill();

        // exactly one outcome per tracked event: delivered, or an Undelivered notice
        final java.util.Map<Long, Boolean> undelivered = new java.util.HashMap<>();
        Envelope envelope;
        boolean down = false;
        long downAfterNs = 0;
        while ((envelope = events.poll(5, TimeUnit.SECONDS)) != null)
        {
            if (envelope.event() instanceof NodeDisconnected)
            {
                down = true;
                downAfterNs = System.nanoTime() - killedAt;
            }
            else if (envelope.event() instanceof Undelivered notice)
            {
                assertThat(notice.reason()).isEqualTo(UndeliveredReason.DISCONNECTED);
                assertThat(undelivered.put(envelope.cookie(), notice.unsure())).as("no duplicate notice").isNull();
            }
            if (down && accountedFor(delivered, undelivered.keySet()) == 2_000)
            {
                break;
            }
        }
        assertThat(down).as("declared down").isTrue();
        assertThat(Duration.ofNanos(downAfterNs)).as("declared down within 2 s").isLessThan(Duration.ofSeconds(2));
        assertThat(accountedFor(delivered, undelivered.keySet())).as("every tracked event accounted for").isEqualTo(2_000);
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
        assertThat(events.poll(10, TimeUnit.SECONDS).event()).isEqualTo(new NodeConnected(2));
        assertThat(one.interconnect.peerCounters().get(0).incarnation()).isNotEqualTo(oldIncarnation);
        final BlockingQueue<Object> fresh = new LinkedBlockingQueue<>();
        final ActorId newSink = two.system.register((ctx, e) -> fresh.add(e.event()));
        one.system.send(new Envelope(newSink, ActorId.NONE, TestCluster.TEXT, 0, 0L, "again", null));
        assertThat(fresh.poll(10, TimeUnit.SECONDS)).isEqualTo("again");
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
        assertThat(notices.poll(10, TimeUnit.SECONDS)).isEqualTo(new NodeConnected(1));

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
                notice = notices.poll(10, TimeUnit.SECONDS);
                assertThat(notice).as("restart " + restart + ": a notice").isNotNull();
            }
            while (!(notice instanceof NodeConnected));
            // sent the moment node 2 sees the new session up: the first event node 1's new driver can receive
            two.system.send(new Envelope(sink, ActorId.NONE, TestCluster.TEXT, 0, 0L, "first " + restart, null));
            assertThat(fresh.poll(5, TimeUnit.SECONDS)).as("restart " + restart).isEqualTo("first " + restart);
        }
    }
}
