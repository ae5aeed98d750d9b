package io.troupe.memquota;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class MemoryReclaimerTest
{
    private static final long MAX = 1L << 20;

    @Test
    void wakesUpWhenUseGoesOverMaxAndReclaimsOnItsNextDutyCycle()
    {
        final ManualClock clock = new ManualClock();
        try (MemoryQuotaTracker tracker = MemoryQuotaTracker.create(MemoryQuotaConfig.of(MAX), clock))
        {
            final MemoryReclaimer reclaimer = new MemoryReclaimer(tracker);
            final AtomicInteger wakeUps = new AtomicInteger();
            reclaimer.wakeUpWith(wakeUps::incrementAndGet);
            assertThat(reclaimer.roleName()).isEqualTo("troupe-memquota-reclaimer");

            final FakeParticipant old = FakeParticipant.register(tracker.newAccount(), "old", 1);
            old.participation.claim(600_000);
            assertThat(wakeUps).hasValue(0);
            assertThat(reclaimer.doWork()).isZero();

            final FakeParticipant young = FakeParticipant.register(tracker.newAccount(), "young", 2);
            young.participation.claim(600_000);
            assertThat(wakeUps.get()).isPositive();
            assertThat(tracker.reclaimWanted()).isTrue();

            assertThat(reclaimer.doWork()).isEqualTo(1);
            assertThat(old.wasReclaimed()).isTrue();
            assertThat(young.wasReclaimed()).isFalse();
            assertThat(tracker.reclaimWanted()).isFalse();
            assertThat(reclaimer.doWork()).isZero();
        }
    }

    @Test
    void cachedClockMovesForwardOnUpdate()
    {
        final CoarseClock.CachedClock clock = CoarseClock.cached(1_000_000);
        final long first = clock.nowNs();
        final long updated = clock.update();
        assertThat(updated).isGreaterThanOrEqualTo(first);
        for (int i = 0; i < 200; i++)
        {
            assertThat(clock.nowNs()).isGreaterThanOrEqualTo(updated);
        }
    }

    @Test
    void runsTheCleanupsBetweenRoundsAFewPerDutyCycleAndSurvivesAFailingOne()
    {
        try (MemoryQuotaTracker tracker = MemoryQuotaTracker.create(MemoryQuotaConfig.of(MAX), new ManualClock()))
        {
            final MemoryReclaimer reclaimer = new MemoryReclaimer(tracker);
            final AtomicInteger ran = new AtomicInteger();
            tracker.deferCleanup(() ->
            {
                throw new IllegalStateException("a failing clean-up must not stop the others");
            });
            final int count = MemoryReclaimer.CLEANUPS_PER_DUTY_CYCLE + 3;
            for (int i = 1; i < count; i++)
            {
                tracker.deferCleanup(ran::incrementAndGet);
            }

            assertThat(reclaimer.doWork()).isEqualTo(MemoryReclaimer.CLEANUPS_PER_DUTY_CYCLE);
            assertThat(ran).hasValue(MemoryReclaimer.CLEANUPS_PER_DUTY_CYCLE - 1);
            assertThat(reclaimer.doWork()).isEqualTo(3);
            assertThat(ran).hasValue(count - 1);
            assertThat(reclaimer.doWork()).isZero();
        }
    }

    @Test
    void aRoundDueComesBeforePendingCleanups()
    {
        try (MemoryQuotaTracker tracker = MemoryQuotaTracker.create(MemoryQuotaConfig.of(MAX), new ManualClock()))
        {
            final MemoryReclaimer reclaimer = new MemoryReclaimer(tracker);
            final AtomicInteger ran = new AtomicInteger();
            tracker.deferCleanup(ran::incrementAndGet);
            final FakeParticipant big = FakeParticipant.register(tracker.newAccount(), "big", 1);
            big.participation.claim(MAX);

            assertThat(reclaimer.doWork()).isEqualTo(1);
            assertThat(big.wasReclaimed()).isTrue();
            assertThat(ran).hasValue(0);
            assertThat(reclaimer.doWork()).isEqualTo(1);
            assertThat(ran).hasValue(1);
        }
    }

    @Test
    void closingTheTrackerDropsPendingCleanups()
    {
        final MemoryQuotaTracker tracker = MemoryQuotaTracker.create(MemoryQuotaConfig.of(MAX), new ManualClock());
        final AtomicInteger ran = new AtomicInteger();
        tracker.deferCleanup(ran::incrementAndGet);
        tracker.close();
        tracker.deferCleanup(ran::incrementAndGet);
        assertThat(tracker.pendingCleanups()).isZero();
        assertThat(ran).hasValue(0);
    }
}
