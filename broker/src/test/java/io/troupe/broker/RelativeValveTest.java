package io.troupe.broker;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The relative valve: {@code min} always, one more (up to {@code max}) per update below {@code target}, and
 * back towards {@code min} through {@code keep} when an update is at or above it.
 */
class RelativeValveTest
{
    private static final long MS = 1_000_000L;
    private static final long TARGET = 100 * MS;
    private static final long T0 = 1_000 * MS;

    private static RelativeValve valve(final int min, final int max)
    {
        return (RelativeValve)new RelativeValveSpec(Duration.ofNanos(TARGET), min, max).newValve(0);
    }

    @Test
    void beforeAnyUpdateItOpensOnlyUpToMinAndStopsNobody()
    {
        final RelativeValve valve = valve(2, 5);

        assertThat(valve.tryOpen(T0)).isTrue();
        assertThat(valve.tryOpen(T0)).isTrue();
        assertThat(valve.tryOpen(T0)).isFalse();
        assertThat(valve.keep(T0)).isTrue();
        assertThat(valve.nextOpenNs(T0)).isEqualTo(Long.MAX_VALUE);
        assertThat(valve.size()).isEqualTo(2);
    }

    @Test
    void growsFromMinToMaxOneSlotPerUpdateBelowTarget()
    {
        final RelativeValve valve = valve(2, 5);
        valve.tryOpen(T0);
        valve.tryOpen(T0);

        long now = T0;
        for (final long relative : new long[] {50 * MS, 0, -30 * MS})
        {
            now += 200 * MS;
            valve.update(relative, now);
            assertThat(valve.tryOpen(now)).as("one open for the update %d", relative).isTrue();
            assertThat(valve.tryOpen(now)).as("only one open per update").isFalse();
            assertThat(valve.keep(now)).as("holders keep their slots while below target").isTrue();
        }
        assertThat(valve.size()).isEqualTo(5);

        valve.update(-500 * MS, now + 200 * MS);
        assertThat(valve.tryOpen(now + 200 * MS)).as("never above max").isFalse();
        assertThat(valve.size()).isEqualTo(5);
    }

    @Test
    void anUpdateAtTargetStopsGrowthAndShrinksTowardsMinThroughKeep()
    {
        final RelativeValve valve = valve(2, 5);
        valve.tryOpen(T0);
        valve.tryOpen(T0);
        for (int i = 1; i <= 3; i++)
        {
            valve.update(TARGET - 1, T0 + i);
            valve.tryOpen(T0 + i);
        }
        assertThat(valve.size()).isEqualTo(5);

        valve.update(TARGET, T0 + 10);
        assertThat(valve.tryOpen(T0 + 10)).isFalse();
        assertThat(valve.keep(T0 + 11)).isFalse();
        assertThat(valve.keep(T0 + 12)).isFalse();
        assertThat(valve.keep(T0 + 13)).isFalse();
        assertThat(valve.size()).isEqualTo(2);
        assertThat(valve.keep(T0 + 14)).as("never below min").isTrue();
        assertThat(valve.size()).isEqualTo(2);
        assertThat(valve.tryOpen(T0 + 15)).isFalse();

        // workers wait for clients again: growth resumes, holders are kept
        valve.update(10 * MS, T0 + 20);
        assertThat(valve.tryOpen(T0 + 20)).isTrue();
        assertThat(valve.keep(T0 + 21)).isTrue();
    }

    @Test
    void aGrantIsReplacedByTheNextUpdateAndNeverAccumulates()
    {
        final RelativeValve valve = valve(0, 10);
        valve.update(0, T0);
        valve.update(0, T0 + 1);
        valve.update(0, T0 + 2);
        assertThat(valve.tryOpen(T0 + 3)).isTrue();
        assertThat(valve.tryOpen(T0 + 3)).isFalse();

        valve.update(0, T0 + 4);
        valve.update(TARGET + 1, T0 + 5);
        assertThat(valve.tryOpen(T0 + 6)).as("the later update above target withdrew the grant").isFalse();
    }

    @Test
    void opensBelowMinUseNoGrant()
    {
        final RelativeValve valve = valve(2, 5);
        valve.update(0, T0);
        assertThat(valve.tryOpen(T0)).isTrue();
        assertThat(valve.tryOpen(T0)).isTrue();
        assertThat(valve.tryOpen(T0)).as("the grant is still there at min").isTrue();
        assertThat(valve.tryOpen(T0)).isFalse();
    }

    @Test
    void aNegativeTargetGrowsOnlyOnceClientsWaitThatLong()
    {
        final RelativeValve valve = (RelativeValve)new RelativeValveSpec(Duration.ofMillis(-50), 0, 3).newValve(0);

        valve.update(-10 * MS, T0);
        assertThat(valve.tryOpen(T0)).isFalse();
        valve.update(-60 * MS, T0 + 1);
        assertThat(valve.tryOpen(T0 + 1)).isTrue();
    }

    @Test
    void holdersAboveMaxAreStoppedWhateverTheRelativeTime()
    {
        final RelativeValve valve = (RelativeValve)new RelativeValveSpec(Duration.ofNanos(TARGET), 1, 2).newValve(4);
        assertThat(valve.keep(T0)).as("unknown relative time, above max").isFalse();
        valve.update(0, T0 + 1);
        assertThat(valve.keep(T0 + 1)).as("below target, above max").isFalse();
        assertThat(valve.keep(T0 + 2)).isTrue();
        assertThat(valve.size()).isEqualTo(2);
    }

    @Test
    void aCloseOrKeepWithNoSlotHeldIsIgnoredAndCounted()
    {
        final RelativeValve valve = valve(0, 1);
        valve.close(T0);
        assertThat(valve.keep(T0)).isFalse();
        assertThat(valve.spuriousReleases()).isEqualTo(2);
        assertThat(valve.size()).isZero();
    }
}
