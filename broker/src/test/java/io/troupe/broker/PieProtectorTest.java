package io.troupe.broker;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class PieProtectorTest
{
    private static final long MS = 1_000_000L;
    private static final long TARGET_NS = 100 * MS;
    private static final long INTERVAL_NS = 30 * MS;
    private static final long T0 = 7_000_000_000L;

    private final BrokerMetrics metrics = new BrokerMetrics();
    private final RecordingMeterOutput output = new RecordingMeterOutput();
    private final Protection protection = new Protection();

    private PieProtector meter(final int min, final int max)
    {
        return (PieProtector)new PieProtectorSpec(
            Duration.ofNanos(TARGET_NS), Duration.ofNanos(INTERVAL_NS), min, max, protection).newMeter(T0);
    }

    /** Queues {@code length} requests on a side, the oldest sent at {@code headSentNs}. */
    private void queue(final Side side, final int length, final long headSentNs)
    {
        side.queue(metrics).set(length, 0, 0, length == 0 ? Long.MIN_VALUE : headSentNs, 0, 0);
    }

    /** Runs interval after interval with the head's sojourn held at {@code sojournNs}; returns the time. */
    private long holdSojourn(final PieProtector meter, final long fromNs, final int intervals, final long sojournNs)
    {
        long nowNs = fromNs;
        for (int i = 0; i < intervals; i++)
        {
            nowNs += INTERVAL_NS;
            queue(Side.ASK, 5, nowNs - sojournNs);
            assertThat(meter.update(nowNs, metrics, output)).isEqualTo(nowNs + INTERVAL_NS);
        }
        return nowNs;
    }

    @Test
    void startsAtZeroAndAsksForAnUpdateEveryInterval()
    {
        protection.publish(Side.ASK, 0.5);
        final PieProtector meter = meter(0, Integer.MAX_VALUE);

        assertThat(protection.probability(Side.ASK)).as("a new meter resets the protection").isZero();
        assertThat(protection.probability(Side.ASK_R)).isZero();
        assertThat(meter.update(T0, metrics, output)).isEqualTo(T0 + INTERVAL_NS);
        assertThat(meter.update(T0 + INTERVAL_NS, metrics, output)).isEqualTo(T0 + 2 * INTERVAL_NS);
        assertThat(output.sent).isEmpty();
        assertThat(output.alarms).isEmpty();
    }

    @Test
    void risesWhileTheSojournIsAboveTarget()
    {
        final PieProtector meter = meter(0, Integer.MAX_VALUE);
        long nowNs = T0;
        double previous = 0;
        while (meter.dropProbability(Side.ASK) < 1.0)
        {
            nowNs = holdSojourn(meter, nowNs, 1, 2 * TARGET_NS);
            final double p = meter.dropProbability(Side.ASK);
            assertThat(p).isGreaterThan(previous);
            assertThat(protection.probability(Side.ASK)).isEqualTo(p);
            previous = p;
            assertThat(nowNs - T0).as("reaches 1 while above target").isLessThan(20 * INTERVAL_NS);
        }
        assertThat(meter.dropProbability(Side.ASK_R)).as("the other side is empty").isZero();
        assertThat(protection.probability(Side.ASK_R)).isZero();
    }

    @Test
    void stepsOnlyOncePerInterval()
    {
        final PieProtector meter = meter(0, Integer.MAX_VALUE);
        final long nowNs = holdSojourn(meter, T0, 6, 2 * TARGET_NS);
        final double p = meter.dropProbability(Side.ASK);
        assertThat(p).isBetween(0.1, 0.99);

        // batches within the interval: the sojourn keeps growing but PIE waits for the interval
        for (long t = nowNs + MS; t < nowNs + INTERVAL_NS; t += 5 * MS)
        {
            assertThat(meter.update(t, metrics, output)).isEqualTo(nowNs + INTERVAL_NS);
            assertThat(meter.dropProbability(Side.ASK)).isEqualTo(p);
        }
        meter.update(nowNs + INTERVAL_NS, metrics, output);
        assertThat(meter.dropProbability(Side.ASK)).isGreaterThan(p);
    }

    @Test
    void followsTheAutoTunedPieUpdate()
    {
        final PieProtector meter = meter(0, Integer.MAX_VALUE);
        // head sojourn 300 ms from the first update on: RFC 8033's steps, with delays measured in targets
        double expected = 0;
        long qdelayOld = 0;
        long nowNs = T0;
        for (int i = 0; i < 4; i++)
        {
            nowNs = holdSojourn(meter, nowNs, 1, 3 * TARGET_NS);
            final double delta = PieProtectorSpec.ALPHA * 2 + PieProtectorSpec.BETA * (3 * TARGET_NS - qdelayOld) /
                (double)TARGET_NS;
            final double divisor = expected < 0.000001 ? 2048 : expected < 0.01 ? 8 : expected < 0.1 ? 2 : 1;
            expected = Math.min(1.0, expected + delta / divisor);
            qdelayOld = 3 * TARGET_NS;
            assertThat(meter.dropProbability(Side.ASK)).isCloseTo(expected, within(1e-12));
        }
        assertThat(expected).as("the test walked through the tuning bands").isBetween(0.1, 1.0);
    }

    @Test
    void reachesCertaintyWithinAFewIntervalsWhenNothingMatches()
    {
        // the circuit breaker: requests keep arriving, none is matched, the oldest only ages
        final PieProtector meter = meter(0, Integer.MAX_VALUE);
        long nowNs = T0;
        int intervals = 0;
        int length = 0;
        while (meter.dropProbability(Side.ASK) < 0.99)
        {
            nowNs = meter.update(nowNs, metrics, output);
            length += 10;
            queue(Side.ASK, length, T0);
            intervals++;
            assertThat(intervals).as("intervals to reach 0.99").isLessThanOrEqualTo(6);
        }
        meter.update(nowNs, metrics, output);
        assertThat(protection.probability(Side.ASK)).isGreaterThanOrEqualTo(0.99);
        assertThat(protection.shouldShortCircuit(Side.ASK, 0.98)).isTrue();
        assertThat(protection.shouldShortCircuit(Side.ASK_R, 0.0)).as("workers are not held back").isFalse();
    }

    @Test
    void fallsBackToZeroWhenBelowTarget()
    {
        final PieProtector meter = meter(0, Integer.MAX_VALUE);
        long nowNs = holdSojourn(meter, T0, 20, 3 * TARGET_NS);
        assertThat(meter.dropProbability(Side.ASK)).isEqualTo(1.0);

        int intervals = 0;
        while (protection.probability(Side.ASK) > 0)
        {
            nowNs = holdSojourn(meter, nowNs, 1, TARGET_NS / 2);
            intervals++;
            assertThat(intervals).as("intervals back to 0").isLessThanOrEqualTo(20);
        }
        assertThat(meter.dropProbability(Side.ASK)).isZero();
    }

    @Test
    void fallsBackToZeroWhenEmptyAndDecaysThere()
    {
        final PieProtector meter = meter(0, Integer.MAX_VALUE);
        long nowNs = holdSojourn(meter, T0, 20, 3 * TARGET_NS);
        assertThat(meter.dropProbability(Side.ASK)).isEqualTo(1.0);

        queue(Side.ASK, 0, 0);
        int intervals = 0;
        while (protection.probability(Side.ASK) > 0)
        {
            nowNs += INTERVAL_NS;
            meter.update(nowNs, metrics, output);
            intervals++;
            assertThat(intervals).as("intervals back to 0").isLessThanOrEqualTo(5);
        }
        assertThat(meter.dropProbability(Side.ASK)).isZero();
    }

    @Test
    void decaysByTwoPercentOnlyWhenTheQueueStaysEmpty()
    {
        final double p = 0.5;
        assertThat(PieProtector.nextProbability(p, 0, 0, TARGET_NS))
            .isCloseTo((p - PieProtectorSpec.ALPHA) * 0.98, within(1e-12));
        assertThat(PieProtector.nextProbability(p, 0, 1, TARGET_NS)).as("emptied since the last update: no decay")
            .isCloseTo(p - PieProtectorSpec.ALPHA - PieProtectorSpec.BETA / TARGET_NS, within(1e-12));
        assertThat(PieProtector.nextProbability(p, TARGET_NS, TARGET_NS, TARGET_NS)).as("at target, steady")
            .isEqualTo(p);

        // the way back from certainty once the queue is empty, whatever the delay before it emptied
        int slowest = 0;
        for (long qdelayOldNs = 0; qdelayOldNs <= 4 * TARGET_NS; qdelayOldNs += MS)
        {
            double probability = 1.0;
            long previousNs = qdelayOldNs;
            int intervals = 0;
            while (probability > 0)
            {
                probability = PieProtector.nextProbability(probability, 0, previousNs, TARGET_NS);
                previousNs = 0;
                intervals++;
            }
            slowest = Math.max(slowest, intervals);
            if (qdelayOldNs >= 2 * TARGET_NS)
            {
                assertThat(intervals).as("drained from twice the target").isEqualTo(1);
            }
        }
        assertThat(slowest).as("intervals from 1 to 0 with an empty queue").isEqualTo(9);
    }

    @Test
    void autoTuningShrinksStepsWhileTheProbabilityIsSmall()
    {
        assertThat(PieProtector.autoTuneDivisor(0.0)).isEqualTo(2048);
        assertThat(PieProtector.autoTuneDivisor(0.000001)).isEqualTo(512);
        assertThat(PieProtector.autoTuneDivisor(0.00001)).isEqualTo(128);
        assertThat(PieProtector.autoTuneDivisor(0.0001)).isEqualTo(32);
        assertThat(PieProtector.autoTuneDivisor(0.001)).isEqualTo(8);
        assertThat(PieProtector.autoTuneDivisor(0.01)).isEqualTo(2);
        assertThat(PieProtector.autoTuneDivisor(0.0999)).isEqualTo(2);
        assertThat(PieProtector.autoTuneDivisor(0.1)).isEqualTo(1);
        assertThat(PieProtector.autoTuneDivisor(1.0)).isEqualTo(1);

        assertThat(PieProtector.nextProbability(0.0, 10 * TARGET_NS, 0, TARGET_NS)).as("clamped step from 0")
            .isCloseTo((PieProtectorSpec.ALPHA * 9 + PieProtectorSpec.BETA * 10) / 2048, within(1e-12));
        assertThat(PieProtector.nextProbability(0.9, 10 * TARGET_NS, 0, TARGET_NS)).isEqualTo(1.0);
        assertThat(PieProtector.nextProbability(0.05, 0, 10 * TARGET_NS, TARGET_NS)).isZero();
    }

    @Test
    void sidesAreIndependent()
    {
        final PieProtector meter = meter(0, Integer.MAX_VALUE);
        long nowNs = T0;
        for (int i = 0; i < 10; i++)
        {
            nowNs += INTERVAL_NS;
            queue(Side.ASK_R, 3, nowNs - 3 * TARGET_NS);
            queue(Side.ASK, 0, 0);
            meter.update(nowNs, metrics, output);
        }
        assertThat(meter.dropProbability(Side.ASK_R)).isEqualTo(1.0);
        assertThat(protection.probability(Side.ASK_R)).isEqualTo(1.0);
        assertThat(meter.dropProbability(Side.ASK)).isZero();
        assertThat(protection.probability(Side.ASK)).isZero();
    }

    @Test
    void belowMinNothingIsShortCircuitedAtMaxEverything()
    {
        final PieProtector meter = meter(3, 10);
        long nowNs = T0;
        for (int i = 0; i < 4; i++)
        {
            nowNs += INTERVAL_NS;
            queue(Side.ASK, 2, nowNs - 2 * TARGET_NS);
            meter.update(nowNs, metrics, output);
        }
        final double p = meter.dropProbability(Side.ASK);
        assertThat(p).as("PIE runs below min").isBetween(0.01, 0.99);
        assertThat(protection.probability(Side.ASK)).as("length 2 < min 3").isZero();

        // the length rules apply at every batch, not only at PIE's interval
        queue(Side.ASK, 3, nowNs - 2 * TARGET_NS);
        meter.update(nowNs + MS, metrics, output);
        assertThat(protection.probability(Side.ASK)).as("min <= length 3 < max").isEqualTo(p);

        queue(Side.ASK, 10, nowNs - 2 * TARGET_NS);
        meter.update(nowNs + 2 * MS, metrics, output);
        assertThat(protection.probability(Side.ASK)).as("length 10 >= max").isEqualTo(1.0);
        assertThat(meter.dropProbability(Side.ASK)).isEqualTo(p);

        queue(Side.ASK_R, 12, nowNs);
        meter.update(nowNs + 3 * MS, metrics, output);
        assertThat(meter.dropProbability(Side.ASK_R)).isZero();
        assertThat(protection.probability(Side.ASK_R)).as("max applies whatever PIE says").isEqualTo(1.0);

        queue(Side.ASK, 9, nowNs - 2 * TARGET_NS);
        meter.update(nowNs + 4 * MS, metrics, output);
        assertThat(protection.probability(Side.ASK)).isEqualTo(p);
    }

    @Test
    void shortCircuitsByProbability()
    {
        protection.publish(Side.ASK, 0.25);
        assertThat(protection.shouldShortCircuit(Side.ASK, 0.0)).isTrue();
        assertThat(protection.shouldShortCircuit(Side.ASK, 0.2499)).isTrue();
        assertThat(protection.shouldShortCircuit(Side.ASK, 0.25)).isFalse();
        assertThat(protection.shouldShortCircuit(Side.ASK, 0.9)).isFalse();

        assertThat(protection.shouldShortCircuit(Side.ASK_R, 0.0)).as("probability 0: never").isFalse();
        assertThat(protection.shouldShortCircuit(Side.ASK_R)).isFalse();

        protection.publish(Side.ASK_R, 1.0);
        assertThat(protection.shouldShortCircuit(Side.ASK_R, Math.nextDown(1.0))).as("probability 1: always").isTrue();
        assertThat(protection.shouldShortCircuit(Side.ASK_R)).isTrue();

        int shortCircuited = 0;
        for (int i = 0; i < 10_000; i++)
        {
            shortCircuited += protection.shouldShortCircuit(Side.ASK) ? 1 : 0;
        }
        assertThat(shortCircuited).isBetween(2_000, 3_000);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void protectionIsReadFromAnotherThread() throws InterruptedException
    {
        final PieProtector meter = meter(0, Integer.MAX_VALUE);
        final AtomicReference<Double> seen = new AtomicReference<>();
        final Thread client = new Thread(() ->
        {
            // no happens-before edge with the writer until join: the opaque read must see the write by itself
            while (!protection.shouldShortCircuit(Side.ASK, Math.nextDown(1.0)))
            {
                Thread.onSpinWait();
            }
            seen.set(protection.probability(Side.ASK));
        }, "pie-client");
        client.start();

        long nowNs = T0;
        for (int i = 0; i < 20; i++)
        {
            nowNs += INTERVAL_NS;
            queue(Side.ASK, 5, nowNs - 3 * TARGET_NS);
            meter.update(nowNs, metrics, output);
        }
        client.join();

        assertThat(seen.get()).isEqualTo(1.0);
    }

    @Test
    void specHasDefaultsAndRejectsBadArguments()
    {
        final PieProtectorSpec spec = PieProtectorSpec.of(protection);
        assertThat(spec.target()).isEqualTo(Duration.ofMillis(100));
        assertThat(spec.interval()).isEqualTo(Duration.ofMillis(30));
        assertThat(spec.min()).isZero();
        assertThat(spec.max()).isEqualTo(Integer.MAX_VALUE);
        assertThat(spec.protection()).isSameAs(protection);

        final Duration ms = Duration.ofMillis(1);
        assertThatThrownBy(() -> new PieProtectorSpec(Duration.ZERO, ms, 0, 1, protection))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("PieProtectorSpec.target must be positive and at most 3650 days, was PT0S");
        assertThatThrownBy(() -> new PieProtectorSpec(ms, null, 0, 1, protection))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("PieProtectorSpec.interval must be a duration positive and at most 3650 days, was null");
        assertThatThrownBy(() -> new PieProtectorSpec(ms, ms, -1, 1, protection))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("PieProtectorSpec.min must be a queue length of at least 0, was -1");
        assertThatThrownBy(() -> new PieProtectorSpec(ms, ms, 4, 4, protection))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("PieProtectorSpec.max must be a queue length greater than min (4), " +
                "Integer.MAX_VALUE for no maximum, was 4");
        assertThatThrownBy(() -> new PieProtectorSpec(ms, ms, 0, 1, null))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("PieProtectorSpec.protection must be a Protection, was null");
    }
}
