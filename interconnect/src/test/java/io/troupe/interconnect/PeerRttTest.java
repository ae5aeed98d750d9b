package io.troupe.interconnect;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The heartbeat echo's arithmetic on one peer, with times made up: no Aeron, no clock. */
class PeerRttTest
{
    private static final long TIMEOUT_NS = 1_000_000_000L;

    private final Peer peer = new Peer(new PeerAddress(2, "127.0.0.1", 40_002), true, null,
        new FailureDetector(50_000_000L, TIMEOUT_NS),
        new RetryBackoff(1_000_000L, 2_000_000L, new SplittableRandom(1)), new PeerSessionTest.RecordingIndex());

    @Test
    void aHeartbeatWithoutAnEchoIsRememberedAndMeasuresNothing()
    {
        peer.onHeartbeat(7_000L, 0, 0, 10_000_000L);

        assertThat(peer.peerHeartbeatSendTimeNs).isEqualTo(7_000L);
        assertThat(peer.peerHeartbeatReceivedNs).isEqualTo(10_000_000L);
        assertRtt(0, 0, 0);
    }

    @Test
    void theRoundTripIsTheTimeSinceOurHeartbeatLessThePeersHold()
    {
        // we sent at 1,000,000; the peer held our heartbeat 30 ms; its answer is read at 31,250,000
        peer.onHeartbeat(555L, 1_000_000L, 30_000_000L, 31_250_000L);
        assertRtt(250_000L, 250_000L, 250_000L);

        // 100 ms later: 170 us this time
        peer.onHeartbeat(666L, 101_000_000L, 40_000_000L, 141_170_000L);
        assertRtt(170_000L, 240_000L, 170_000L);
        assertThat(peer.peerHeartbeatSendTimeNs).isEqualTo(666L);
    }

    @Test
    void anEchoThatGivesNoPositiveRoundTripOrOneLongerThanTheTimeoutIsIgnored()
    {
        peer.onHeartbeat(1L, 1_000_000L, 0, 1_400_000L);

        peer.onHeartbeat(2L, 2_000_000L, 5_000_000L, 3_000_000L); // held longer than the whole trip
        peer.onHeartbeat(3L, 2_000_000L, 0, 2_000_000L);
        peer.onHeartbeat(4L, 2_000_000L, 0, 2_000_000L + TIMEOUT_NS + 1);

        assertRtt(400_000L, 400_000L, 400_000L);
        assertThat(peer.peerHeartbeatSendTimeNs).as("still echoed").isEqualTo(4L);
    }

    @Test
    void aLostSessionForgetsTheEchoAndTheRoundTrips()
    {
        peer.onHeartbeat(9L, 1_000_000L, 0, 1_300_000L);

        peer.resetRtt();

        assertThat(peer.peerHeartbeatSendTimeNs).isZero();
        assertThat(peer.peerHeartbeatReceivedNs).isZero();
        assertRtt(0, 0, 0);
        peer.onHeartbeat(10L, 5_000_000L, 0, 5_600_000L);
        assertRtt(600_000L, 600_000L, 600_000L);
    }

    private void assertRtt(final long lastNs, final long smoothedNs, final long minNs)
    {
        final PeerCounters counters = peer.counters();
        assertThat(counters.rttLastNs()).as("last").isEqualTo(lastNs);
        assertThat(counters.rttSmoothedNs()).as("smoothed").isEqualTo(smoothedNs);
        assertThat(counters.rttMinNs()).as("min").isEqualTo(minNs);
    }
}
