package io.troupe.interconnect;

import io.troupe.testing.Await;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

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
    @AutoClose
    private RelayedPair pair;

    @Test
    void aStreamStalledByAShortInjectedPacketEndsTheSessionAndEveryTrackedEventIsReported()
    {
        pair = new RelayedPair();
        final int genuineLength = pair.deliverFirstEvent().length;

        pair.relay.inject(pair.dataStream, new byte[genuineLength - 64]); // shorter than the genuine message after it
        for (int cookie = 2; cookie <= 4; cookie++)
        {
            pair.send(cookie);
        }
        Await.until(() -> pair.two.interconnect.counters().streamsStalled() == 1, RelayedPair.WAIT,
            "node 2 notices the stream standing");
        Await.until(() -> pair.one.interconnect.counters().publicationsRenewed() == 1, RelayedPair.WAIT,
            "node 1 renews what it sends on");
        pair.awaitOutcomes(List.of(2L, 3L, 4L));

        pair.cluster.awaitConnected(RelayedPair.WAIT);
        pair.send(5);
        Await.until(() -> pair.atSink.contains(RelayedPair.text(5)), RelayedPair.WAIT,
            "an event in the new session, on the new stream");
        assertThat(pair.two.interconnect.counters().streamsStalled()).isEqualTo(1);
        assertThat(pair.one.interconnect.counters().publicationsRenewed()).isEqualTo(1);
    }
}
