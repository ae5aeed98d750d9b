package io.troupe.broker;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OverloadMeterTest
{
    private static final long MS = 1_000_000L;
    private static final long TARGET_NS = 100 * MS;
    private static final long INTERVAL_NS = 1_000 * MS;
    private static final long T0 = 5_000_000_000L;
    /** While raised the meter asks for an update this often: the target (between 1 ms and the interval). */
    private static final long RECHECK_NS = TARGET_NS;

    private final BrokerMetrics metrics = new BrokerMetrics();
    private final RecordingMeterOutput output = new RecordingMeterOutput();
    private final OverloadMeter meter =
        (OverloadMeter)OverloadMeterSpec.of(Duration.ofNanos(TARGET_NS), Duration.ofNanos(INTERVAL_NS)).newMeter(T0);

    private long update(final long nowNs, final long sojournNs)
    {
        return meter.update(nowNs, metrics.messageQueueSojournNs(sojournNs), output);
    }

    private void raiseAt(final long firstAboveNs)
    {
        update(firstAboveNs, 2 * TARGET_NS);
        update(firstAboveNs + INTERVAL_NS, 2 * TARGET_NS);
        assertThat(meter.isRaised()).isTrue();
        output.alarms.clear();
    }

    @Test
    void startsClearAndSilentWithNoTimedUpdate()
    {
        assertThat(meter.isRaised()).isFalse();
        assertThat(meter.alarmName()).isEqualTo("overload");
        assertThat(update(T0, 0)).isEqualTo(Long.MAX_VALUE);
        assertThat(update(T0 + MS, TARGET_NS)).as("at the target is not above").isEqualTo(Long.MAX_VALUE);
        assertThat(output.alarms).isEmpty();
        assertThat(output.sent).isEmpty();
    }

    @Test
    void spikeShorterThanIntervalRaisesNothing()
    {
        assertThat(update(T0, 3 * TARGET_NS)).isEqualTo(T0 + INTERVAL_NS);
        assertThat(update(T0 + 500 * MS, 5 * TARGET_NS)).isEqualTo(T0 + INTERVAL_NS);
        assertThat(update(T0 + 999 * MS, TARGET_NS / 2)).isEqualTo(Long.MAX_VALUE);
        assertThat(update(T0 + INTERVAL_NS, TARGET_NS / 2)).isEqualTo(Long.MAX_VALUE);

        // above again: the interval counts from the new first sample above, not the old one
        assertThat(update(T0 + 1_200 * MS, 2 * TARGET_NS)).isEqualTo(T0 + 1_200 * MS + INTERVAL_NS);
        assertThat(update(T0 + 2_100 * MS, 2 * TARGET_NS)).isEqualTo(T0 + 1_200 * MS + INTERVAL_NS);

        assertThat(meter.isRaised()).isFalse();
        assertThat(output.alarms).isEmpty();
    }

    @Test
    void raisesExactlyAtFirstAbovePlusInterval()
    {
        assertThat(update(T0, TARGET_NS + 1)).isEqualTo(T0 + INTERVAL_NS);
        assertThat(update(T0 + INTERVAL_NS - 1, 2 * TARGET_NS)).isEqualTo(T0 + INTERVAL_NS);
        assertThat(meter.isRaised()).isFalse();

        // the timed update the meter asked for, with no new message; raised, it asks for a re-check
        assertThat(update(T0 + INTERVAL_NS, 2 * TARGET_NS)).isEqualTo(T0 + INTERVAL_NS + RECHECK_NS);

        assertThat(meter.isRaised()).isTrue();
        assertThat(output.alarms).containsExactly(new RecordingMeterOutput.Alarm("overload", true, T0 + INTERVAL_NS));
    }

    @Test
    void clearsOnlyAfterStayingBelowForAnInterval()
    {
        raiseAt(T0);
        final long t1 = T0 + 3 * INTERVAL_NS;

        assertThat(update(t1, TARGET_NS / 2)).isEqualTo(t1 + INTERVAL_NS);
        // a lull shorter than the interval ends with a sample above: nothing changes
        assertThat(update(t1 + 500 * MS, 2 * TARGET_NS)).isEqualTo(t1 + 500 * MS + RECHECK_NS);
        assertThat(update(t1 + INTERVAL_NS, 2 * TARGET_NS)).isEqualTo(t1 + INTERVAL_NS + RECHECK_NS);
        assertThat(meter.isRaised()).isTrue();

        final long t2 = t1 + 600 * MS;
        assertThat(update(t2, 0)).isEqualTo(t2 + INTERVAL_NS);
        assertThat(update(t2 + INTERVAL_NS - 1, TARGET_NS)).isEqualTo(t2 + INTERVAL_NS);
        assertThat(meter.isRaised()).isTrue();
        assertThat(update(t2 + INTERVAL_NS, TARGET_NS)).isEqualTo(Long.MAX_VALUE);

        assertThat(meter.isRaised()).isFalse();
        assertThat(output.alarms).containsExactly(new RecordingMeterOutput.Alarm("overload", false, t2 + INTERVAL_NS));
    }

    @Test
    void aRaisedAlarmClearsOnTimeWhenTheBrokerGoesIdle()
    {
        raiseAt(T0);
        final long lastRequestNs = T0 + INTERVAL_NS + 50 * MS;
        long dueNs = update(lastRequestNs, 3 * TARGET_NS);
        assertThat(dueNs).isEqualTo(lastRequestNs + RECHECK_NS);
        // no request ever again: the broker's timers follow what the meter asks; the first timer after a request
        // keeps the last sojourn (-1 from the driver), later ones report an empty mailbox (0)
        dueNs = meter.update(dueNs, metrics, output);
        int timers = 1;
        while (meter.isRaised())
        {
            assertThat(timers++).as("timers before the alarm clears").isLessThan(10);
            dueNs = meter.update(dueNs, metrics.messageQueueSojournNs(0), output);
        }
        assertThat(output.alarms).singleElement().satisfies(alarm ->
        {
            assertThat(alarm.raised()).isFalse();
            assertThat(alarm.nowNs()).isLessThanOrEqualTo(lastRequestNs + 2 * RECHECK_NS + INTERVAL_NS);
        });
        assertThat(dueNs).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void exactlyOneCallPerChange()
    {
        // 10 ms batches for 10 s: above for 3 s, below for 3 s, above for 0.5 s, below for the rest
        for (long t = 0; t < 10_000 * MS; t += 10 * MS)
        {
            final boolean above = t < 3_000 * MS || (t >= 6_000 * MS && t < 6_500 * MS);
            update(T0 + t, above ? 2 * TARGET_NS : 0);
        }

        assertThat(output.alarms).containsExactly(
            new RecordingMeterOutput.Alarm("overload", true, T0 + INTERVAL_NS),
            new RecordingMeterOutput.Alarm("overload", false, T0 + 3_000 * MS + INTERVAL_NS));
        assertThat(meter.isRaised()).isFalse();
    }

    @Test
    void worksAcrossANegativeClockAndUsesItsAlarmName()
    {
        final OverloadMeter named =
            (OverloadMeter)new OverloadMeterSpec(Duration.ZERO, Duration.ofNanos(INTERVAL_NS), "broker-7-slow")
            .newMeter(-1L);
        final long start = -INTERVAL_NS / 2;

        assertThat(named.update(start, metrics.messageQueueSojournNs(1), output)).isEqualTo(start + INTERVAL_NS);
        assertThat(named.update(start + INTERVAL_NS, metrics, output))
            .as("raised, it re-checks: target 0 gives the 1 ms minimum")
            .isEqualTo(start + INTERVAL_NS + OverloadMeter.RECHECK_MIN_NS);

        assertThat(named.isRaised()).isTrue();
        assertThat(output.alarms)
            .containsExactly(new RecordingMeterOutput.Alarm("broker-7-slow", true, start + INTERVAL_NS));
    }

    @Test
    void freshMeterFromTheSameSpecStartsClear()
    {
        final OverloadMeterSpec spec = OverloadMeterSpec.of(Duration.ofNanos(TARGET_NS), Duration.ofNanos(INTERVAL_NS));
        final OverloadMeter first = (OverloadMeter)spec.newMeter(T0);
        first.update(T0, metrics.messageQueueSojournNs(2 * TARGET_NS), output);
        first.update(T0 + INTERVAL_NS, metrics, output);

        assertThat(first.isRaised()).isTrue();
        assertThat(((OverloadMeter)spec.newMeter(T0 + INTERVAL_NS)).isRaised()).isFalse();
    }

    @Test
    void specHasDefaultsAndRejectsBadArguments()
    {
        final OverloadMeterSpec spec = OverloadMeterSpec.of(
            OverloadMeterSpec.DEFAULT_TARGET, OverloadMeterSpec.DEFAULT_INTERVAL);
        assertThat(spec.alarmName()).isEqualTo(OverloadMeterSpec.DEFAULT_ALARM_NAME).isEqualTo("overload");
        assertThat(spec.target()).isEqualTo(Duration.ofMillis(100));
        assertThat(spec.interval()).isEqualTo(Duration.ofSeconds(1));

        final Duration second = Duration.ofSeconds(1);
        assertThatThrownBy(() -> OverloadMeterSpec.of(null, second))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("OverloadMeterSpec.target must be a duration at least 0 and at most 3650 days, was null");
        assertThatThrownBy(() -> OverloadMeterSpec.of(Duration.ofMillis(-1), second))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("OverloadMeterSpec.target must be at least 0 and at most 3650 days, was PT-0.001S");
        assertThatThrownBy(() -> OverloadMeterSpec.of(second, Duration.ZERO))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("OverloadMeterSpec.interval must be positive and at most 3650 days, was PT0S");
        assertThatThrownBy(() -> OverloadMeterSpec.of(second, Duration.ofDays(3651)))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("OverloadMeterSpec.interval must be positive and at most 3650 days, was PT");
        assertThatThrownBy(() -> new OverloadMeterSpec(second, second, null))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("OverloadMeterSpec.alarmName must be a non-blank name, was null");
        assertThatThrownBy(() -> new OverloadMeterSpec(second, second, " "))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("OverloadMeterSpec.alarmName must be a non-blank name, was \" \"");
    }

    /** A message-queue sojourn sample some time after the previous one. */
    record Sample(long gapMs, long sojournMs)
    {
    }

    /** Samples of one sojourn, repeated: runs long enough to change the alarm now and then. */
    record Run(long sojournMs, int count, long gapMs)
    {
    }

    @Provide
    Arbitrary<List<Sample>> samples()
    {
        final Arbitrary<Run> run = Combinators.combine(
            Arbitraries.of(0L, 50L, 100L, 101L, 250L),
            Arbitraries.integers().between(1, 12),
            Arbitraries.longs().between(1, 400)).as(Run::new);
        return run.list().ofMinSize(1).ofMaxSize(40).map(runs ->
        {
            final List<Sample> samples = new ArrayList<>();
            for (final Run r : runs)
            {
                for (int i = 0; i < r.count(); i++)
                {
                    samples.add(new Sample(r.gapMs(), r.sojournMs()));
                }
            }
            return samples;
        });
    }

    /**
     * Drives the meter like a broker (batches at the sampled times, timed updates at the times the meter asks
     * for, with the last sojourn) and checks it against a model: the alarm changes at exactly the first
     * opposite sample plus the interval when no agreeing sample came before that time, once per change.
     */
    @Property(tries = 300)
    void changesExactlyWhenTheOppositeHeldForAnInterval(@ForAll("samples") final List<Sample> samples)
    {
        // jqwik shares the container instance between tries: a fresh meter and output for each
        final OverloadMeter meter =
            (OverloadMeter)OverloadMeterSpec.of(Duration.ofNanos(TARGET_NS), Duration.ofNanos(INTERVAL_NS))
            .newMeter(T0);
        final RecordingMeterOutput output = new RecordingMeterOutput();
        final List<RecordingMeterOutput.Alarm> expected = new ArrayList<>();
        boolean modelRaised = false;
        boolean modelPending = false;
        long modelSinceNs = 0;

        long nowNs = T0;
        long dueNs = Long.MAX_VALUE;
        long sojournNs = 0;
        for (final Sample sample : samples)
        {
            final long sampleNs = nowNs + sample.gapMs() * MS;
            while (dueNs < sampleNs)
            {
                // the broker's timed update: nothing new arrived, the sojourn is the last one; either a pending
                // change takes effect, or (raised) a re-check that changes nothing
                final long atNs = dueNs;
                if (modelPending)
                {
                    assertThat(atNs).isEqualTo(modelSinceNs + INTERVAL_NS);
                    modelRaised = !modelRaised;
                    modelPending = false;
                    expected.add(new RecordingMeterOutput.Alarm("overload", modelRaised, atNs));
                }
                dueNs = meter.update(atNs, metrics.messageQueueSojournNs(sojournNs), output);
                assertThat(dueNs).isEqualTo(modelRaised ? atNs + RECHECK_NS : Long.MAX_VALUE);
            }
            nowNs = sampleNs;
            sojournNs = sample.sojournMs() * MS;

            final boolean above = sojournNs > TARGET_NS;
            if (above == modelRaised)
            {
                modelPending = false;
            }
            else if (!modelPending)
            {
                modelPending = true;
                modelSinceNs = nowNs;
            }
            if (modelPending && nowNs - modelSinceNs >= INTERVAL_NS)
            {
                modelRaised = !modelRaised;
                modelPending = false;
                expected.add(new RecordingMeterOutput.Alarm("overload", modelRaised, nowNs));
            }
            dueNs = meter.update(nowNs, metrics.messageQueueSojournNs(sojournNs), output);
            assertThat(dueNs).isEqualTo(modelPending ? modelSinceNs + INTERVAL_NS :
                modelRaised ? nowNs + RECHECK_NS : Long.MAX_VALUE);
            assertThat(meter.isRaised()).isEqualTo(modelRaised);
        }

        assertThat(output.alarms).containsExactlyElementsOf(expected);
        for (int i = 0; i < output.alarms.size(); i++)
        {
            assertThat(output.alarms.get(i).raised()).as("alarms alternate, starting raised").isEqualTo(i % 2 == 0);
        }
        Statistics.label("changes").collect(Math.min(output.alarms.size(), 3));
        Statistics.label("changes").coverage(checker -> checker.check(3).percentage(p -> p >= 5));
    }
}
