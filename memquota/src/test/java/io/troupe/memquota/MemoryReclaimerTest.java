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
}
