package io.troupe.interconnect;

/**
 * Round-trip time to one peer from its samples: the last one, a smoothed value and the minimum, as TCP keeps
 * its SRTT (RFC 6298): the first sample is taken as is, each later one moves the smoothed value by 1/8 of the
 * difference, {@code smoothed += (sample - smoothed) / 8} in integer nanoseconds.
 *
 * <p>A sample that is not positive, or longer than the largest the caller allows (the failure timeout: a round
 * trip that long would have ended the session), is ignored: it comes from a clock that went back or an echo
 * that makes no sense, and one such value would skew the smoothed time for many samples.
 *
 * <p>Not thread safe: one instance per peer, used from the interconnect agent's thread, which publishes the
 * values to the peer's counters.
 */
final class RttEstimator
{
    /** Weight of a new sample in the smoothed value is 1 / {@value}. */
    static final int SMOOTHING_DIVISOR = 8;

    private final long maxSampleNs;
    private long lastNs;
    private long smoothedNs;
    private long minNs;

    /**
     * An estimator without samples.
     *
     * @param maxSampleNs the longest sample taken, in nanoseconds; longer ones are ignored.
     * @throws IllegalArgumentException if it is not positive.
     */
    RttEstimator(final long maxSampleNs)
    {
        if (maxSampleNs <= 0)
        {
            throw new IllegalArgumentException("maxSampleNs = " + maxSampleNs + " must be positive");
        }
        this.maxSampleNs = maxSampleNs;
    }

    /**
     * Takes a sample.
     *
     * @param rttNs a measured round trip, in nanoseconds.
     * @return whether it was taken; false if it is not positive or longer than the maximum.
     */
    boolean onSample(final long rttNs)
    {
        if (rttNs <= 0 || rttNs > maxSampleNs)
        {
            return false;
        }
        lastNs = rttNs;
        if (smoothedNs == 0)
        {
            smoothedNs = rttNs;
            minNs = rttNs;
        }
        else
        {
            // both values are at most maxSampleNs, so the difference cannot overflow
            smoothedNs += (rttNs - smoothedNs) / SMOOTHING_DIVISOR;
            minNs = Math.min(minNs, rttNs);
        }
        return true;
    }

    /**
     * The latest sample taken.
     *
     * @return nanoseconds, 0 before the first.
     */
    long lastNs()
    {
        return lastNs;
    }

    /**
     * The smoothed round trip.
     *
     * @return nanoseconds, 0 before the first sample.
     */
    long smoothedNs()
    {
        return smoothedNs;
    }

    /**
     * The shortest sample taken since the last reset.
     *
     * @return nanoseconds, 0 before the first.
     */
    long minNs()
    {
        return minNs;
    }

    /** Forgets every sample: a new session starts afresh. */
    void reset()
    {
        lastNs = 0;
        smoothedNs = 0;
        minNs = 0;
    }
}
