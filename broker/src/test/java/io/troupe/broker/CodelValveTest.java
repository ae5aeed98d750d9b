package io.troupe.broker;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CoDel valve: growth once the relative time has stayed below target for an interval, then every
 * {@code interval / sqrt(count)}, one step per sample; the mirror image for shrinking; min and max respected.
 */
class CodelValveTest
{
    private static final long MS = 1_000_000L;
    private static final long TARGET = 100 * MS;
    private static final long INTERVAL = 1_000 * MS;
    /** {@code INTERVAL / sqrt(2)}, {@code / sqrt(3)}, {@code / sqrt(4)}, truncated to nanoseconds. */
    private static final long SPACING_2 = 707_106_781L;
    private static final long SPACING_3 = 577_350_269L;
    private static final long SPACING_4 = 500_000_000L;
    private static final long BELOW = TARGET - 50 * MS;
    private static final long ABOVE = TARGET + 50 * MS;
    private static final long T0 = 5_000 * MS;

    private static CodelValve valve(final int min, final int max, final int held)
    {
        return (CodelValve)new CodelValveSpec(Duration.ofNanos(TARGET), Duration.ofNanos(INTERVAL), min, max)
            .newValve(held);
    }

    @Test
    void opensUpToMinWithoutSamplesAndNoFurther()
    {
        final CodelValve valve = valve(2, 6, 0);

        assertThat(valve.tryOpen(T0)).isTrue();
        assertThat(valve.tryOpen(T0)).isTrue();
        assertThat(valve.tryOpen(T0)).isFalse();
        assertThat(valve.nextOpenNs(T0)).isEqualTo(Long.MAX_VALUE);
        assertThat(valve.tryOpen(T0 + 100 * INTERVAL)).isFalse();
        assertThat(valve.keep(T0 + 100 * INTERVAL)).isTrue();
    }

    @Test
    void firstGrowthOnceTheRelativeTimeHasStayedBelowTargetForAnInterval()
    {
        final CodelValve valve = valve(1, 6, 1);

        valve.update(BELOW, T0);
        assertThat(valve.tryOpen(T0)).isFalse();
        assertThat(valve.nextOpenNs(T0)).isEqualTo(T0 + INTERVAL);
        valve.update(BELOW + 10 * MS, T0 + 500 * MS);
        assertThat(valve.tryOpen(T0 + INTERVAL - 1)).isFalse();
        assertThat(valve.nextOpenNs(T0 + INTERVAL - 1)).isEqualTo(T0 + INTERVAL);

        assertThat(valve.tryOpen(T0 + INTERVAL)).isTrue();
        assertThat(valve.size()).isEqualTo(2);
    }

    @Test
    void aSampleAtOrAboveTargetRestartsTheInterval()
    {
        final CodelValve valve = valve(1, 6, 1);

        valve.update(BELOW, T0);
        valve.update(TARGET, T0 + 500 * MS);
        valve.update(BELOW, T0 + 600 * MS);

        assertThat(valve.tryOpen(T0 + INTERVAL)).isFalse();
        assertThat(valve.nextOpenNs(T0 + INTERVAL)).isEqualTo(T0 + 600 * MS + INTERVAL);
        assertThat(valve.tryOpen(T0 + 600 * MS + INTERVAL)).isTrue();
    }

    @Test
    void furtherGrowthIsSpacedIntervalOverSqrtCountUpToMax()
    {
        final CodelValve valve = valve(1, 6, 1);
        valve.update(BELOW, T0);
        final long g1 = T0 + INTERVAL;
        assertThat(valve.tryOpen(g1)).isTrue();

        final long g2 = g1 + INTERVAL;
        growsExactlyAt(valve, g1, g2);
        final long g3 = g2 + SPACING_2;
        growsExactlyAt(valve, g2, g3);
        final long g4 = g3 + SPACING_3;
        growsExactlyAt(valve, g3, g4);
        final long g5 = g4 + SPACING_4;
        growsExactlyAt(valve, g4, g5);
        assertThat(valve.size()).isEqualTo(6);

        valve.update(BELOW, g5 + 1);
        assertThat(valve.nextOpenNs(g5 + 1)).as("full").isEqualTo(Long.MAX_VALUE);
        assertThat(valve.tryOpen(g5 + 10 * INTERVAL)).as("never above max").isFalse();
        assertThat(valve.size()).isEqualTo(6);
    }

    /** After a growth at {@code previous}, a fresh sample makes the valve grow at {@code due} and not before. */
    private static void growsExactlyAt(final CodelValve valve, final long previous, final long due)
    {
        final int size = valve.size();
        assertThat(valve.tryOpen(previous)).isFalse();
        valve.update(BELOW, previous + 1);
        assertThat(valve.nextOpenNs(previous + 1)).isEqualTo(due);
        assertThat(valve.tryOpen(due - 1)).isFalse();
        assertThat(valve.tryOpen(due)).isTrue();
        assertThat(valve.size()).isEqualTo(size + 1);
    }

    @Test
    void growsAtMostOncePerSample()
    {
        final CodelValve valve = valve(0, 10, 0);
        valve.update(BELOW, T0);
        assertThat(valve.tryOpen(T0 + INTERVAL)).isTrue();

        final long late = T0 + 10 * INTERVAL;
        assertThat(valve.tryOpen(late)).as("no sample since the last growth").isFalse();
        assertThat(valve.nextOpenNs(late)).isEqualTo(Long.MAX_VALUE);
        valve.update(BELOW, late);
        assertThat(valve.nextOpenNs(late)).as("due long ago: open now").isEqualTo(Long.MAX_VALUE);
        assertThat(valve.tryOpen(late)).isTrue();
        assertThat(valve.tryOpen(late)).as("no catching up on missed steps").isFalse();
    }

    @Test
    void shrinksAfterASustainedAboveTargetPeriodWithTheSameSpacingDownToMin()
    {
        final CodelValve valve = valve(1, 6, 5);

        valve.update(ABOVE, T0);
        assertThat(valve.tryOpen(T0)).isFalse();
        assertThat(valve.keep(T0 + INTERVAL - 1)).isTrue();
        final long s1 = T0 + INTERVAL;
        assertThat(valve.keep(s1)).isFalse();
        assertThat(valve.size()).isEqualTo(4);

        final long s2 = s1 + INTERVAL;
        shrinksExactlyAt(valve, s1, s2);
        final long s3 = s2 + SPACING_2;
        shrinksExactlyAt(valve, s2, s3);
        final long s4 = s3 + SPACING_3;
        shrinksExactlyAt(valve, s3, s4);
        assertThat(valve.size()).isEqualTo(1);

        valve.update(ABOVE, s4 + 1);
        assertThat(valve.keep(s4 + 10 * INTERVAL)).as("never below min").isTrue();
        assertThat(valve.size()).isEqualTo(1);
    }

    /** After a shrink at {@code previous}, a fresh sample makes a keep fail at {@code due} and not before. */
    private static void shrinksExactlyAt(final CodelValve valve, final long previous, final long due)
    {
        final int size = valve.size();
        assertThat(valve.keep(previous)).as("no sample since the last shrink").isTrue();
        valve.update(ABOVE, previous + 1);
        assertThat(valve.keep(due - 1)).isTrue();
        assertThat(valve.keep(due)).isFalse();
        assertThat(valve.size()).isEqualTo(size - 1);
    }

    @Test
    void aBelowSampleEndsTheShrinkEpisodeAndAnAboveOneTheGrowthEpisode()
    {
        final CodelValve valve = valve(0, 10, 5);
        valve.update(ABOVE, T0);
        assertThat(valve.keep(T0 + INTERVAL)).isFalse();

        final long below = T0 + INTERVAL + 1;
        valve.update(BELOW, below);
        assertThat(valve.keep(below + 2 * INTERVAL)).isTrue();
        assertThat(valve.tryOpen(below + INTERVAL - 1)).isFalse();
        assertThat(valve.tryOpen(below + INTERVAL)).isTrue();

        final long above = below + INTERVAL + 1;
        valve.update(ABOVE, above);
        assertThat(valve.tryOpen(above + 2 * INTERVAL)).isFalse();
        assertThat(valve.keep(above + INTERVAL - 1)).as("a new shrink episode waits a whole interval").isTrue();
        assertThat(valve.keep(above + INTERVAL)).isFalse();
    }

    @Test
    void aGrowthEpisodeReenteredSoonResumesNearItsPace()
    {
        final CodelValve valve = valve(0, 100, 0);
        valve.update(BELOW, T0);
        final long g1 = T0 + INTERVAL;
        assertThat(valve.tryOpen(g1)).isTrue();
        final long g2 = g1 + INTERVAL;
        growsExactlyAt(valve, g1, g2);
        final long g3 = g2 + SPACING_2;
        growsExactlyAt(valve, g2, g3);
        final long g4 = g3 + SPACING_3;
        growsExactlyAt(valve, g3, g4);

        // count went from 1 to 4: delta 3, and the next step was due recently
        valve.update(ABOVE, g4 + 1);
        final long again = g4 + 2;
        valve.update(BELOW, again);
        assertThat(valve.tryOpen(again + INTERVAL)).isTrue();
        valve.update(BELOW, again + INTERVAL + 1);
        assertThat(valve.nextOpenNs(again + INTERVAL + 1)).isEqualTo(again + INTERVAL + SPACING_3);
    }

    @Test
    void aGrowthEpisodeReenteredLateStartsAgainFromOne()
    {
        final CodelValve valve = valve(0, 100, 0);
        valve.update(BELOW, T0);
        final long g1 = T0 + INTERVAL;
        assertThat(valve.tryOpen(g1)).isTrue();
        final long g2 = g1 + INTERVAL;
        growsExactlyAt(valve, g1, g2);
        final long g3 = g2 + SPACING_2;
        growsExactlyAt(valve, g2, g3);
        final long g4 = g3 + SPACING_3;
        growsExactlyAt(valve, g3, g4);

        valve.update(ABOVE, g4 + 1);
        final long again = g4 + 20 * INTERVAL;
        valve.update(BELOW, again);
        assertThat(valve.tryOpen(again + INTERVAL)).isTrue();
        valve.update(BELOW, again + INTERVAL + 1);
        assertThat(valve.nextOpenNs(again + INTERVAL + 1)).isEqualTo(again + 2 * INTERVAL);
    }

    @Test
    void holdersAboveMaxAreStoppedWithoutWaitingForSamples()
    {
        final CodelValve valve = valve(1, 2, 4);

        assertThat(valve.tryOpen(T0)).isFalse();
        assertThat(valve.keep(T0)).isFalse();
        assertThat(valve.keep(T0)).isFalse();
        assertThat(valve.keep(T0)).isTrue();
        assertThat(valve.size()).isEqualTo(2);
    }

    @Test
    void aCloseOrKeepWithNoSlotHeldIsIgnoredAndCounted()
    {
        final CodelValve valve = valve(0, 1, 0);
        valve.close(T0);
        assertThat(valve.keep(T0)).isFalse();
        assertThat(valve.spuriousReleases()).isEqualTo(2);
        assertThat(valve.size()).isZero();
    }
}
