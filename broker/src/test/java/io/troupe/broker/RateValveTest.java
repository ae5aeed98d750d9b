package io.troupe.broker;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The rate valve: a sliding window of {@code limit} opens per {@code interval}, and {@code max} held. */
class RateValveTest
{
    private static final long MS = 1_000_000L;
    private static final long INTERVAL = 100 * MS;
    /** Monotonic clocks may be negative. */
    private static final long T0 = -42 * MS;

    private static RateValve valve(final int limit, final int max)
    {
        return (RateValve)new RateValveSpec(limit, Duration.ofNanos(INTERVAL), max).newValve(0);
    }

    @Test
    void limitOpensAtT0AllowTheNextAtExactlyT0PlusInterval()
    {
        final RateValve valve = valve(3, 10);
        assertThat(valve.tryOpen(T0)).isTrue();
        assertThat(valve.tryOpen(T0)).isTrue();
        assertThat(valve.tryOpen(T0)).isTrue();

        assertThat(valve.tryOpen(T0)).isFalse();
        assertThat(valve.nextOpenNs(T0)).isEqualTo(T0 + INTERVAL);
        assertThat(valve.tryOpen(T0 + INTERVAL - 1)).isFalse();
        assertThat(valve.nextOpenNs(T0 + INTERVAL - 1)).isEqualTo(T0 + INTERVAL);

        assertThat(valve.tryOpen(T0 + INTERVAL)).isTrue();
        assertThat(valve.tryOpen(T0 + INTERVAL)).isTrue();
        assertThat(valve.tryOpen(T0 + INTERVAL)).isTrue();
        assertThat(valve.tryOpen(T0 + INTERVAL)).isFalse();
        assertThat(valve.nextOpenNs(T0 + INTERVAL)).isEqualTo(T0 + 2 * INTERVAL);
        assertThat(valve.size()).isEqualTo(6);
    }

    @Test
    void theWindowSlidesWithEachOpenRatherThanResettingPerInterval()
    {
        final RateValve valve = valve(3, 10);
        assertThat(valve.tryOpen(T0)).isTrue();
        assertThat(valve.tryOpen(T0 + 40 * MS)).isTrue();
        assertThat(valve.tryOpen(T0 + 80 * MS)).isTrue();

        assertThat(valve.tryOpen(T0 + 99 * MS)).isFalse();
        assertThat(valve.nextOpenNs(T0 + 99 * MS)).isEqualTo(T0 + 100 * MS);
        assertThat(valve.tryOpen(T0 + 100 * MS)).isTrue();

        // the window (T0 + 40, T0 + 140] still holds three opens: the next leaves it at T0 + 140
        assertThat(valve.tryOpen(T0 + 101 * MS)).isFalse();
        assertThat(valve.nextOpenNs(T0 + 101 * MS)).isEqualTo(T0 + 140 * MS);
        assertThat(valve.opensInWindow(T0 + 101 * MS)).isEqualTo(3);
        assertThat(valve.tryOpen(T0 + 140 * MS)).isTrue();
        assertThat(valve.tryOpen(T0 + 179 * MS)).isFalse();
        assertThat(valve.tryOpen(T0 + 180 * MS)).isTrue();
    }

    @Test
    void closingDoesNotGiveBackTheOpenItUsed()
    {
        final RateValve valve = valve(2, 10);
        valve.tryOpen(T0);
        valve.tryOpen(T0);
        valve.close(T0 + 1);
        valve.close(T0 + 1);

        assertThat(valve.size()).isZero();
        assertThat(valve.tryOpen(T0 + 2)).isFalse();
        assertThat(valve.nextOpenNs(T0 + 2)).isEqualTo(T0 + INTERVAL);
    }

    @Test
    void maxBoundsTheSlotsHeldAndThenOnlyACloseOpensIt()
    {
        final RateValve valve = valve(10, 2);
        assertThat(valve.tryOpen(T0)).isTrue();
        assertThat(valve.tryOpen(T0)).isTrue();
        assertThat(valve.tryOpen(T0)).isFalse();
        assertThat(valve.nextOpenNs(T0)).as("full: time alone does not open it").isEqualTo(Long.MAX_VALUE);

        valve.close(T0 + 1);
        assertThat(valve.tryOpen(T0 + 1)).isTrue();
    }

    @Test
    void whenBothMaxAndLimitBlockOnlyACloseOpensIt()
    {
        final RateValve valve = valve(2, 2);
        valve.tryOpen(T0);
        valve.tryOpen(T0);

        assertThat(valve.nextOpenNs(T0)).isEqualTo(Long.MAX_VALUE);
        valve.close(T0 + 1);
        assertThat(valve.nextOpenNs(T0 + 1)).isEqualTo(T0 + INTERVAL);
    }

    @Test
    void nextOpenNsIsMaxWhileTheValveIsOpen()
    {
        final RateValve valve = valve(2, 10);
        assertThat(valve.nextOpenNs(T0)).isEqualTo(Long.MAX_VALUE);
        valve.tryOpen(T0);
        assertThat(valve.nextOpenNs(T0)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aContinueDoesNotCountAsAnOpen()
    {
        final RateValve valve = valve(2, 10);
        assertThat(valve.tryOpen(T0)).isTrue();
        for (int i = 0; i < 5; i++)
        {
            assertThat(valve.keep(T0 + i)).isTrue();
        }

        assertThat(valve.tryOpen(T0 + 5)).isTrue();
        assertThat(valve.size()).isEqualTo(2);
    }

    @Test
    void holdersAboveASmallerMaxAreStoppedUntilTheSizeFits()
    {
        final RateValve valve = (RateValve)new RateValveSpec(5, Duration.ofNanos(INTERVAL), 1).newValve(3);

        assertThat(valve.tryOpen(T0)).isFalse();
        assertThat(valve.keep(T0)).isFalse();
        assertThat(valve.keep(T0)).isFalse();
        assertThat(valve.keep(T0)).isTrue();
        assertThat(valve.size()).isEqualTo(1);
    }

    @Test
    void updatesAreIgnored()
    {
        final RateValve valve = valve(1, 10);
        valve.update(-INTERVAL, T0);
        assertThat(valve.tryOpen(T0)).isTrue();
        valve.update(-INTERVAL, T0);
        assertThat(valve.tryOpen(T0)).isFalse();
        assertThat(valve.nextOpenNs(T0)).isEqualTo(T0 + INTERVAL);
    }

    @Test
    void aCloseOrKeepWithNoSlotHeldIsIgnoredAndCounted()
    {
        final RateValve valve = valve(1, 10);
        valve.close(T0);
        assertThat(valve.keep(T0)).isFalse();
        assertThat(valve.spuriousReleases()).isEqualTo(2);
        assertThat(valve.size()).isZero();
    }
}
