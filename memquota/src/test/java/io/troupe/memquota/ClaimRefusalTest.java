package io.troupe.memquota;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Past max, claims succeed and reclamation is wanted (the oldest data pays, not new allocations); once use is past
 * the hard cap (125% of max by default), refills of local caches are refused until reclamation brings use down, so
 * use stays within the cap plus one local cache per participant plus the claim that crossed it. A refusal claims
 * nothing, is counted and never blocks.
 */
class ClaimRefusalTest
{
    private static final long MAX = 1L << 20;
    private static final long ELEMENT = 1000;

    private final ManualClock clock = new ManualClock();
    private final MemoryQuotaTracker tracker = MemoryQuotaTracker.create(MemoryQuotaConfig.of(MAX), clock);
    private final long cap = tracker.config().hardCapBytes();

    @AfterEach
    void tearDown()
    {
        tracker.close();
    }

    @Test
    void claimsPastMaxSucceedWhileReclamationIsWantedUpToTheHardCap()
    {
        assertThat(cap).as("the default: 125% of max").isEqualTo(MAX + MAX / 4);
        final FakeParticipant old = FakeParticipant.register(tracker.newAccount(), "old", 1);
        final FakeParticipant young = FakeParticipant.register(tracker.newAccount(), "young", 2);
        old.participation.claim(MAX - ELEMENT);
        while (tracker.usedBytes() < cap - 2 * Participation.LOCAL_CACHE_MAX_BYTES - ELEMENT)
        {
            young.participation.claim(ELEMENT);
        }
        assertThat(tracker.usedBytes()).isGreaterThan(MAX);
        assertThat(tracker.reclaimWanted()).as("past max: the oldest data is to be reclaimed").isTrue();
        assertThat(tracker.counters().refusedClaims()).as("nothing refused under the cap").isZero();

        tracker.reclaimIfNeeded();
        assertThat(old.wasReclaimed()).as("the oldest paid").isTrue();
        assertThat(young.wasReclaimed()).isFalse();
        assertThat(tracker.usedBytes()).isLessThanOrEqualTo(tracker.config().lowWaterBytes());
    }

    @Test
    void aHardCapEqualToMaxRefusesEveryClaimOnceUseIsOverMax()
    {
        try (MemoryQuotaTracker strict = MemoryQuotaTracker.create(MemoryQuotaConfig.of(MAX).hardCap(MAX), clock))
        {
            final FakeParticipant hog = FakeParticipant.register(strict.newAccount(), "hog", 1);
            hog.participation.claim(MAX + 1);
            assertThatThrownBy(() -> hog.participation.claim(2 * Participation.LOCAL_CACHE_MAX_BYTES))
                .isInstanceOf(MemoryQuotaException.QuotaExhausted.class);
            assertThat(strict.counters().refusedClaims()).isEqualTo(1);
        }
    }

    @Test
    void theHardCapIsBetweenMaxAnd400PercentOfItAndNotOnADisabledQuota()
    {
        assertThat(MemoryQuotaConfig.of(MAX).hardCap(4 * MAX).hardCapBytes()).isEqualTo(4 * MAX);
        assertThatThrownBy(() -> MemoryQuotaConfig.of(MAX).hardCap(MAX - 1))
            .isInstanceOf(ConfigurationException.class).hasMessageContaining("hardCap=" + (MAX - 1))
            .hasMessageContaining("out of range " + MAX + ".." + 4 * MAX);
        assertThatThrownBy(() -> MemoryQuotaConfig.of(MAX).hardCap(4 * MAX + 1))
            .isInstanceOf(ConfigurationException.class);
        assertThatThrownBy(() -> MemoryQuotaConfig.disabled().hardCap(MAX))
            .isInstanceOf(ConfigurationException.class).hasMessageContaining("disabled");
        assertThat(MemoryQuotaConfig.disabled().hardCapBytes()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void claimsAreRefusedOnceUseIsOverTheHardCapAndUseStaysBounded()
    {
        final FakeParticipant old = FakeParticipant.register(tracker.newAccount(), "old", 1);
        final FakeParticipant young = FakeParticipant.register(tracker.newAccount(), "young", 2);
        old.participation.claim(cap - MAX / 2);
        int refused = 0;
        for (int i = 0; i < 2_000; i++)
        {
            final long before = tracker.usedBytes();
            try
            {
                young.participation.claim(ELEMENT);
            }
            catch (final MemoryQuotaException.QuotaExhausted ex)
            {
                refused++;
                assertThat(tracker.usedBytes()).as("a refused claim claims nothing").isEqualTo(before);
            }
            assertThat(tracker.usedBytes())
                .as("use within the cap + one local cache per participant + one element")
                .isLessThanOrEqualTo(cap + 2 * Participation.LOCAL_CACHE_MAX_BYTES + ELEMENT);
        }
        assertThat(refused).isPositive();
        assertThat(tracker.counters().refusedClaims()).isEqualTo(refused);

        tracker.reclaimIfNeeded();

        assertThat(old.wasReclaimed()).isTrue();
        assertThat(tracker.usedBytes()).isLessThanOrEqualTo(tracker.config().lowWaterBytes());
        young.participation.claim(ELEMENT); // accepted again
    }

    @Test
    void aMemoryQueueReportsAnExhaustedQuotaAsAReturnValue()
    {
        final FakeParticipant hog = FakeParticipant.register(tracker.newAccount(), "hog", 1);
        hog.participation.claim(cap + 1);
        final MemoryQueue<Item> queue = MemoryQueue.unbounded(tracker.newAccount());

        assertThat(queue.send(new Item("refused", 2 * Participation.LOCAL_CACHE_MAX_BYTES))).isFalse();
        assertThat(queue.size()).isZero();
        assertThat(queue.isCollapsed()).isFalse();

        tracker.reclaimIfNeeded();
        assertThat(queue.send(new Item("accepted", ELEMENT))).isTrue();
        assertThat(queue.receive()).isEqualTo(new Item("accepted", ELEMENT));
    }

    @Test
    void theExhaustedSignalCarriesNoStackTraceAndSaysWhatToDo()
    {
        final FakeParticipant hog = FakeParticipant.register(tracker.newAccount(), "hog", 1);
        hog.participation.claim(cap + 1);
        assertThatThrownBy(() -> hog.participation.claim(2 * Participation.LOCAL_CACHE_MAX_BYTES))
            .isInstanceOf(MemoryQuotaException.QuotaExhausted.class)
            .hasMessageContaining("retry later or shed")
            .satisfies(ex -> assertThat(ex.getStackTrace()).isEmpty());
    }
}
