package io.troupe.interconnect;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenBucketTest
{
    @Test
    void aBurstThenOnePerPeriodAndAFullBucketSavesNothingWhileItWaits()
    {
        final TokenBucket bucket = new TokenBucket(3, 100);
        assertThat(bucket.take(1_000)).isTrue();
        assertThat(bucket.take(1_000)).isTrue();
        assertThat(bucket.take(1_000)).isTrue();
        assertThat(bucket.take(1_050)).as("burst used up").isFalse();
        assertThat(bucket.take(1_100)).as("one period later").isTrue();
        assertThat(bucket.take(1_150)).isFalse();
        assertThat(bucket.take(1_399)).as("two more periods").isTrue();
        assertThat(bucket.take(1_399)).isTrue();
        assertThat(bucket.take(1_399)).isFalse();

        // a long quiet spell fills the bucket, but only up to the burst
        for (int i = 0; i < 3; i++)
        {
            assertThat(bucket.take(1_000_000)).isTrue();
        }
        assertThat(bucket.take(1_000_000)).isFalse();
    }

    @Test
    void refusesNonsense()
    {
        assertThatThrownBy(() -> new TokenBucket(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TokenBucket(1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
