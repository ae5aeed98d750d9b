package io.troupe.broker;

import io.troupe.actor.ActorId;
import io.troupe.actor.EventTypes;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UpdateMeterTest
{
    private static final long MS = 1_000_000L;
    private static final long PERIOD_NS = 100 * MS;
    private static final long T0 = 3_000_000_000L;
    private static final ActorId REGULATOR = ActorId.of(0, 42, 7);

    private final BrokerMetrics metrics = new BrokerMetrics();
    private final RecordingMeterOutput output = new RecordingMeterOutput();

    private static Meter meter(final Side side, final long seed)
    {
        return new UpdateMeterSpec(REGULATOR, side, Duration.ofNanos(PERIOD_NS), seed).newMeter(T0);
    }

    /** Drives a meter at the times it asks for, with updates in between; returns the send times. */
    private List<Long> sendTimes(final Meter meter, final int sends)
    {
        final List<Long> times = new ArrayList<>();
        long nowNs = T0;
        long dueNs = meter.update(nowNs, metrics, output);
        while (times.size() < sends)
        {
            // batches before the due time send nothing and keep the due time
            final int before = output.sent.size();
            assertThat(meter.update(dueNs - 1, metrics, output)).isEqualTo(dueNs);
            assertThat(output.sent).hasSize(before);

            nowNs = dueNs;
            dueNs = meter.update(nowNs, metrics, output);
            assertThat(output.sent).hasSize(before + 1);
            assertThat(dueNs).isGreaterThan(nowNs);
            times.add(nowNs);
        }
        return times;
    }

    @Test
    void sendsAtRandomisedTimesWithinHalfToOneAndAHalfPeriods()
    {
        final List<Long> times = sendTimes(meter(Side.ASK, 1L), 1_000);

        long previous = T0;
        long shortest = Long.MAX_VALUE;
        long longest = 0;
        for (final long t : times)
        {
            final long gap = t - previous;
            assertThat(gap).isBetween(PERIOD_NS / 2, PERIOD_NS + PERIOD_NS / 2);
            shortest = Math.min(shortest, gap);
            longest = Math.max(longest, gap);
            previous = t;
        }
        // uniform, not fixed: the gaps spread over most of the range and average one period
        assertThat(shortest).isLessThan(55 * MS);
        assertThat(longest).isGreaterThan(145 * MS);
        assertThat((double)(previous - T0) / times.size()).isBetween(0.95 * PERIOD_NS, 1.05 * PERIOD_NS);
    }

    @Test
    void sendsTheChosenQueuesLastRelativeTimeToTheRegulator()
    {
        metrics.ask().set(1, 5 * MS, 17 * MS, T0, 9, 0);
        metrics.askR().set(0, 2 * MS, -17 * MS, Long.MIN_VALUE, 9, 0);

        sendTimes(meter(Side.ASK, 5L), 1);
        metrics.ask().set(0, 5 * MS, -3 * MS, Long.MIN_VALUE, 10, 0);
        sendTimes(meter(Side.ASK, 5L), 1);
        sendTimes(meter(Side.ASK_R, 5L), 1);

        assertThat(output.sent).containsExactly(
            new RecordingMeterOutput.Sent(REGULATOR, new RegulatorUpdate(17 * MS), RegulatorUpdate.TYPE),
            new RecordingMeterOutput.Sent(REGULATOR, new RegulatorUpdate(-3 * MS), RegulatorUpdate.TYPE),
            new RecordingMeterOutput.Sent(REGULATOR, new RegulatorUpdate(-17 * MS), RegulatorUpdate.TYPE));
        assertThat(output.alarms).isEmpty();
    }

    @Test
    void firstSendIsOneRandomIntervalAfterTheStart()
    {
        final Meter meter = meter(Side.ASK_R, 9L);
        final long firstNs = meter.update(T0, metrics, output);

        assertThat(firstNs - T0).isBetween(PERIOD_NS / 2, PERIOD_NS + PERIOD_NS / 2);
        assertThat(output.sent).isEmpty();
    }

    @Test
    void aLateUpdateSendsOnceAndCountsTheNextIntervalFromThen()
    {
        final Meter meter = meter(Side.ASK, 3L);
        final long dueNs = meter.update(T0, metrics, output);
        final long lateNs = dueNs + 10 * PERIOD_NS;

        final long nextNs = meter.update(lateNs, metrics, output);

        assertThat(output.sent).hasSize(1);
        assertThat(nextNs - lateNs).isBetween(PERIOD_NS / 2, PERIOD_NS + PERIOD_NS / 2);
    }

    @Test
    void sameSeedSameTimesOtherSeedOtherTimes()
    {
        final List<Long> first = sendTimes(meter(Side.ASK, 123L), 50);
        final List<Long> again = sendTimes(meter(Side.ASK, 123L), 50);
        final List<Long> other = sendTimes(meter(Side.ASK, 124L), 50);

        assertThat(again).isEqualTo(first);
        assertThat(other).isNotEqualTo(first);
    }

    @Test
    void aOneNanosecondPeriodStillMovesForward()
    {
        final Meter meter = new UpdateMeterSpec(REGULATOR, Side.ASK, Duration.ofNanos(1), 0L).newMeter(T0);
        long nowNs = T0;
        for (int i = 0; i < 100; i++)
        {
            final long dueNs = meter.update(nowNs, metrics, output);
            assertThat(dueNs - nowNs).as("[0.5, 1.5] ns rounds to 1 ns").isEqualTo(1L);
            nowNs = dueNs;
        }
    }

    @Test
    void eventTypeIsInTheBrokerSpace()
    {
        assertThat(EventTypes.spaceOf(RegulatorUpdate.TYPE)).isEqualTo(EventTypes.SPACE_BROKER);
        assertThat(EventTypes.indexOf(RegulatorUpdate.TYPE)).isEqualTo(20);
    }

    @Test
    void specRejectsBadArguments()
    {
        final Duration period = UpdateMeterSpec.DEFAULT_PERIOD;
        assertThat(period).isEqualTo(Duration.ofMillis(100));

        assertThatThrownBy(() -> new UpdateMeterSpec(null, Side.ASK, period, 1L))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("UpdateMeterSpec.regulator must be the regulator's actor id, was null");
        assertThatThrownBy(() -> new UpdateMeterSpec(REGULATOR, null, period, 1L))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("UpdateMeterSpec.side must be ASK or ASK_R, was null");
        assertThatThrownBy(() -> new UpdateMeterSpec(REGULATOR, Side.ASK_R, Duration.ofMillis(-5), 1L))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("UpdateMeterSpec.period must be positive and at most 3650 days, was PT-0.005S");
        assertThatThrownBy(() -> new UpdateMeterSpec(REGULATOR, Side.ASK_R, Duration.ZERO, 1L))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("UpdateMeterSpec.period must be positive and at most 3650 days, was PT0S");
    }
}
