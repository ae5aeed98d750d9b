package io.troupe.interconnect;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetryBackoffTest
{
    private static final long MS = 1_000_000L;
    /** A wide range (the node's defaults are 100 ms..500 ms), so that doubling shows over many steps. */
    private static final long MIN_NS = 100_000_000L;
    private static final long MAX_NS = 5_000_000_000L;

    /** Always picks the same point of the range the back-off asks for: 0 is the lowest, 1 the highest. */
    private static RandomGenerator fixed(final double fraction)
    {
        return new RandomGenerator()
        {
            @Override
            public long nextLong()
            {
                throw new UnsupportedOperationException("only bounded draws are expected");
            }

            @Override
            public long nextLong(final long bound)
            {
                return fraction >= 1 ? bound - 1 : Math.min(bound - 1, Math.round((bound - 1) * fraction));
            }
        };
    }

    private static List<Long> delays(final RetryBackoff backoff, final int count)
    {
        final List<Long> delays = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            delays.add(backoff.nextDelayNs());
        }
        return delays;
    }

    @Test
    void withoutJitterDelaysDoubleFromTheMinimumUpToTheMaximum()
    {
        final RetryBackoff backoff = new RetryBackoff(MIN_NS, MAX_NS, fixed(0.5));

        assertThat(delays(backoff, 9)).containsExactly(
            100 * MS, 200 * MS, 400 * MS, 800 * MS, 1_600 * MS, 3_200 * MS, 5_000 * MS, 5_000 * MS, 5_000 * MS);
        assertThat(backoff.attempts()).isEqualTo(9);
    }

    @Test
    void theJitterReachesTwentyPercentEitherWayButNeverLeavesMinAndMax()
    {
        final RetryBackoff lowest = new RetryBackoff(MIN_NS, MAX_NS, fixed(0));
        final RetryBackoff highest = new RetryBackoff(MIN_NS, MAX_NS, fixed(1));

        assertThat(delays(lowest, 8)).containsExactly(
            100 * MS, 160 * MS, 320 * MS, 640 * MS, 1_280 * MS, 2_560 * MS, 4_000 * MS, 4_000 * MS);
        assertThat(delays(highest, 8)).containsExactly(
            120 * MS, 240 * MS, 480 * MS, 960 * MS, 1_920 * MS, 3_840 * MS, 5_000 * MS, 5_000 * MS);
    }

    @Test
    void seededDelaysStayWithinTheirJitterBandAndSpreadOverIt()
    {
        final RetryBackoff backoff = new RetryBackoff(MIN_NS, MAX_NS, new SplittableRandom(42));
        int below = 0;
        int above = 0;
        for (int round = 0; round < 1_000; round++)
        {
            long baseNs = MIN_NS;
            for (int attempt = 0; attempt < 8; attempt++)
            {
                final long delayNs = backoff.nextDelayNs();
                assertThat(delayNs).as("round %d, attempt %d", round, attempt)
                    .isBetween(Math.max(MIN_NS, baseNs - baseNs / 5), Math.min(MAX_NS, baseNs + baseNs / 5));
                below += delayNs < baseNs ? 1 : 0;
                above += delayNs > baseNs ? 1 : 0;
                baseNs = Math.min(2 * baseNs, MAX_NS);
            }
            backoff.reset();
        }

        assertThat(below).as("delays below their base").isGreaterThan(2_000);
        assertThat(above).as("delays above their base").isGreaterThan(2_000);
    }

    @Test
    void twoNodesWithDifferentSeedsDoNotRetryInLockStep()
    {
        final List<Long> first = delays(new RetryBackoff(MIN_NS, MAX_NS, new SplittableRandom(1)), 10);
        final List<Long> second = delays(new RetryBackoff(MIN_NS, MAX_NS, new SplittableRandom(2)), 10);
        final List<Long> again = delays(new RetryBackoff(MIN_NS, MAX_NS, new SplittableRandom(1)), 10);

        assertThat(first).isNotEqualTo(second);
        assertThat(first).as("a seed repeats").isEqualTo(again);
    }

    @Test
    void resetStartsAgainFromTheMinimum()
    {
        final RetryBackoff backoff = new RetryBackoff(MIN_NS, MAX_NS, fixed(0.5));
        delays(backoff, 20);
        assertThat(backoff.attempts()).isEqualTo(20);

        backoff.reset();

        assertThat(backoff.attempts()).isZero();
        assertThat(delays(backoff, 3)).containsExactly(100 * MS, 200 * MS, 400 * MS);
        assertThat(backoff.attempts()).isEqualTo(3);
    }

    @Test
    void theWidestRangeNeitherOverflowsNorLeavesIt()
    {
        final RetryBackoff highest = new RetryBackoff(1, Long.MAX_VALUE, fixed(1));
        final RetryBackoff seeded = new RetryBackoff(1, Long.MAX_VALUE, new SplittableRandom(7));
        long previousNs = 0;
        for (int i = 0; i < 200; i++)
        {
            final long delayNs = highest.nextDelayNs();
            assertThat(delayNs).as("attempt %d", i).isPositive().isGreaterThanOrEqualTo(previousNs);
            previousNs = delayNs;
            assertThat(seeded.nextDelayNs()).as("attempt %d", i).isPositive();
        }

        assertThat(previousNs).isEqualTo(Long.MAX_VALUE);
        assertThat(highest.attempts()).isEqualTo(200);
    }

    @Test
    void equalMinAndMaxGiveAFixedDelay()
    {
        final RetryBackoff backoff = new RetryBackoff(50 * MS, 50 * MS, new SplittableRandom(3));

        assertThat(delays(backoff, 20)).allMatch(delayNs -> delayNs == 50 * MS);
    }

    @Test
    void aBaseTooSmallForJitterIsUsedAsIs()
    {
        final RetryBackoff backoff = new RetryBackoff(1, 4, new SplittableRandom(3));

        assertThat(delays(backoff, 4)).containsExactly(1L, 2L, 4L, 4L);
    }

    @Test
    void theRangeMustBePositiveAndOrdered()
    {
        final RandomGenerator random = new SplittableRandom(1);
        assertThatThrownBy(() -> new RetryBackoff(0, MAX_NS, random))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0 < minNs <= maxNs");
        assertThatThrownBy(() -> new RetryBackoff(MAX_NS, MIN_NS, random))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minNs = " + MAX_NS);
        assertThatThrownBy(() -> new RetryBackoff(MIN_NS, MAX_NS, null))
            .isInstanceOf(NullPointerException.class);

        final RetryBackoff backoff = new RetryBackoff(MIN_NS, MAX_NS, random);
        assertThat(backoff.minNs()).isEqualTo(MIN_NS);
        assertThat(backoff.maxNs()).isEqualTo(MAX_NS);
        assertThat(backoff.attempts()).isZero();
    }
}
