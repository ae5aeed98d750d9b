package io.troupe.broker;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The open valve: up to {@code max} slots, keeps while the size fits, ignores time and updates. */
class OpenValveTest
{
    private static final long T0 = 7_000_000_000L;

    @Test
    void opensUpToMaxAndReopensAfterAClose()
    {
        final OpenValve valve = (OpenValve)new OpenValveSpec(3).newValve(0);

        assertThat(valve.tryOpen(T0)).isTrue();
        assertThat(valve.tryOpen(T0)).isTrue();
        assertThat(valve.tryOpen(T0)).isTrue();
        assertThat(valve.tryOpen(T0)).isFalse();
        assertThat(valve.size()).isEqualTo(3);

        valve.close(T0 + 1);
        assertThat(valve.size()).isEqualTo(2);
        assertThat(valve.tryOpen(T0 + 2)).isTrue();
        assertThat(valve.tryOpen(T0 + 2)).isFalse();
    }

    @Test
    void holdersKeepTheirSlotsWhileTheSizeFits()
    {
        final OpenValve valve = (OpenValve)new OpenValveSpec(2).newValve(0);
        valve.tryOpen(T0);
        valve.tryOpen(T0);

        assertThat(valve.keep(T0 + 1)).isTrue();
        assertThat(valve.keep(T0 + 2)).isTrue();
        assertThat(valve.size()).isEqualTo(2);
    }

    @Test
    void reconfigurationToASmallerMaxStopsHoldersUntilTheSizeFits()
    {
        final OpenValve old = (OpenValve)new OpenValveSpec(5).newValve(0);
        for (int i = 0; i < 5; i++)
        {
            assertThat(old.tryOpen(T0)).isTrue();
        }

        final OpenValve valve = (OpenValve)new OpenValveSpec(2).newValve(old.size());
        assertThat(valve.size()).isEqualTo(5);
        assertThat(valve.tryOpen(T0 + 1)).isFalse();

        assertThat(valve.keep(T0 + 2)).isFalse();
        assertThat(valve.keep(T0 + 3)).isFalse();
        assertThat(valve.keep(T0 + 4)).isFalse();
        assertThat(valve.size()).isEqualTo(2);
        assertThat(valve.keep(T0 + 5)).isTrue();
        assertThat(valve.size()).isEqualTo(2);

        assertThat(valve.tryOpen(T0 + 6)).isFalse();
        valve.close(T0 + 7);
        assertThat(valve.tryOpen(T0 + 8)).isTrue();
    }

    @Test
    void maxZeroLetsNothingProceedAndStopsEveryHolder()
    {
        final OpenValve valve = (OpenValve)new OpenValveSpec(0).newValve(2);

        assertThat(valve.tryOpen(T0)).isFalse();
        assertThat(valve.keep(T0)).isFalse();
        assertThat(valve.keep(T0)).isFalse();
        assertThat(valve.size()).isZero();
    }

    @Test
    void updatesAreIgnoredAndOnlyEventsOpenAFullValve()
    {
        final OpenValve valve = (OpenValve)new OpenValveSpec(1).newValve(0);
        valve.update(-1_000_000_000L, T0);
        assertThat(valve.tryOpen(T0)).isTrue();
        valve.update(1_000_000_000L, T0);

        assertThat(valve.nextOpenNs(T0)).isEqualTo(Long.MAX_VALUE);
        assertThat(valve.keep(T0)).isTrue();
        assertThat(valve.tryOpen(T0 + 1_000_000_000_000L)).isFalse();
    }

    @Test
    void aCloseOrKeepWithNoSlotHeldIsIgnoredAndCounted()
    {
        final OpenValve valve = (OpenValve)new OpenValveSpec(2).newValve(0);

        valve.close(T0);
        assertThat(valve.keep(T0)).isFalse();

        assertThat(valve.size()).isZero();
        assertThat(valve.spuriousReleases()).isEqualTo(2);
        assertThat(valve.tryOpen(T0)).isTrue();
        assertThat(valve.tryOpen(T0)).isTrue();
        assertThat(valve.tryOpen(T0)).as("the spurious close must not have freed a slot").isFalse();
    }
}
