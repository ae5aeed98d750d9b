package io.troupe.actor.internal.scheduler;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.SchedulerCookie;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Drives the timer agent from a fake clock on the test thread: no threads, no sleeps.
 */
class TimerAgentTest
{
    private static final long TICK_NS = TimerAgent.TICK_RESOLUTION_NS;
    private static final long REVOLUTION_NS = TimerAgent.TICKS_PER_WHEEL * TICK_NS;
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Not 0 and not tick-aligned, so nothing depends on the clock starting at a round number. */
    private static final long START_NS = 7_777_777_777_777L;

    private long nowNs = START_NS;
    private final List<Envelope> delivered = new ArrayList<>();
    private final TimerAgent agent = new TimerAgent(() -> nowNs, delivered::add);

    @Test
    void notDeliveredBeforeItsDeadlineAndOnceAfter()
    {
        final long deadlineNs = START_NS + 10 * MS;
        final Envelope envelope = envelope(1);
        agent.schedule(10 * MS, envelope, null);

        agent.doWork();
        assertThat(delivered).isEmpty();
        assertThat(agent.pendingCount()).isEqualTo(1);

        advanceTo(deadlineNs - TICK_NS);
        assertThat(delivered).isEmpty();
        advanceTo(deadlineNs - 1);
        assertThat(delivered).isEmpty();

        advanceTo(deadlineNs + TICK_NS);
        assertThat(delivered).containsExactly(envelope);
        assertThat(agent.pendingCount()).isZero();

        for (int i = 1; i <= 5; i++)
        {
            advanceTo(deadlineNs + TICK_NS + i * REVOLUTION_NS);
        }
        assertThat(delivered).containsExactly(envelope);
        assertThat(agent.firedCount()).isEqualTo(1);
    }

    @Test
    void deliveredWithinATickOfItsDeadlineWhenTheClockCreepsForward()
    {
        final long delayNs = 10 * MS + 12_345;
        final long deadlineNs = START_NS + delayNs;
        agent.schedule(delayNs, envelope(1), null);

        final Map<Long, Long> deliveredAt = runUntil(deadlineNs + 4 * TICK_NS, TICK_NS / 8);

        assertThat(deliveredAt).containsOnlyKeys(1L);
        assertThat(deliveredAt.get(1L)).isBetween(deadlineNs, deadlineNs + TICK_NS);
    }

    @Test
    void timersDueAtDifferentTicksAreDeliveredInDeadlineOrder()
    {
        final long[] delaysMs = {7, 3, 12, 5, 1};
        for (final long delayMs : delaysMs)
        {
            agent.schedule(delayMs * MS, envelope(delayMs), null);
        }

        final Map<Long, Long> deliveredAt = runUntil(START_NS + 20 * MS, TICK_NS / 4);

        assertThat(cookies()).containsExactly(1L, 3L, 5L, 7L, 12L);
        for (final long delayMs : delaysMs)
        {
            assertThat(deliveredAt.get(delayMs)).isBetween(START_NS + delayMs * MS, START_NS + delayMs * MS + TICK_NS);
        }
    }

    @Test
    void timersDueAtDifferentTicksAreDeliveredInDeadlineOrderAfterOneBigStep()
    {
        final long[] delaysMs = {7, 3, 12, 5, 1};
        for (final long delayMs : delaysMs)
        {
            agent.schedule(delayMs * MS, envelope(delayMs), null);
        }
        agent.doWork();

        advanceTo(START_NS + 20 * MS);

        assertThat(cookies()).containsExactly(1L, 3L, 5L, 7L, 12L);
    }

    @Test
    void zeroAndNegativeDelaysAreDeliveredOnTheNextDoWork()
    {
        final Envelope zero = envelope(0);
        final Envelope negative = envelope(1);
        final Envelope veryNegative = envelope(2);
        agent.schedule(0, zero, null);
        agent.schedule(-1, negative, null);
        agent.schedule(-TimeUnit.SECONDS.toNanos(5), veryNegative, null);

        agent.doWork();

        assertThat(delivered).containsExactlyInAnyOrder(zero, negative, veryNegative);
        assertThat(agent.firedCount()).isEqualTo(3);
    }

    @Test
    void zeroDelayLaterInTheRunIsDeliveredOnTheNextDoWork()
    {
        agent.schedule(50 * MS, envelope(50), null);
        advanceTo(START_NS + 3 * MS + 17);

        agent.schedule(0, envelope(0), null);
        agent.doWork();

        assertThat(cookies()).containsExactly(0L);
    }

    @Test
    void aDetachedCookieMakesTheTimerStale()
    {
        final SchedulerCookie detachedEarly = new SchedulerCookie();
        final SchedulerCookie detachedLate = new SchedulerCookie();
        final SchedulerCookie attached = new SchedulerCookie();
        agent.schedule(2 * MS, envelope(1), detachedEarly);
        agent.schedule(2 * MS, envelope(2), detachedLate);
        agent.schedule(2 * MS, envelope(3), attached);
        agent.schedule(2 * MS, envelope(4), null);
        detachedEarly.detach();

        agent.doWork();
        // already in the wheel: detaching still makes it stale
        detachedLate.detach();
        advanceTo(START_NS + 5 * MS);

        assertThat(cookies()).containsExactlyInAnyOrder(3L, 4L);
        assertThat(agent.staleCount()).isEqualTo(2);
        assertThat(agent.firedCount()).isEqualTo(2);
        assertThat(agent.scheduledCount()).isEqualTo(4);
        assertThat(agent.pendingCount()).isZero();
        assertThat(detachedEarly.isAttached()).isFalse();
        assertThat(attached.isAttached()).isTrue();
    }

    @Test
    void countersFollowTheTimers()
    {
        assertThat(agent.scheduledCount()).isZero();
        assertThat(agent.firedCount()).isZero();
        assertThat(agent.staleCount()).isZero();
        assertThat(agent.discardedCount()).isZero();

        agent.schedule(1 * MS, envelope(1), null);
        agent.schedule(5 * MS, envelope(2), null);
        assertThat(agent.scheduledCount()).isEqualTo(2);
        assertThat(agent.pendingCount()).isZero();

        assertThat(agent.doWork()).isPositive();
        assertThat(agent.pendingCount()).isEqualTo(2);
        assertThat(agent.firedCount()).isZero();

        advanceTo(START_NS + 3 * MS);
        assertThat(agent.firedCount()).isEqualTo(1);
        assertThat(agent.pendingCount()).isEqualTo(1);

        advanceTo(START_NS + 7 * MS);
        assertThat(agent.firedCount()).isEqualTo(2);
        assertThat(agent.pendingCount()).isZero();
        assertThat(agent.scheduledCount()).isEqualTo(2);
        assertThat(agent.staleCount()).isZero();
        assertThat(agent.discardedCount()).isZero();
    }

    @Test
    void doWorkReportsNoWorkWhenThereIsNothingToDo()
    {
        assertThat(agent.doWork()).isZero();
        advanceTo(START_NS + REVOLUTION_NS);
        assertThat(agent.doWork()).isZero();
    }

    @Test
    void scheduleAfterALongIdleGapIsNotDeliveredEarly()
    {
        // the wheel's tick was not advanced while nobody called doWork
        nowNs = START_NS + TimeUnit.SECONDS.toNanos(10);
        final long deadlineNs = nowNs + 5 * MS;
        agent.schedule(5 * MS, envelope(1), null);

        advanceTo(deadlineNs - TICK_NS);
        assertThat(delivered).isEmpty();
        advanceTo(deadlineNs - 1);
        assertThat(delivered).isEmpty();

        advanceTo(deadlineNs + TICK_NS);
        assertThat(cookies()).containsExactly(1L);
    }

    @Test
    void scheduleAfterAnIdleGapWithDoWorkIsNotDeliveredEarly()
    {
        agent.doWork();
        advanceTo(START_NS + TimeUnit.SECONDS.toNanos(10));
        final long deadlineNs = nowNs + 5 * MS;
        agent.schedule(5 * MS, envelope(1), null);

        advanceTo(deadlineNs - 1);
        assertThat(delivered).isEmpty();

        advanceTo(deadlineNs + TICK_NS);
        assertThat(cookies()).containsExactly(1L);
    }

    @Test
    void aPendingTimerIsDeliveredAfterAGapOfManySeconds()
    {
        agent.schedule(2 * MS, envelope(1), null);
        agent.doWork();

        advanceTo(START_NS + TimeUnit.SECONDS.toNanos(30));

        assertThat(cookies()).containsExactly(1L);
    }

    @Test
    void aTimerScheduledBeforeTheFirstDoWorkIsDeliveredAfterAGap()
    {
        agent.schedule(2 * MS, envelope(1), null);

        advanceTo(START_NS + TimeUnit.SECONDS.toNanos(5));

        assertThat(cookies()).containsExactly(1L);
    }

    @Test
    void timersMoreThanARevolutionAwayFireOnTimeNotEarly()
    {
        final long[] delaysNs = {REVOLUTION_NS / 2, REVOLUTION_NS + REVOLUTION_NS / 2, REVOLUTION_NS,
            2 * REVOLUTION_NS + 3 * TICK_NS + 5, 3 * REVOLUTION_NS - 1};
        for (int i = 0; i < delaysNs.length; i++)
        {
            agent.schedule(delaysNs[i], envelope(i), null);
        }

        final Map<Long, Long> deliveredAt = runUntil(START_NS + 3 * REVOLUTION_NS + 4 * TICK_NS, TICK_NS / 2);

        assertThat(deliveredAt).hasSize(delaysNs.length);
        for (int i = 0; i < delaysNs.length; i++)
        {
            final long deadlineNs = START_NS + delaysNs[i];
            assertThat(deliveredAt.get((long)i)).as("timer %d", i).isBetween(deadlineNs, deadlineNs + TICK_NS);
        }
        assertThat(cookies()).containsExactly(0L, 2L, 1L, 3L, 4L);
    }

    @Test
    void aTimerMoreThanARevolutionAwaySurvivesAJumpToJustBeforeItsDeadline()
    {
        final long deadlineNs = START_NS + 2 * REVOLUTION_NS + 300 * TICK_NS;
        agent.schedule(deadlineNs - START_NS, envelope(1), null);
        agent.doWork();

        // one doWork sweeps the wheel more than once past the timer's spoke
        advanceTo(deadlineNs - 1);
        assertThat(delivered).isEmpty();
        assertThat(agent.pendingCount()).isEqualTo(1);

        advanceTo(deadlineNs + TICK_NS);
        assertThat(cookies()).containsExactly(1L);
    }

    @Test
    void manyTimersInOneTickAreAllDelivered()
    {
        final int count = 500;
        for (int i = 0; i < count; i++)
        {
            agent.schedule(3 * MS, envelope(i), null);
        }
        agent.doWork();
        assertThat(agent.pendingCount()).isEqualTo(count);

        advanceTo(START_NS + 3 * MS + TICK_NS);

        assertThat(delivered).hasSize(count);
        final List<Long> cookies = cookies();
        Collections.sort(cookies);
        for (int i = 0; i < count; i++)
        {
            assertThat(cookies.get(i)).isEqualTo(i);
        }
        assertThat(agent.firedCount()).isEqualTo(count);
    }

    @Test
    void randomTimersFireExactlyOnceNeverEarlyAndWithinATick()
    {
        // the wheel reuses timer ids for new timers: each delivery must still carry its own envelope
        final Random random = new Random(0xC10CL);
        final Map<Long, Long> deadlines = new HashMap<>();
        final Map<Long, Long> deliveredAt = new HashMap<>();
        final List<Long> workTimes = new ArrayList<>();
        final long scheduleUntilNs = START_NS + 2 * REVOLUTION_NS;
        final long endNs = scheduleUntilNs + 3 * REVOLUTION_NS + 10 * TICK_NS;
        long nextCookie = 0;

        while (nowNs < endNs)
        {
            if (nowNs < scheduleUntilNs)
            {
                final int burst = random.nextInt(4);
                for (int i = 0; i < burst; i++)
                {
                    final long delayNs = random.nextInt(10) == 0 ?
                        -random.nextInt(1000) : (long)(random.nextDouble() * 3 * REVOLUTION_NS);
                    deadlines.put(nextCookie, nowNs + Math.max(0, delayNs));
                    agent.schedule(delayNs, envelope(nextCookie), null);
                    nextCookie++;
                }
            }
            nowNs += 1 + random.nextInt((int)(3 * TICK_NS));
            final int before = delivered.size();
            agent.doWork();
            workTimes.add(nowNs);
            for (int i = before; i < delivered.size(); i++)
            {
                final long cookie = delivered.get(i).cookie();
                assertThat(deliveredAt.put(cookie, nowNs)).as("timer %d delivered twice", cookie).isNull();
            }
        }

        assertThat(nextCookie).isGreaterThan(1000);
        assertThat(deliveredAt).hasSameSizeAs(deadlines);
        assertThat(agent.firedCount()).isEqualTo(nextCookie);
        assertThat(agent.pendingCount()).isZero();
        for (final Map.Entry<Long, Long> entry : deadlines.entrySet())
        {
            final long deadlineNs = entry.getValue();
            final long atNs = deliveredAt.get(entry.getKey());
            assertThat(atNs).as("timer %d not early", entry.getKey()).isGreaterThanOrEqualTo(deadlineNs);
            assertThat(atNs).as("timer %d not late", entry.getKey())
                .isLessThanOrEqualTo(firstAtOrAfter(workTimes, deadlineNs + TICK_NS));
        }
    }

    @Test
    void closeDiscardsPendingAndQueuedTimers()
    {
        agent.schedule(5 * MS, envelope(1), null);
        agent.schedule(6 * MS, envelope(2), null);
        agent.schedule(7 * MS, envelope(3), null);
        agent.doWork();
        // two more that the agent has not taken from its queue yet
        agent.schedule(1 * MS, envelope(4), null);
        agent.schedule(0, envelope(5), null);

        agent.onClose();

        assertThat(agent.discardedCount()).isEqualTo(5);
        assertThat(agent.pendingCount()).isZero();
        advanceTo(START_NS + REVOLUTION_NS);
        assertThat(delivered).isEmpty();
        assertThat(agent.firedCount()).isZero();
    }

    @Test
    void scheduleAfterCloseIsDiscarded()
    {
        agent.schedule(5 * MS, envelope(1), null);
        agent.onClose();
        assertThat(agent.discardedCount()).isEqualTo(1);

        agent.schedule(0, envelope(2), null);
        agent.schedule(1 * MS, envelope(3), new SchedulerCookie());

        assertThat(agent.discardedCount()).isEqualTo(3);
        assertThat(agent.scheduledCount()).isEqualTo(1);
        advanceTo(START_NS + 10 * MS);
        assertThat(delivered).isEmpty();
    }

    @Test
    void roleName()
    {
        assertThat(agent.roleName()).isEqualTo("troupe-timer");
    }

    private void advanceTo(final long timeNs)
    {
        nowNs = timeNs;
        agent.doWork();
    }

    /**
     * Steps the clock to {@code endNs}, calling doWork after each step.
     *
     * @return cookie of each delivered envelope to the clock time of the doWork that delivered it, in order.
     */
    private Map<Long, Long> runUntil(final long endNs, final long stepNs)
    {
        final Map<Long, Long> deliveredAt = new LinkedHashMap<>();
        agent.doWork();
        while (nowNs < endNs)
        {
            nowNs = Math.min(endNs, nowNs + stepNs);
            final int before = delivered.size();
            agent.doWork();
            for (int i = before; i < delivered.size(); i++)
            {
                final long cookie = delivered.get(i).cookie();
                assertThat(deliveredAt.put(cookie, nowNs)).as("timer %d delivered twice", cookie).isNull();
            }
        }
        return deliveredAt;
    }

    private List<Long> cookies()
    {
        final List<Long> cookies = new ArrayList<>();
        for (final Envelope envelope : delivered)
        {
            cookies.add(envelope.cookie());
        }
        return cookies;
    }

    private static long firstAtOrAfter(final List<Long> sortedTimesNs, final long timeNs)
    {
        final int index = Collections.binarySearch(sortedTimesNs, timeNs);
        final int at = index >= 0 ? index : -index - 1;
        return at < sortedTimesNs.size() ? sortedTimesNs.get(at) : Long.MAX_VALUE;
    }

    private static Envelope envelope(final long cookie)
    {
        return new Envelope(ActorId.of(0, cookie + 1, 1), ActorId.NONE, 1, 0, cookie, "timer-" + cookie, null);
    }
}
