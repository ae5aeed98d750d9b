package io.troupe.interconnect;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RttEstimatorTest
{
    private static final long MAX_NS = 1_000_000_000L;

    private final RttEstimator rtt = new RttEstimator(MAX_NS);

    @Test
    void noSampleYetReadsAsZero()
    {
        assertThat(rtt.lastNs()).isZero();
        assertThat(rtt.smoothedNs()).isZero();
        assertThat(rtt.minNs()).isZero();
    }

    @Test
    void theFirstSampleIsTakenAsIsAndEachLaterOneWeighsAnEighth()
    {
        assertThat(rtt.onSample(800_000L)).isTrue();
        assertThat(rtt.lastNs()).isEqualTo(800_000L);
        assertThat(rtt.smoothedNs()).isEqualTo(800_000L);
        assertThat(rtt.minNs()).isEqualTo(800_000L);

        rtt.onSample(1_600_000L); // 800,000 + 800,000 / 8
        assertThat(rtt.lastNs()).isEqualTo(1_600_000L);
        assertThat(rtt.smoothedNs()).isEqualTo(900_000L);
        assertThat(rtt.minNs()).isEqualTo(800_000L);

        rtt.onSample(100_000L); // 900,000 - 800,000 / 8
        assertThat(rtt.lastNs()).isEqualTo(100_000L);
        assertThat(rtt.smoothedNs()).isEqualTo(800_000L);
        assertThat(rtt.minNs()).isEqualTo(100_000L);
    }

    @Test
    void aSteadyRoundTripIsApproachedGeometrically()
    {
        rtt.onSample(8_000_000L);
        for (int i = 0; i < 60; i++)
        {
            rtt.onSample(1_000_000L);
        }

        // 7,000,000 * (7/8)^60 is about 2,300 ns left of the step
        assertThat(rtt.smoothedNs()).isBetween(1_000_000L, 1_003_000L);
        assertThat(rtt.minNs()).isEqualTo(1_000_000L);
        assertThat(rtt.lastNs()).isEqualTo(1_000_000L);
    }

    @Test
    void samplesThatAreNotPositiveOrLongerThanTheMaximumAreIgnored()
    {
        rtt.onSample(500_000L);

        assertThat(rtt.onSample(0)).isFalse();
        assertThat(rtt.onSample(-1)).isFalse();
        assertThat(rtt.onSample(Long.MIN_VALUE)).isFalse();
        assertThat(rtt.onSample(MAX_NS + 1)).isFalse();
        assertThat(rtt.onSample(Long.MAX_VALUE)).isFalse();

        assertThat(rtt.lastNs()).isEqualTo(500_000L);
        assertThat(rtt.smoothedNs()).isEqualTo(500_000L);
        assertThat(rtt.minNs()).isEqualTo(500_000L);
        assertThat(rtt.onSample(MAX_NS)).isTrue();
        assertThat(rtt.onSample(1)).isTrue();
    }

    @Test
    void theSmoothedValueStaysPositiveWithOneNanosecondSamples()
    {
        rtt.onSample(MAX_NS);
        for (int i = 0; i < 1000; i++)
        {
            rtt.onSample(1);
        }

        // integer division leaves the smoothed value up to 7 ns above a steady sample, never at 0 ("no sample")
        assertThat(rtt.smoothedNs()).isBetween(1L, 8L);
        assertThat(rtt.minNs()).isEqualTo(1L);
    }

    @Test
    void resetForgetsEverySampleAndTheNextIsTakenAsIs()
    {
        rtt.onSample(300_000L);
        rtt.onSample(200_000L);

        rtt.reset();

        assertThat(rtt.lastNs()).isZero();
        assertThat(rtt.smoothedNs()).isZero();
        assertThat(rtt.minNs()).isZero();
        rtt.onSample(700_000L);
        assertThat(rtt.smoothedNs()).isEqualTo(700_000L);
        assertThat(rtt.minNs()).isEqualTo(700_000L);
    }

    @Test
    void theMaximumMustBePositive()
    {
        assertThatThrownBy(() -> new RttEstimator(0)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("maxSampleNs");
    }
}
