package io.troupe.actor.internal;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.SchedulerCookie;
import io.troupe.actor.internal.scheduler.TimerAgent;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Scheduled sends on a timer driven from a fake clock on the test thread: once and at a fixed rate, cancelled before,
 * during and after a run, stale by cookie. No threads, no sleeps.
 */
class ScheduledSendTest
{
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long START_NS = 5_555_555_555_555L;
    private static final ActorId TO = ActorId.of(3, 1234, 5);
    private static final ActorId FROM = ActorId.of(3, 99, 6);

    private long nowNs = START_NS;
    private final List<Envelope> sent = new ArrayList<>();
    private final TimerAgent agent = new TimerAgent(() -> nowNs, envelope -> { });

    private ScheduledSend schedule(final Duration delay, final Duration interval, final SchedulerCookie cookie)
    {
        final ScheduledSend send = ScheduledSend.of(sent::add, delay, interval, TO, FROM, "tick", 42, 0, cookie);
        agent.schedule(ScheduledSend.saturatedNanos(delay), send);
        return send;
    }

    private void advanceTo(final long timeNs)
    {
        nowNs = timeNs;
        agent.doWork();
    }

    @Test
    void aOneTimeSendFiresOnceAtItsDeadlineAndACancelAfterThatDoesNothing()
    {
        final ScheduledSend send = schedule(Duration.ofMillis(10), null, null);
        advanceTo(START_NS + 9 * MS);
        assertThat(sent).isEmpty();
        advanceTo(START_NS + 12 * MS);
        assertThat(sent).hasSize(1);
        final Envelope envelope = sent.get(0);
        assertThat(envelope.recipient()).isEqualTo(TO);
        assertThat(envelope.sender()).isEqualTo(FROM);
        assertThat(envelope.event()).isEqualTo("tick");
        assertThat(envelope.type()).isEqualTo(42);

        assertThat(send.cancel()).as("after it fired: nothing to stop").isFalse();
        assertThat(send.isCancelled()).isFalse();
        advanceTo(START_NS + 100 * MS);
        assertThat(sent).hasSize(1);
        assertThat(agent.pendingCount()).isZero();
    }

    @Test
    void aCancelBeforeTheDeadlineIsExactAndASecondCancelDoesNothing()
    {
        final ScheduledSend send = schedule(Duration.ofMillis(10), null, null);
        advanceTo(START_NS + 5 * MS);
        assertThat(send.cancel()).isTrue();
        assertThat(send.isCancelled()).isTrue();
        assertThat(send.cancel()).isFalse();
        advanceTo(START_NS + 50 * MS);
        assertThat(sent).isEmpty();
        assertThat(agent.staleCount()).as("it ran into nothing").isEqualTo(1);
        assertThat(agent.firedCount()).isZero();
    }

    @Test
    void aFixedRateSendRunsEveryIntervalFromItsFirstDeadlineUntilCancelled()
    {
        final ScheduledSend send = schedule(Duration.ofMillis(5), Duration.ofMillis(10), null);
        for (int ms = 0; ms <= 49; ms++)
        {
            advanceTo(START_NS + ms * MS);
        }
        assertThat(sent).as("at 5, 15, 25, 35 and 45 ms").hasSize(5);
        assertThat(sent).extracting(Envelope::event).containsOnly("tick");
        assertThat(sent).as("a fresh envelope each time").doesNotHaveDuplicates();

        assertThat(send.cancel()).isTrue();
        for (int ms = 50; ms <= 200; ms++)
        {
            advanceTo(START_NS + ms * MS);
        }
        assertThat(sent).hasSize(5);
        assertThat(agent.pendingCount()).as("gone from the wheel at its next deadline").isZero();
    }

    @Test
    void aFixedRateSendCancelledWhileItDeliversEndsAfterThatEvent()
    {
        final ScheduledSend[] self = new ScheduledSend[1];
        final boolean[] cancelled = new boolean[1];
        self[0] = ScheduledSend.of(envelope ->
        {
            sent.add(envelope);
            if (sent.size() == 2)
            {
                cancelled[0] = self[0].cancel(); // as another thread would, while the run is under way
            }
        }, Duration.ZERO, Duration.ofMillis(1), TO, FROM, "tick", 42, 0, null);
        agent.schedule(0, self[0]);
        for (int ms = 0; ms <= 20; ms++)
        {
            advanceTo(START_NS + ms * MS);
        }
        assertThat(cancelled[0]).as("it stopped the runs to come").isTrue();
        assertThat(self[0].isCancelled()).isTrue();
        assertThat(sent).hasSize(2);
    }

    @Test
    void aDetachedCookieMakesTheSendStale()
    {
        final SchedulerCookie cookie = new SchedulerCookie();
        final ScheduledSend send = schedule(Duration.ofMillis(10), Duration.ofMillis(10), cookie);
        advanceTo(START_NS + 11 * MS);
        assertThat(sent).hasSize(1);
        cookie.detach();
        advanceTo(START_NS + 22 * MS);
        advanceTo(START_NS + 60 * MS);
        assertThat(sent).hasSize(1);
        assertThat(send.cancel()).as("already over").isFalse();
        assertThat(agent.staleCount()).isEqualTo(1);
    }

    @Test
    void badDelaysAreRefusedSayingWhich()
    {
        assertThatThrownBy(() -> schedule(Duration.ofMillis(-1), null, null))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("initialDelay");
        assertThatThrownBy(() -> schedule(Duration.ZERO, Duration.ZERO, null))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("interval");
        final ScheduledSend far = schedule(Duration.ofDays(365 * 1000), null, null);
        advanceTo(START_NS + 1_000 * MS);
        assertThat(sent).isEmpty();
        assertThat(far.cancel()).isTrue();
    }
}
