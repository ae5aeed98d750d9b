package io.troupe.interconnect;

import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.serialization.wire.WireFormat;
import io.troupe.testing.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.util.List;

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
    @AutoClose
    private RelayedPair pair;

    @Test
    void forgedTamperedReplayedAndUnsealedMessagesInTheGenuineSessionAreDroppedAndNothingIsLostSilently()
    {
        pair = new RelayedPair();
        final TestCluster.Node two = pair.two;
        final UdpRelay relay = pair.relay;
        final int dataStream = pair.dataStream;

        // a genuine event, captured on the way: a sealed data message of one envelope
        final byte[] genuine = pair.deliverFirstEvent();
        assertThat(FrameSeal.keyId(new UnsafeBuffer(genuine), 0, genuine.length)).as("sealed").isNotNegative();

        // three forgeries of exactly its length, each taking the next offset of node 1's data stream
        final byte[] tampered = genuine.clone();
        tampered[genuine.length - FrameSeal.TAG - 1] ^= 0x01; // the last byte of the event's text
        relay.inject(dataStream, tampered);
        relay.inject(dataStream, genuine); // a replay
        relay.inject(dataStream, unsealedEnvelope(pair.sink, genuine.length));
        Await.until(() -> two.interconnect.counters().rejectedFrames(FrameRejection.BAD_TAG) >= 1 &&
            two.interconnect.counters().rejectedFrames(FrameRejection.REPLAYED) >= 1 &&
            two.interconnect.counters().rejectedFrames(FrameRejection.UNSEALED) >= 1, RelayedPair.WAIT,
            "each forgery dropped and counted");
        assertThat(pair.one.interconnect.isConnected(2)).as("forgeries change no session").isTrue();
        assertThat(two.interconnect.isConnected(1)).isTrue();

        // the next genuine messages land on the offsets the forgeries took: their driver drops them as duplicates,
        // and the first verified message after them skips sequence numbers, which ends the session
        for (int cookie = 2; cookie <= 5; cookie++)
        {
            final int before = relay.captured(dataStream).size();
            pair.send(cookie);
            Await.until(() -> relay.captured(dataStream).size() > before, RelayedPair.WAIT,
                "event " + cookie + " on the wire");
        }
        Await.until(() -> two.interconnect.counters().rejectedFrames(FrameRejection.SEQUENCE_GAP) >= 1,
            RelayedPair.WAIT, "the gap noticed");

        // every tracked event ends exactly once: delivered, or reported to its sender
        pair.awaitOutcomes(List.of(2L, 3L, 4L, 5L));

        // and the nodes make a new session, in which events flow again
        pair.cluster.awaitConnected(RelayedPair.WAIT);
        pair.send(6);
        Await.until(() -> pair.atSink.contains(RelayedPair.text(6)), RelayedPair.WAIT, "an event in the new session");
        assertThat(pair.atSink).doesNotContain(RelayedPair.text(1)); // the replayed first event never came again
        assertThat(two.system.counters().handlerFailures()).isZero();
    }

    /** A data-stream message of one envelope for the sink, as the interconnect packs it, but with no seal. */
    private static byte[] unsealedEnvelope(final ActorId sink, final int length)
    {
        final int payloadLength = length - OutboundBatch.LENGTH_PREFIX - WireFormat.envelopeLength(0);
        final byte[] payload = new byte[payloadLength];
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[length]);
        final int frameLength = new FrameEncoder().encodeEnvelope(buffer, OutboundBatch.LENGTH_PREFIX,
            new Envelope(sink, ActorId.NONE, TestCluster.TEXT, 0, 0L, "forged", null), 0, 0L, 1,
            new UnsafeBuffer(payload), 0, payload.length);
        buffer.putInt(0, frameLength, ByteOrder.LITTLE_ENDIAN);
        return buffer.byteArray();
    }
}
