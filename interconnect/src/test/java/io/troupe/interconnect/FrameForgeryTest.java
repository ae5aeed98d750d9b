package io.troupe.interconnect;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.testing.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an attacker who sees the traffic between two nodes can do to it, at the node level: node 1 reaches node 2
 * through a {@link UdpRelay}, which reads every Aeron frame on the way and injects hand-built ones into node 1's
 * genuine Aeron session at its next offset, from an unrelated socket (the attack that delivered a forged event
 * before frames were sealed). Forged, tampered, replayed and unsealed messages are dropped and counted by reason;
 * none reaches an actor; and because each took the offset of a genuine message, which the receiving driver then
 * discards as a duplicate, the stream is no longer whole: node 2 ends the session at the next verified message,
 * and node 1 reports every tracked event it had in flight, so nothing is lost silently.
 */
@Timeout(90)
class FrameForgeryTest
{
    private static final Duration CONNECT = Duration.ofSeconds(15);
    /** Every event's text has this length, so every message of one event has the same length on the wire. */
    private static final String FORMAT = "event-%02d";

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
    void forgedTamperedReplayedAndUnsealedMessagesInTheGenuineSessionAreDroppedAndNothingIsLostSilently()
    {
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        relay = new UdpRelay(two.port);
        cluster.start(two, cluster.config(two));
        cluster.start(one, cluster.config(one, Map.of(2, relay.port())));
        cluster.awaitConnected(CONNECT);
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

        // a genuine event, captured on the way: a sealed data message of one envelope
        send(one, sink, sender, 1);
        Await.until(() -> atSink.contains(text(1)), CONNECT, "the first event delivered");
        atSink.remove(text(1));
        final List<UdpRelay.Captured> seen = relay.captured(dataStream);
        final byte[] genuine = seen.get(seen.size() - 1).message();
        assertThat(FrameSeal.keyId(new UnsafeBuffer(genuine), 0, genuine.length)).as("sealed").isNotNegative();

        // three forgeries of exactly its length, each taking the next offset of node 1's data stream
        final byte[] tampered = genuine.clone();
        tampered[genuine.length - FrameSeal.TAG - 1] ^= 0x01; // the last byte of the event's text
        relay.inject(dataStream, tampered);
        relay.inject(dataStream, genuine); // a replay
        relay.inject(dataStream, unsealedEnvelope(sink, genuine.length));
        Await.until(() -> two.interconnect.rejectedFrames(FrameRejection.BAD_TAG) >= 1 &&
            two.interconnect.rejectedFrames(FrameRejection.REPLAYED) >= 1 &&
            two.interconnect.rejectedFrames(FrameRejection.UNSEALED) >= 1, CONNECT, "each forgery dropped and counted");
        assertThat(one.interconnect.isConnected(2)).as("forgeries change no session").isTrue();
        assertThat(two.interconnect.isConnected(1)).isTrue();

        // the next genuine messages land on the offsets the forgeries took: their driver drops them as duplicates,
        // and the first verified message after them skips sequence numbers, which ends the session
        for (int cookie = 2; cookie <= 5; cookie++)
        {
            final int before = relay.captured(dataStream).size();
            send(one, sink, sender, cookie);
            Await.until(() -> relay.captured(dataStream).size() > before, CONNECT, "event " + cookie + " on the wire");
        }
        Await.until(() -> two.interconnect.rejectedFrames(FrameRejection.SEQUENCE_GAP) >= 1, CONNECT,
            "the gap noticed");

        // every tracked event ends exactly once: delivered, or reported to its sender
        final Map<Long, Object> outcomes = new HashMap<>();
        Await.until(() ->
        {
            Object delivered;
            while ((delivered = atSink.poll()) != null)
            {
                assertThat(delivered).as("only genuine events are delivered").isIn(text(2), text(3), text(4), text(5));
                final long cookie = Long.parseLong(((String)delivered).substring(6));
                assertThat(outcomes.put(cookie, delivered)).as("twice: " + delivered).isNull();
            }
            Undelivered notice;
            while ((notice = atSender.poll()) != null)
            {
                assertThat(notice.reason()).isEqualTo(UndeliveredReason.DISCONNECTED);
                assertThat(outcomes.put(notice.cookie(), notice)).as("twice: " + notice).isNull();
            }
            return outcomes.keySet().containsAll(List.of(2L, 3L, 4L, 5L));
        }, CONNECT, "an outcome for every event");
        assertThat(outcomes).hasSize(4);

        // and the nodes make a new session, in which events flow again
        cluster.awaitConnected(CONNECT);
        send(one, sink, sender, 6);
        Await.until(() -> atSink.contains(text(6)), CONNECT, "an event in the new session");
        assertThat(atSink).doesNotContain(text(1)); // the replayed first event was never delivered again
        assertThat(two.system.counters().handlerFailures()).isZero();
    }

    private static void send(final TestCluster.Node from, final ActorId to, final ActorId sender, final long cookie)
    {
        from.system.send(new Envelope(to, sender, TestCluster.TEXT, Envelope.FLAG_TRACK_DELIVERY, cookie, text(cookie),
            null));
    }

    private static String text(final long cookie)
    {
        return String.format(FORMAT, cookie);
    }

    /** A data-stream message of one envelope for the sink, as the interconnect packs it, but with no seal. */
    private static byte[] unsealedEnvelope(final ActorId sink, final int length)
    {
        final int payloadLength = length - OutboundBatch.LENGTH_PREFIX - io.troupe.serialization.wire.WireFormat.envelopeLength(0);
        final byte[] payload = new byte[payloadLength];
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[length]);
        final int frameLength = new FrameEncoder().encodeEnvelope(buffer, OutboundBatch.LENGTH_PREFIX,
            new Envelope(sink, ActorId.NONE, TestCluster.TEXT, 0, 0L, "forged", null), 0, 0L, 1,
            new UnsafeBuffer(payload), 0, payload.length);
        buffer.putInt(0, frameLength, ByteOrder.LITTLE_ENDIAN);
        return buffer.byteArray();
    }
}
