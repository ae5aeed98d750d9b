package io.troupe.broker;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.PoolConfig;
import io.troupe.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The regulator's underload alarm: the meter on a scripted clock, then on a regulator actor. */
@Timeout(60)
class UnderloadMeterTest
{
    private static final long MS = 1_000_000L;
    private static final long TARGET_NS = 100 * MS;
    private static final long INTERVAL_NS = 1_000 * MS;
    private static final long T0 = 7_000_000_000L;
    /** How long to wait for what should happen (a slot, an alarm): never reached on a slow machine. */
    private static final Duration WAIT = Await.DEFAULT_TIMEOUT;

    private final BrokerMetrics metrics = new BrokerMetrics();
    private final RecordingMeterOutput output = new RecordingMeterOutput();
    private final UnderloadMeter meter = (UnderloadMeter)UnderloadMeterSpec.of(Duration.ofNanos(TARGET_NS),
        Duration.ofNanos(INTERVAL_NS)).newMeter(T0);

    /** The valve waits now, since {@code sinceNs}; its last match's wait was {@code lastWaitNs}. */
    private long waiting(final long nowNs, final long sinceNs, final long lastWaitNs)
    {
        metrics.askR().set(0, 0, lastWaitNs, sinceNs, 0, 0);
        return meter.update(nowNs, metrics, output);
    }

    /** The valve does not wait now; its last match's wait was {@code lastWaitNs} (negative: the request waited). */
    private long busy(final long nowNs, final long lastWaitNs)
    {
        metrics.askR().set(2, 0, lastWaitNs, Long.MIN_VALUE, 0, 0);
        return meter.update(nowNs, metrics, output);
    }

    @Test
    void aValveThatWaitsForRequestsRaisesTheAlarmAnIntervalAfterItsWaitReachesTheTarget()
    {
        assertThat(waiting(T0, T0, 0)).as("slow from T0 + target: an update then").isEqualTo(T0 + TARGET_NS);
        assertThat(waiting(T0 + TARGET_NS, T0, 0)).isEqualTo(T0 + TARGET_NS + INTERVAL_NS);
        assertThat(meter.isRaised()).isFalse();
        assertThat(waiting(T0 + TARGET_NS + INTERVAL_NS, T0, 0)).isEqualTo(Long.MAX_VALUE);
        assertThat(meter.isRaised()).isTrue();
        assertThat(output.alarms).containsExactly(
            new RecordingMeterOutput.Alarm("underload", true, T0 + TARGET_NS + INTERVAL_NS));
    }

    @Test
    void aValveThatHasWaitedLongAlreadyCountsFromWhenItBecameSlow()
    {
        // first seen at T0 + 5 s, waiting since T0: slow since T0 + target, long enough
        assertThat(waiting(T0 + 5_000 * MS, T0, 0)).isEqualTo(Long.MAX_VALUE);
        assertThat(meter.isRaised()).isTrue();
    }

    @Test
    void requestsThatFindTheValveFastForAnIntervalClearIt()
    {
        waiting(T0 + 5_000 * MS, T0, 0);
        output.alarms.clear();
        final long t1 = T0 + 6_000 * MS;
        // a request waited for the valve (its wait as the valve saw it is negative): fast
        assertThat(busy(t1, -5 * MS)).isEqualTo(t1 + INTERVAL_NS);
        // a slow match in between restarts the wait for a clear
        assertThat(busy(t1 + 500 * MS, TARGET_NS)).isEqualTo(Long.MAX_VALUE);
        assertThat(busy(t1 + 600 * MS, 0)).isEqualTo(t1 + 600 * MS + INTERVAL_NS);
        assertThat(busy(t1 + 600 * MS + INTERVAL_NS, 0)).isEqualTo(Long.MAX_VALUE);
        assertThat(meter.isRaised()).isFalse();
        assertThat(output.alarms).containsExactly(
            new RecordingMeterOutput.Alarm("underload", false, t1 + 600 * MS + INTERVAL_NS));
    }

    @Test
    void matchesJustUnderTheTargetNeverRaiseIt()
    {
        for (long t = 0; t < 10_000 * MS; t += 50 * MS)
        {
            busy(T0 + t, TARGET_NS - 1);
        }
        assertThat(meter.isRaised()).isFalse();
        assertThat(output.alarms).isEmpty();
    }

    @Test
    void specHasDefaultsAndRejectsBadArguments()
    {
        final UnderloadMeterSpec spec = UnderloadMeterSpec.of(UnderloadMeterSpec.DEFAULT_TARGET,
            UnderloadMeterSpec.DEFAULT_INTERVAL);
        assertThat(spec.alarmName()).isEqualTo("underload");
        assertThatThrownBy(() -> UnderloadMeterSpec.of(Duration.ofMillis(-1), Duration.ofSeconds(1)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("UnderloadMeterSpec.target");
        assertThatThrownBy(() -> UnderloadMeterSpec.of(Duration.ofMillis(1), Duration.ZERO))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("UnderloadMeterSpec.interval");
        assertThatThrownBy(() -> new UnderloadMeterSpec(Duration.ofMillis(1), Duration.ofSeconds(1), " "))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("alarmName");
    }

    @Test
    void aRegulatorWhoseSlotsNobodyAsksForRaisesItsUnderloadAlarmAndBusyRequestsClearIt() throws Exception
    {
        try (ActorSystem system = ActorSystem.start(new ActorSystemConfig().nodeId(1)
            .pool(PoolConfig.named("default").threads(2))))
        {
            final ActorId regulator = Regulators.start(system, new RegulatorSpec(DropQueueSpec.fifo(100),
                new OpenValveSpec(1), List.of(UnderloadMeterSpec.of(Duration.ofMillis(20), Duration.ofMillis(50)))));
            final BlockingQueue<Object> alarms = new LinkedBlockingQueue<>();
            final ActorId subscriber = system.register((ctx, envelope) ->
            {
                if ("subscribe".equals(envelope.event()))
                {
                    ctx.send(regulator, new AlarmSubscription(true), AlarmSubscription.TYPE, 0, 0L);
                }
                else
                {
                    alarms.add(envelope.event());
                }
            });
            final long subscribed = System.nanoTime();
            system.send(subscriber, "subscribe");
            // nobody asks: the valve's one slot waits; no request is needed for the alarm to go up
            assertThat(Await.next(alarms)).isEqualTo(new BrokerAlarm(regulator, "underload", true));
            // how soon exactly is the scripted-clock tests' above; here, on real timers, only that it is not far off
            assertThat((System.nanoTime() - subscribed) / 1e6).as("ms: target + interval, and scheduling")
                .isLessThan(10_000);

            // busy: every request waits for the one slot, so the valve never waits for a request. The next request
            // is sent before the done that frees the slot (both from this thread, so they reach the regulator in
            // that order); one such hand-over per poll, until an interval of them has cleared the alarm
            final List<Go> held = new ArrayList<>();
            held.add((Go)Regulators.ask(system, regulator, WAIT).get(WAIT.toSeconds(), TimeUnit.SECONDS));
            final Object[] cleared = new Object[1];
            Await.until(() ->
            {
                final var next = Regulators.ask(system, regulator, WAIT);
                Regulators.done(system, regulator, held.remove(0).ref());
                held.add((Go)next.join());
                cleared[0] = alarms.poll();
                return cleared[0] != null;
            }, WAIT, "busy requests clear the underload alarm");
            assertThat(cleared[0]).isEqualTo(new BrokerAlarm(regulator, "underload", false));
        }
    }
}
