package io.troupe.memquota;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Once use is over max, refills of local caches are refused until reclamation brings use down, so use stays
 * within max plus one local cache per participant plus the claim that crossed it. A refusal claims nothing
 * and never blocks.
 */
class ClaimRefusalTest
{
    private static final long MAX = 1L << 20;
    private static final long ELEMENT = 1000;

    private final ManualClock clock = new ManualClock();
    private final MemoryQuotaTracker tracker = MemoryQuotaTracker.create(MemoryQuotaConfig.of(MAX), clock);

    @AfterEach
    void tearDown()
    {
        tracker.close();
    }

    @Test
    void claimsAreRefusedOnceUseIsOverMaxAndUseStaysBounded()
    {
        final FakeParticipant old = FakeParticipant.register(tracker.newAccount(), "old", 1);
        final FakeParticipant young = FakeParticipant.register(tracker.newAccount(), "young", 2);
        old.participation.claim(MAX / 2);
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
                .as("use within max + one local cache per participant + one element")
                .isLessThanOrEqualTo(MAX + 2 * Participation.LOCAL_CACHE_MAX_BYTES + ELEMENT);
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
        hog.participation.claim(MAX + 1);
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
        hog.participation.claim(MAX + 1);
        assertThatThrownBy(() -> hog.participation.claim(2 * Participation.LOCAL_CACHE_MAX_BYTES))
            .isInstanceOf(MemoryQuotaException.QuotaExhausted.class)
            .hasMessageContaining("retry later or shed")
            .satisfies(ex -> assertThat(ex.getStackTrace()).isEmpty());
    }
}
