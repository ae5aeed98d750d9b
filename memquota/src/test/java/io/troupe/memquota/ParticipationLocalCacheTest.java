package io.troupe.memquota;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ParticipationLocalCacheTest
{
    private static final long MAX = 1L << 20;
    private static final long REFILL = Participation.LOCAL_CACHE_REFILL_BYTES;
    private static final long CACHE_MAX = Participation.LOCAL_CACHE_MAX_BYTES;

    private final ManualClock clock = new ManualClock();
    private final MemoryQuotaTracker tracker = MemoryQuotaTracker.create(MemoryQuotaConfig.of(MAX), clock);

    @AfterEach
    void closeTracker()
    {
        tracker.close();
    }

    @Test
    void smallClaimsComeFromTheLocalCacheAndReleasesOverflowBackToTheTracker()
    {
        final Participation participation = FakeParticipant.register(tracker.newAccount(), "p", 1).participation;
        participation.claim(100); // the cache was empty: claim and refill come from the tracker
        assertThat(participation.localCacheBytes()).isEqualTo(REFILL);
        assertThat(tracker.usedBytes()).isEqualTo(REFILL + 100);
        participation.claim(REFILL); // all from the cache
        assertThat(participation.localCacheBytes()).isZero();
        assertThat(tracker.usedBytes()).isEqualTo(REFILL + 100);
        participation.claim(20_000);
        assertThat(participation.localCacheBytes()).isEqualTo(REFILL);
        final long outstanding = 100 + REFILL + 20_000;
        assertThat(tracker.usedBytes()).isEqualTo(outstanding + REFILL);

        participation.release(CACHE_MAX - REFILL); // exactly at the bound: kept
        assertThat(participation.localCacheBytes()).isEqualTo(CACHE_MAX);
        assertThat(tracker.usedBytes()).isEqualTo(outstanding + REFILL);
        participation.release(1); // over it: all but a refill goes back
        assertThat(participation.localCacheBytes()).isEqualTo(REFILL);
        final long left = outstanding - (CACHE_MAX - REFILL) - 1;
        assertThat(tracker.usedBytes()).isEqualTo(left + REFILL).isEqualTo(participation.usedBytes());
        participation.release(0);
        participation.release(-5);
        assertThat(participation.localCacheBytes()).isEqualTo(REFILL);
    }

    @Test
    void aReleaseDuringARefillDoesNotLeaveTheCacheOverItsBound()
    {
        final Participation participation = FakeParticipant.register(tracker.newAccount(), "p", 1).participation;
        participation.claim(MAX - REFILL - 1_000); // next refill takes the total over max
        final long cacheBefore = participation.localCacheBytes();
        // the reclaim wake-up runs inside the refill, after the claim emptied the cache and before it puts the
        // refill back: exactly where another thread's release can land
        tracker.onReclaimWanted(() -> participation.release(12_000));

        participation.claim(cacheBefore + 1);

        assertThat(participation.localCacheBytes()).isBetween(0L, CACHE_MAX);
        assertThat(participation.usedBytes()).isEqualTo(tracker.usedBytes());
        assertThat(tracker.usedBytes())
            .isEqualTo(MAX - REFILL - 1_000 + cacheBefore + 1 - 12_000 + participation.localCacheBytes());
    }
}
