package io.troupe.interconnect;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FailureDetectorTest
{
    private static final long MS = 1_000_000L;
    private static final long HEARTBEAT_NS = new InterconnectConfig().heartbeatInterval().toNanos();
    private static final long TIMEOUT_NS = new InterconnectConfig().failureTimeout().toNanos();
    private static final long[] STARTS_NS = {0, 123_456_789L, -5_000 * MS, Long.MAX_VALUE - 1_000 * MS, Long.MIN_VALUE};

    private final FailureDetector detector = new FailureDetector(HEARTBEAT_NS, TIMEOUT_NS);

    @Test
    void theDefaultsAreTheOnesTheRequirementsAreStatedFor()
    {
        assertThat(HEARTBEAT_NS).isEqualTo(100 * MS);
        assertThat(TIMEOUT_NS).isEqualTo(1_500 * MS);
    }

    @Test
    void aDeadPeerIsDeclaredDownWithinTwoSecondsOfItsLastFrame()
    {
        for (final long startNs : STARTS_NS)
        {
            for (long checkPhaseNs = 0; checkPhaseNs < HEARTBEAT_NS; checkPhaseNs += 7 * MS)
            {
                final FailureDetector fd = new FailureDetector(HEARTBEAT_NS, TIMEOUT_NS);
                fd.reset(startNs);
                long lastFrameNs = startNs;
                for (int i = 1; i <= 30; i++)
                {
                    lastFrameNs = startNs + i * HEARTBEAT_NS;
                    fd.onHeard(lastFrameNs);
                }

                // the peer dies after its last frame; the agent checks every heartbeat interval
                long downNs = 0;
                boolean down = false;
                for (long nowNs = lastFrameNs + checkPhaseNs; nowNs - (lastFrameNs + 3_000 * MS) < 0;
                    nowNs += HEARTBEAT_NS)
                {
                    if (!fd.isAlive(nowNs))
                    {
                        downNs = nowNs;
                        down = true;
                        break;
                    }
                }

                assertThat(down).as("start %d, phase %d", startNs, checkPhaseNs).isTrue();
                assertThat(downNs - lastFrameNs).as("start %d, phase %d", startNs, checkPhaseNs)
                    .isGreaterThan(TIMEOUT_NS)
                    .isLessThanOrEqualTo(TIMEOUT_NS + HEARTBEAT_NS)
                    .isLessThanOrEqualTo(2_000 * MS);
            }
        }
    }

    @Test
    void aOneSecondStallOfAHealthyPeerCausesNoFalseDown()
    {
        for (final long startNs : STARTS_NS)
        {
            final FailureDetector fd = new FailureDetector(HEARTBEAT_NS, TIMEOUT_NS);
            final SplittableRandom random = new SplittableRandom(startNs);
            fd.reset(startNs);
            final long stallStartNs = startNs + 2_000 * MS;
            final long stallEndNs = stallStartNs + 1_000 * MS;
            final long endNs = stallEndNs + 2_000 * MS;
            long nextFrameNs = startNs + HEARTBEAT_NS;

            // the agent checks every millisecond; frames come every 100 ms +- 20 ms except during the stall
            for (long nowNs = startNs; nowNs - endNs < 0; nowNs += MS)
            {
                if (nowNs - nextFrameNs >= 0)
                {
                    final boolean stalled = nowNs - stallStartNs > 0 && nowNs - stallEndNs < 0;
                    if (!stalled)
                    {
                        fd.onHeard(nowNs);
                    }
                    nextFrameNs = stalled ? stallEndNs : nowNs + HEARTBEAT_NS + (random.nextLong(41) - 20) * MS;
                }
                assertThat(fd.isAlive(nowNs)).as("start %d, at %d ms", startNs, (nowNs - startNs) / MS).isTrue();
            }

            assertThat(fd.maxInterArrivalNs()).as("the stall shows in the statistics")
                .isGreaterThanOrEqualTo(1_000 * MS)
                .isLessThan(TIMEOUT_NS);
        }
    }

    @Test
    void silenceOfExactlyTheTimeoutIsStillAliveAndOneNanosecondMoreIsDown()
    {
        for (final long startNs : STARTS_NS)
        {
            detector.reset(startNs);

            assertThat(detector.isAlive(startNs + TIMEOUT_NS - 1)).isTrue();
            assertThat(detector.isAlive(startNs + TIMEOUT_NS)).isTrue();
            assertThat(detector.silenceNs(startNs + TIMEOUT_NS)).isEqualTo(TIMEOUT_NS);
            assertThat(detector.isAlive(startNs + TIMEOUT_NS + 1)).isFalse();
            assertThat(detector.silenceNs(startNs + TIMEOUT_NS + 1)).isEqualTo(TIMEOUT_NS + 1);
        }
    }

    @Test
    void anyFrameHeardPushesTheDeadlineOut()
    {
        detector.reset(0);
        detector.onHeard(1_000 * MS);

        assertThat(detector.isAlive(1_000 * MS + TIMEOUT_NS)).isTrue();
        assertThat(detector.isAlive(1_000 * MS + TIMEOUT_NS + 1)).isFalse();
        assertThat(detector.lastHeardNs()).isEqualTo(1_000 * MS);
        assertThat(detector.silenceNs(1_250 * MS)).isEqualTo(250 * MS);
    }

    @Test
    void downIsNotLatchedAPeerHeardAgainIsAlive()
    {
        detector.reset(0);
        assertThat(detector.isAlive(TIMEOUT_NS + 1)).isFalse();

        detector.onHeard(TIMEOUT_NS + 2);

        assertThat(detector.isAlive(TIMEOUT_NS + 2)).isTrue();
        assertThat(detector.silenceNs(TIMEOUT_NS + 2)).isZero();
    }

    @Test
    void aPeerNeverHeardIsNotAlive()
    {
        assertThat(detector.isAlive(0)).isFalse();
        assertThat(detector.isAlive(Long.MIN_VALUE)).isFalse();
        assertThat(detector.silenceNs(0)).isEqualTo(Long.MAX_VALUE);
        assertThat(detector.lastInterArrivalNs()).isZero();
        assertThat(detector.maxInterArrivalNs()).isZero();

        detector.onHeard(-7);

        assertThat(detector.isAlive(-7)).isTrue();
        assertThat(detector.lastHeardNs()).isEqualTo(-7);
        assertThat(detector.maxInterArrivalNs()).as("one frame has no gap").isZero();
    }

    @Test
    void timeGoingBackwardsIsNoSilenceAndNeverDeclaresDown()
    {
        detector.reset(10_000 * MS);

        assertThat(detector.isAlive(10_000 * MS - 1)).isTrue();
        assertThat(detector.silenceNs(10_000 * MS - 1)).isZero();
        assertThat(detector.isAlive(0)).isTrue();
        assertThat(detector.silenceNs(-1_000_000 * MS)).isZero();
        assertThat(detector.isAlive(10_000 * MS - Long.MAX_VALUE)).as("as far back as can be").isTrue();
        assertThat(detector.silenceNs(10_000 * MS - Long.MAX_VALUE)).isZero();

        detector.onHeard(5_000 * MS);

        assertThat(detector.lastHeardNs()).as("the later time is kept").isEqualTo(10_000 * MS);
        assertThat(detector.lastInterArrivalNs()).isZero();
        assertThat(detector.maxInterArrivalNs()).isZero();
        assertThat(detector.isAlive(10_000 * MS + TIMEOUT_NS)).isTrue();
        assertThat(detector.isAlive(10_000 * MS + TIMEOUT_NS + 1)).isFalse();
    }

    @Test
    void comparisonsSurviveTheClockWrappingAround()
    {
        final long lastNs = Long.MAX_VALUE - 10;
        detector.reset(lastNs);

        assertThat(lastNs + TIMEOUT_NS).as("the deadline wraps").isNegative();
        assertThat(detector.isAlive(lastNs + TIMEOUT_NS)).isTrue();
        assertThat(detector.silenceNs(lastNs + TIMEOUT_NS)).isEqualTo(TIMEOUT_NS);
        assertThat(detector.isAlive(lastNs + TIMEOUT_NS + 1)).isFalse();
        assertThat(detector.isAlive(Long.MAX_VALUE)).isTrue();
        assertThat(detector.isAlive(Long.MIN_VALUE)).as("11 ns later, past the wrap").isTrue();
        assertThat(detector.silenceNs(Long.MIN_VALUE)).isEqualTo(11);

        detector.reset(Long.MIN_VALUE);
        assertThat(detector.isAlive(Long.MAX_VALUE)).as("1 ns back, across the wrap").isTrue();
        assertThat(detector.silenceNs(Long.MAX_VALUE)).isZero();

        detector.onHeard(Long.MIN_VALUE + 5);
        assertThat(detector.lastInterArrivalNs()).isEqualTo(5);
    }

    @Test
    void theLongestTimeoutNeverOverflows()
    {
        final FailureDetector patient = new FailureDetector(1, Long.MAX_VALUE);
        patient.reset(0);

        assertThat(patient.isAlive(Long.MAX_VALUE)).isTrue();
        assertThat(patient.silenceNs(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(patient.isAlive(Long.MIN_VALUE)).as("2^63 ns later reads as 2^63 ns earlier").isTrue();
        assertThat(patient.heartbeatDue(Long.MAX_VALUE)).isTrue();
    }

    @Test
    void heartbeatsAreDueEveryInterval()
    {
        detector.reset(0);
        assertThat(detector.heartbeatDue(0)).as("a new session sends one at once").isTrue();

        detector.onHeartbeatSent(0);
        assertThat(detector.heartbeatDue(0)).isFalse();
        assertThat(detector.heartbeatDue(HEARTBEAT_NS - 1)).isFalse();
        assertThat(detector.heartbeatDue(HEARTBEAT_NS)).isTrue();

        detector.onHeartbeatSent(HEARTBEAT_NS + 3 * MS);
        assertThat(detector.heartbeatDue(2 * HEARTBEAT_NS)).as("counted from the one sent").isFalse();
        assertThat(detector.heartbeatDue(2 * HEARTBEAT_NS + 3 * MS)).isTrue();
        assertThat(detector.heartbeatDue(-1_000 * MS)).as("clock went back").isFalse();

        detector.onHeard(2 * HEARTBEAT_NS);
        assertThat(detector.heartbeatDue(2 * HEARTBEAT_NS)).as("frames heard do not replace heartbeats sent")
            .isFalse();

        detector.reset(2 * HEARTBEAT_NS);
        assertThat(detector.heartbeatDue(2 * HEARTBEAT_NS)).isTrue();
    }

    @Test
    void heartbeatsSentEveryIntervalAcrossTheWrap()
    {
        final long startNs = Long.MAX_VALUE - HEARTBEAT_NS / 2;
        detector.reset(startNs);
        int sent = 0;
        for (long nowNs = startNs; nowNs - (startNs + 1_000 * MS) < 0; nowNs += MS)
        {
            if (detector.heartbeatDue(nowNs))
            {
                detector.onHeartbeatSent(nowNs);
                sent++;
            }
        }

        assertThat(sent).isEqualTo(10);
    }

    @Test
    void interArrivalStatisticsKeepTheLastAndTheLongestGap()
    {
        detector.reset(0);
        detector.onHeard(100 * MS);
        assertThat(detector.lastInterArrivalNs()).as("counted from the reset").isEqualTo(100 * MS);

        detector.onHeard(900 * MS);
        detector.onHeard(950 * MS);
        assertThat(detector.lastInterArrivalNs()).isEqualTo(50 * MS);
        assertThat(detector.maxInterArrivalNs()).isEqualTo(800 * MS);

        detector.onHeard(950 * MS);
        assertThat(detector.lastInterArrivalNs()).as("same duty cycle").isZero();
        assertThat(detector.maxInterArrivalNs()).isEqualTo(800 * MS);

        detector.reset(2_000 * MS);
        assertThat(detector.lastInterArrivalNs()).as("a new session starts afresh").isZero();
        assertThat(detector.maxInterArrivalNs()).isZero();
        assertThat(detector.isAlive(2_000 * MS)).isTrue();
    }

    @Test
    void intervalAndTimeoutMustBePositive()
    {
        assertThatThrownBy(() -> new FailureDetector(0, TIMEOUT_NS))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("heartbeatIntervalNs");
        assertThatThrownBy(() -> new FailureDetector(HEARTBEAT_NS, -1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeoutNs");
        assertThat(detector.heartbeatIntervalNs()).isEqualTo(HEARTBEAT_NS);
        assertThat(detector.timeoutNs()).isEqualTo(TIMEOUT_NS);
    }
}
