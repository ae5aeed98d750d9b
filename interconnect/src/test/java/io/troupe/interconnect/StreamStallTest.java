package io.troupe.interconnect;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An on-path attacker injects, at the next offset of node 1's data stream, a packet shorter than the genuine
 * message that comes next. The receiving driver takes the short one; the genuine message is then a duplicate of
 * an occupied offset, and the bytes between the two ends are a hole that no retransmission fills: the stream
 * stands still for good while heartbeats on the control stream keep the session alive. Node 2 notices the stream
 * standing with data received beyond it ({@link StreamStallWatch}), ends the session, and node 1 reports the
 * tracked events stuck behind the hole and renews its publications, so a new session carries events again.
 */
@Timeout(90)
class StreamStallTest
{
    private static final Duration WAIT = Duration.ofSeconds(15);

    private final TestCluster cluster = TestCluster.of(2);
    private UdpRelay relay;

    @AfterEach
    void tearDown()
    {
        cluster.close();
        if (relay != null)
        {
            relay.close();
        }
    }

    @Test
    void aStreamStalledByAShortInjectedPacketEndsTheSessionAndEveryTrackedEventIsReported()
    {
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        relay = new UdpRelay(two.port);
        cluster.start(two, cluster.config(two));
        cluster.start(one, cluster.config(one, Map.of(2, relay.port())));
        cluster.awaitConnected(WAIT);
        final int dataStream = cluster.config(one).dataStreamId();

        final BlockingQueue<Object> atSink = new LinkedBlockingQueue<>();
        final ActorId sink = two.system.register((ctx, envelope) -> atSink.add(envelope.event()));
        final BlockingQueue<Undelivered> atSender = new LinkedBlockingQueue<>();
        final ActorId sender = one.system.register((ctx, envelope) ->
        {
            if (envelope.event() instanceof Undelivered notice)
            {
                atSender.add(notice);
            }
        });
        send(one, sink, sender, 1);
        Await.until(() -> atSink.contains("event-1"), WAIT, "the first event delivered");
        atSink.clear();
        final List<UdpRelay.Captured> seen = relay.captured(dataStream);
        final int genuineLength = seen.get(seen.size() - 1).message().length;

        relay.inject(dataStream, new byte[genuineLength - 64]); // shorter than the genuine message after it
        for (int cookie = 2; cookie <= 4; cookie++)
        {
            send(one, sink, sender, cookie);
        }
        Await.until(() -> two.interconnect.streamsStalled() == 1, WAIT, "node 2 notices the stream standing");
        Await.until(() -> one.interconnect.publicationsRenewed() == 1, WAIT, "node 1 renews what it sends on");

        final Map<Long, Object> outcomes = new HashMap<>();
        Await.until(() ->
        {
            Object delivered;
            while ((delivered = atSink.poll()) != null)
            {
                final long cookie = Long.parseLong(((String)delivered).substring(6));
                assertThat(outcomes.put(cookie, delivered)).as("twice: " + delivered).isNull();
            }
            Undelivered notice;
            while ((notice = atSender.poll()) != null)
            {
                assertThat(notice.reason()).isEqualTo(UndeliveredReason.DISCONNECTED);
                assertThat(outcomes.put(notice.cookie(), notice)).as("twice: " + notice).isNull();
            }
            return outcomes.keySet().containsAll(List.of(2L, 3L, 4L));
        }, WAIT, "an outcome for every event behind the hole");
        assertThat(outcomes).hasSize(3);

        cluster.awaitConnected(WAIT);
        send(one, sink, sender, 5);
        Await.until(() -> atSink.contains("event-5"), WAIT, "an event in the new session, on the new stream");
        assertThat(two.interconnect.streamsStalled()).isEqualTo(1);
        assertThat(one.interconnect.publicationsRenewed()).isEqualTo(1);
    }

    private static void send(final TestCluster.Node from, final ActorId to, final ActorId sender, final long cookie)
    {
        from.system.send(new Envelope(to, sender, TestCluster.TEXT, Envelope.FLAG_TRACK_DELIVERY, cookie,
            "event-" + cookie, null));
    }
}
