package io.troupe.memquota;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tracker times each reclamation episode, from the claim that takes use over max to the end of the round
 * that leaves it at or under low water, with an injected clock.
 */
class ReclaimLatencyTest
{
    private static final long MAX = 1L << 20;

    private final ManualClock clock = new ManualClock();
    private final AtomicLong preciseNs = new AtomicLong(5_000);
    private final MemoryQuotaTracker tracker =
        MemoryQuotaTracker.create(MemoryQuotaConfig.of(MAX), clock, preciseNs::get);

    @AfterEach
    void closeTracker()
    {
        tracker.close();
    }

    @Test
    void anEpisodeLastsFromTheClaimThatCrossedMaxToTheRoundThatReachedLowWater()
    {
        final FakeParticipant old = FakeParticipant.register(tracker.newAccount(), "old", 1);
        old.participation.claim(600_000);
        preciseNs.set(10_000);
        final FakeParticipant young = FakeParticipant.register(tracker.newAccount(), "young", 2);
        young.participation.claim(600_000); // crosses max at 10 µs
        assertThat(tracker.counters().reclaimEpisodes()).isZero();
        preciseNs.set(13_000);
        assertThat(tracker.counters().openReclaimNs()).isEqualTo(3_000);

        preciseNs.set(42_000);
        tracker.reclaimIfNeeded();

        final MemoryQuotaCounters counters = tracker.counters();
        assertThat(counters.reclaimEpisodes()).isEqualTo(1);
        assertThat(counters.lastReclaimLatencyNs()).isEqualTo(32_000);
        assertThat(counters.worstReclaimLatencyNs()).isEqualTo(32_000);
        assertThat(counters.openReclaimNs()).isZero();

        // a shorter second episode changes the last latency, not the worst
        preciseNs.set(100_000);
        FakeParticipant.register(tracker.newAccount(), "third", 3).participation.claim(600_000);
        preciseNs.set(105_000);
        tracker.reclaimIfNeeded();
        final MemoryQuotaCounters second = tracker.counters();
        assertThat(second.reclaimEpisodes()).isEqualTo(2);
        assertThat(second.lastReclaimLatencyNs()).isEqualTo(5_000);
        assertThat(second.worstReclaimLatencyNs()).isEqualTo(32_000);
    }

    @Test
    void claimsWhileOverMaxDoNotRestartTheEpisode()
    {
        final FakeParticipant a = FakeParticipant.register(tracker.newAccount(), "a", 1);
        a.participation.claim(MAX); // crosses max at 5 µs (its refill takes it over)
        preciseNs.set(9_000);
        final FakeParticipant b = FakeParticipant.register(tracker.newAccount(), "b", 2);
        b.participation.claim(100_000); // over max, under the hard cap: taken
        assertThat(tracker.usedBytes()).isGreaterThanOrEqualTo(MAX + 100_000);
        preciseNs.set(20_000);
        tracker.reclaimIfNeeded();
        assertThat(tracker.counters().lastReclaimLatencyNs()).isEqualTo(15_000);
    }

    @Test
    void useReleasedBackUnderMaxBeforeAnyRoundEndsTheEpisodeUntimed()
    {
        final FakeParticipant p = FakeParticipant.register(tracker.newAccount(), "p", 1);
        p.participation.claim(MAX);
        assertThat(tracker.counters().openReclaimNs()).isZero(); // same instant
        preciseNs.addAndGet(1_000);
        assertThat(tracker.counters().openReclaimNs()).isEqualTo(1_000);
        p.participation.release(MAX);

        assertThat(tracker.reclaimIfNeeded()).isZero();

        final MemoryQuotaCounters counters = tracker.counters();
        assertThat(counters.reclaimEpisodes()).isZero();
        assertThat(counters.openReclaimNs()).isZero();
    }

    @Test
    void aRoundThatCannotReachLowWaterLeavesTheEpisodeOpen()
    {
        final FakeParticipant stuck = FakeParticipant.register(tracker.newAccount(), "stuck", 1);
        stuck.mode = FakeParticipant.Mode.PARTIAL; // frees nothing
        stuck.participation.claim(MAX + 1);
        preciseNs.addAndGet(7_000);

        tracker.reclaimIfNeeded();

        final MemoryQuotaCounters counters = tracker.counters();
        assertThat(counters.reclaimEpisodes()).isZero();
        assertThat(counters.openReclaimNs()).isEqualTo(7_000);
    }

    @Test
    void afterARoundFallsShortTheNextWaitsWithAGrowingBackOffInsteadOfSpinning()
    {
        final MemoryReclaimer reclaimer = new MemoryReclaimer(tracker);
        final FakeParticipant stuck = FakeParticipant.register(tracker.newAccount(), "stuck", 1);
        stuck.mode = FakeParticipant.Mode.PARTIAL; // frees nothing
        stuck.participation.claim(MAX + 1);

        assertThat(reclaimer.doWork()).isPositive();
        assertThat(tracker.counters().reclamations()).isEqualTo(1);
        assertThat(tracker.reclaimWanted()).as("backing off").isFalse();
        assertThat(reclaimer.doWork()).isZero();

        preciseNs.addAndGet(Reclamation.RETRY_BACKOFF_MIN_NS);
        assertThat(tracker.reclaimWanted()).isTrue();
        assertThat(reclaimer.doWork()).isPositive();
        assertThat(tracker.counters().reclamations()).isEqualTo(2);

        preciseNs.addAndGet(Reclamation.RETRY_BACKOFF_MIN_NS);
        assertThat(tracker.reclaimWanted()).as("the back-off doubled").isFalse();
        preciseNs.addAndGet(Reclamation.RETRY_BACKOFF_MIN_NS);
        assertThat(tracker.reclaimWanted()).isTrue();

        // once the data can go, the round reaches low water and the back-off is forgotten
        stuck.mode = FakeParticipant.Mode.COLLAPSE;
        assertThat(reclaimer.doWork()).isEqualTo(1);
        assertThat(tracker.counters().reclaimEpisodes()).isEqualTo(1);
        final FakeParticipant next = FakeParticipant.register(tracker.newAccount(), "next", 2);
        next.participation.claim(MAX + 1);
        assertThat(tracker.reclaimWanted()).as("no back-off left over").isTrue();
    }

    @Test
    void theBackOffIsCappedAndDirectCallsIgnoreIt()
    {
        final FakeParticipant stuck = FakeParticipant.register(tracker.newAccount(), "stuck", 1);
        stuck.mode = FakeParticipant.Mode.PARTIAL;
        stuck.participation.claim(MAX + 1);
        for (int i = 0; i < 20; i++)
        {
            tracker.reclaimIfNeeded(); // direct calls run a round every time
        }
        assertThat(tracker.counters().reclamations()).isEqualTo(20);
        preciseNs.addAndGet(Reclamation.RETRY_BACKOFF_MAX_NS - 1);
        assertThat(tracker.reclaimWanted()).isFalse();
        preciseNs.addAndGet(1);
        assertThat(tracker.reclaimWanted()).isTrue();
    }
}
