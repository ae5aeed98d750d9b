package io.troupe.interconnect;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.Undelivered;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When a session ends, its counters are there before anyone can see the end: an actor told that its event was not
 * delivered (on a worker thread, while the interconnect's thread is still reporting the rest) finds the peer down,
 * the session's end counted, and every lost event reported so far counted too. No timing is involved: what the
 * agent counts before it reports happens before the report is handled.
 */
class SessionEndCountersTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int EVENTS = 2_000;
    private TestCluster cluster;

    @AfterEach
    void tearDown()
    {
        if (cluster != null)
        {
            cluster.close();
        }
    }

    @Test
    void anActorToldOfALostEventSeesThePeerDownAndTheLossCounted()
    {
        cluster = TestCluster.of(2).startAll();
        cluster.awaitConnected(WAIT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final ActorId sink = two.system.register((ctx, envelope) -> { });
        final List<String> inconsistent = new CopyOnWriteArrayList<>();
        final AtomicInteger unsure = new AtomicInteger();
        final AtomicInteger queued = new AtomicInteger();
        final String kilobyte = "x".repeat(1024);
        final ActorId sender = one.system.register((ctx, envelope) ->
        {
            if ("go".equals(envelope.event()))
            {
                for (int i = 0; i < EVENTS; i++)
                {
                    ctx.send(sink, kilobyte, TestCluster.TEXT, Envelope.FLAG_TRACK_DELIVERY, i);
                }
            }
            else if (envelope.event() instanceof Undelivered notice)
            {
                final int unsureSeen = notice.unsure() ? unsure.incrementAndGet() : unsure.get();
                final int queuedSeen = notice.unsure() ? queued.get() : queued.incrementAndGet();
                final PeerCounters peer = one.interconnect.peerCounters().get(0);
                if (peer.connected() || peer.sessionsDown() != 1 || peer.lostUnsure() < unsureSeen ||
                    peer.lostQueued() + peer.refusedDown() < queuedSeen)
                {
                    inconsistent.add("after " + unsureSeen + " unsure and " + queuedSeen + " queued notices: " + peer);
                }
            }
        });

        // node 2 goes without a word: what node 1 sends now is partly written (in flight, unacknowledged) and
        // partly still queued when its detector ends the session
        two.interconnect.kill();
        one.system.send(sender, "go");
        Await.until(() -> unsure.get() + queued.get() == EVENTS, WAIT,
            () -> "every event reported: " + unsure.get() + " unsure, " + queued.get() + " queued");

        assertThat(inconsistent).as("counters behind what was reported").isEmpty();
        assertThat(unsure.get()).as("some were in flight").isPositive();
        assertThat(queued.get()).as("some were still queued").isPositive();
    }
}
