package io.troupe.memquota;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MemoryQuotaConfigTest
{
    private static final long MIB = 1L << 20;

    @Test
    void maxBelowOneMibIsRefused()
    {
        assertThatThrownBy(() -> MemoryQuotaConfig.of(MIB - 1))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("max=")
            .hasMessageContaining(Long.toString(MIB - 1));
        assertThatThrownBy(() -> MemoryQuotaConfig.of(MIB - 1, 1000))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("max=");
        assertThat(MemoryQuotaConfig.of(MIB).maxBytes()).isEqualTo(MIB);
    }

    @Test
    void lowWaterMustBePositive()
    {
        assertThatThrownBy(() -> MemoryQuotaConfig.of(4 * MIB, 0))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("lowWater=0");
        assertThatThrownBy(() -> MemoryQuotaConfig.of(4 * MIB, -5))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("lowWater");
    }

    @Test
    void lowWaterAboveNinetyEightPercentOfMaxIsRefused()
    {
        final long max = 100 * MIB;
        final long limit = (long)(max * 0.98);
        assertThat(MemoryQuotaConfig.of(max, limit).lowWaterBytes()).isEqualTo(limit);
        assertThatThrownBy(() -> MemoryQuotaConfig.of(max, limit + 1))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("lowWater=" + (limit + 1));
        assertThatThrownBy(() -> MemoryQuotaConfig.of(max, max))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("lowWater");
    }

    @Test
    void defaultLowWaterIsThreeQuartersOfMax()
    {
        final MemoryQuotaConfig config = MemoryQuotaConfig.of(8 * MIB);
        assertThat(config.enabled()).isTrue();
        assertThat(config.maxBytes()).isEqualTo(8 * MIB);
        assertThat(config.lowWaterBytes()).isEqualTo(6 * MIB);
        assertThat(config.hardCapBytes()).as("125% of max").isEqualTo(10 * MIB);
        assertThat(config.reclaimTimeout()).isEqualTo(MemoryQuotaConfig.DEFAULT_RECLAIM_TIMEOUT);
    }

    @Test
    void reclaimTimeoutMustBeBetweenOneMillisecondAndTenSeconds()
    {
        final MemoryQuotaConfig config = MemoryQuotaConfig.of(2 * MIB);
        assertThat(config.reclaimTimeout(Duration.ofMillis(1)).reclaimTimeout()).isEqualTo(Duration.ofMillis(1));
        assertThat(config.reclaimTimeout(Duration.ofSeconds(10)).reclaimTimeout()).isEqualTo(Duration.ofSeconds(10));
        final MemoryQuotaConfig changed = config.hardCap(3 * MIB).reclaimTimeout(Duration.ofMillis(20));
        assertThat(changed.maxBytes()).isEqualTo(config.maxBytes());
        assertThat(changed.lowWaterBytes()).isEqualTo(config.lowWaterBytes());
        assertThat(changed.hardCapBytes()).isEqualTo(3 * MIB);
        assertThat(changed.hardCap(4 * MIB).reclaimTimeout()).isEqualTo(Duration.ofMillis(20));
        assertThatThrownBy(() -> config.reclaimTimeout(Duration.ofNanos(999_999)))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("reclaimTimeout");
        assertThatThrownBy(() -> config.reclaimTimeout(Duration.ofSeconds(10).plusNanos(1)))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("reclaimTimeout");
        assertThatThrownBy(() -> config.reclaimTimeout(null))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("reclaimTimeout");
    }

    @Test
    void disabledNeverReclaims()
    {
        final MemoryQuotaConfig config = MemoryQuotaConfig.disabled();
        assertThat(config.enabled()).isFalse();
        final ManualClock clock = new ManualClock();
        try (MemoryQuotaTracker tracker = MemoryQuotaTracker.create(config, clock);
             Account account = tracker.newAccount())
        {
            final FakeParticipant participant = FakeParticipant.register(account, "p", clock.nowNs());
            participant.participation.claim(1L << 40);
            assertThat(tracker.usedBytes()).isGreaterThanOrEqualTo(1L << 40);
            assertThat(tracker.reclaimWanted()).isFalse();
            assertThat(tracker.reclaimIfNeeded()).isZero();
            assertThat(participant.wasReclaimed()).isFalse();
            assertThat(tracker.counters().reclamations()).isZero();
        }
    }
}
