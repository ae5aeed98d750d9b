package io.troupe.interconnect;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import io.troupe.testing.Await;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two nodes for attacks on the path, for tests: node 1 reaches node 2 through a {@link UdpRelay}; a sink on node 2
 * records the events it receives, a sender on node 1 sends tracked text events ({@code "event-NN"}, all of one
 * length) and records the {@link Undelivered} notices it gets back.
 */
final class RelayedPair implements AutoCloseable
{
    static final Duration WAIT = Duration.ofSeconds(15);

    final TestCluster cluster = TestCluster.of(2);
    final TestCluster.Node one = cluster.node(1);
    final TestCluster.Node two = cluster.node(2);
    final UdpRelay relay = new UdpRelay(two.port);
    final int dataStream;
    final BlockingQueue<Object> atSink = new LinkedBlockingQueue<>();
    final BlockingQueue<Undelivered> atSender = new LinkedBlockingQueue<>();
    final ActorId sink;
    final ActorId sender;

    RelayedPair()
    {
        cluster.start(two, cluster.config(two));
        cluster.start(one, cluster.config(one, Map.of(2, relay.port())));
        cluster.awaitConnected(WAIT);
        dataStream = cluster.config(one).dataStreamId();
        sink = two.system.register((ctx, envelope) -> atSink.add(envelope.event()));
        sender = one.system.register((ctx, envelope) ->
        {
            if (envelope.event() instanceof Undelivered notice)
            {
                atSender.add(notice);
            }
        });
    }

    static String text(final long cookie)
    {
        return String.format("event-%02d", cookie);
    }

    /** Sends event {@code cookie}, tracked, from the sender to the sink. */
    void send(final long cookie)
    {
        ActorSystemSpi.of(one.system).send(
            new Envelope(sink, sender, TestCluster.TEXT, Envelope.FLAG_TRACK_DELIVERY, cookie, text(cookie),
            null));
    }

    /**
     * Sends event 1, waits until the sink has it (and forgets it there), and returns the sealed data message that
     * carried it, as captured on the way.
     */
    byte[] deliverFirstEvent()
    {
        send(1);
        Await.until(() -> atSink.contains(text(1)), WAIT, "the first event delivered");
        atSink.remove(text(1));
        final List<UdpRelay.Captured> seen = relay.captured(dataStream);
        return seen.get(seen.size() - 1).message();
    }

    /**
     * Waits until each of the cookies has ended exactly once, as delivered or as an {@code Undelivered(DISCONNECTED)}
     * notice, and returns the outcome of each.
     */
    Map<Long, Object> awaitOutcomes(final List<Long> cookies)
    {
        final Map<Long, Object> outcomes = new HashMap<>();
        Await.until(() ->
        {
            Object delivered;
            while ((delivered = atSink.poll()) != null)
            {
                final long cookie = Long.parseLong(((String)delivered).substring(6));
                assertThat(cookies).as("only events sent are delivered: " + delivered).contains(cookie);
                assertThat(outcomes.put(cookie, delivered)).as("twice: " + delivered).isNull();
            }
            Undelivered notice;
            while ((notice = atSender.poll()) != null)
            {
                assertThat(notice.reason()).isEqualTo(UndeliveredReason.DISCONNECTED);
                assertThat(outcomes.put(notice.cookie(), notice)).as("twice: " + notice).isNull();
            }
            return outcomes.keySet().containsAll(cookies);
        }, WAIT, "an outcome for every event " + cookies);
        assertThat(outcomes).hasSize(cookies.size());
        return outcomes;
    }

    @Override
    public void close()
    {
        cluster.close();
        relay.close();
    }
}
