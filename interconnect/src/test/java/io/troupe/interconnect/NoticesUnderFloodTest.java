package io.troupe.interconnect;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.FlowControlConfig;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With no credit accounts to hold a producer back, a flood keeps node 2's outbound queue to node 1 full; the
 * {@code Undelivered} notices node 2 owes node 1's senders still get through, in the room the queue keeps for
 * notices, so every tracked event ends reported.
 */
@Timeout(90)
class NoticesUnderFloodTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int TRACKED = 500;

    private final TestCluster cluster = TestCluster.of(2);

    @AfterEach
    void tearDown()
    {
        cluster.close();
    }

    @Test
    void everyTrackedEventIsReportedWhileAFloodKeepsTheQueueBackFull() throws Exception
    {
        cluster.flowControl = FlowControlConfig::disabled;
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        cluster.start(one, cluster.config(one));
        cluster.start(two, cluster.config(two).outboundQueueCapacity(256));
        cluster.awaitConnected(WAIT);

        final AtomicLong sunk = new AtomicLong();
        final ActorId sink = one.system.register((ctx, envelope) -> sunk.incrementAndGet());
        final AtomicBoolean flooding = new AtomicBoolean(true);
        final Thread flood = new Thread(() ->
        {
            while (flooding.get())
            {
                ActorSystemSpi.of(two.system).send(
                    new Envelope(sink, ActorId.NONE, TestCluster.TEXT, 0, 0L, "flood", null));
            }
        }, "flood");
        flood.start();
        try
        {
            Await.until(() -> two.interconnect.peerCounters().get(0).shed() > 10_000, WAIT,
                "node 2's queue to node 1 full");

            final Set<Long> reported = ConcurrentHashMap.newKeySet();
            final ActorId sender = one.system.register((ctx, envelope) ->
            {
                if (envelope.event() instanceof Undelivered notice)
                {
                    assertThat(notice.reason()).isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);
                    reported.add(notice.cookie());
                }
            });
            final ActorId nobody = ActorId.of(2, 987_654_321L, 0);
            for (long cookie = 1; cookie <= TRACKED; cookie++)
            {
                ActorSystemSpi.of(one.system).send(
                    new Envelope(nobody, sender, TestCluster.TEXT, Envelope.FLAG_TRACK_DELIVERY, cookie,
                    "to nobody", null));
            }
            Await.until(() -> reported.size() == TRACKED, WAIT, "every tracked event reported");
            assertThat(two.interconnect.peerCounters().get(0).shed()).as("the flood was shed meanwhile").isPositive();
        }
        finally
        {
            flooding.set(false);
            flood.join(10_000);
        }
        assertThat(sunk.get()).isPositive();
    }
}
