package io.troupe.memquota;

import java.time.Duration;

/**
 * Settings of a {@link MemoryQuotaTracker}: {@code max} bytes, the {@code lowWater} that reclamation goes
 * down to (default 75% of max, at most 98%), and how long the reclaimer waits for one participant.
 * {@link #disabled()} tracks use but never reclaims.
 */
public final class MemoryQuotaConfig
{
    /** Smallest max that is accepted: below it, per-participant local caches alone would exceed the quota. */
    public static final long MIN_MAX_BYTES = 1L << 20;
    /** Default low water as a fraction of max. */
    public static final double DEFAULT_LOW_WATER_FRACTION = 0.75;
    /** Highest low water as a fraction of max. */
    public static final double MAX_LOW_WATER_FRACTION = 0.98;
    /** Default wait for one participant's reclamation. */
    public static final Duration DEFAULT_RECLAIM_TIMEOUT = Duration.ofMillis(100);

    private final long maxBytes;
    private final long lowWaterBytes;
    private final Duration reclaimTimeout;

    private MemoryQuotaConfig(final long maxBytes, final long lowWaterBytes, final Duration reclaimTimeout)
    {
        this.maxBytes = maxBytes;
        this.lowWaterBytes = lowWaterBytes;
        this.reclaimTimeout = reclaimTimeout;
    }

    /**
     * A quota with low water at 75% of max.
     *
     * @param maxBytes at least {@link #MIN_MAX_BYTES}.
     * @return the config.
     * @throws IllegalArgumentException naming the bad value.
     */
    public static MemoryQuotaConfig of(final long maxBytes)
    {
        checkMax(maxBytes);
        return of(maxBytes, (long)(maxBytes * DEFAULT_LOW_WATER_FRACTION));
    }

    /**
     * A quota with an explicit low water.
     *
     * @param maxBytes      at least {@link #MIN_MAX_BYTES}.
     * @param lowWaterBytes at least 1 and at most 98% of max.
     * @return the config.
     * @throws IllegalArgumentException naming the bad value.
     */
    public static MemoryQuotaConfig of(final long maxBytes, final long lowWaterBytes)
    {
        checkMax(maxBytes);
        if (lowWaterBytes < 1 || lowWaterBytes > (long)(maxBytes * MAX_LOW_WATER_FRACTION))
        {
            final String allowed = "out of range 1.." + (long)(maxBytes * MAX_LOW_WATER_FRACTION) + " (98% of max=" +
                maxBytes + ")";
            throw new ConfigurationException("lowWater", lowWaterBytes, allowed,
                "memquota lowWater=" + lowWaterBytes + " " + allowed);
        }
        return new MemoryQuotaConfig(maxBytes, lowWaterBytes, DEFAULT_RECLAIM_TIMEOUT);
    }

    /**
     * A tracker that counts use but never reclaims (no max set).
     *
     * @return the config.
     */
    public static MemoryQuotaConfig disabled()
    {
        return new MemoryQuotaConfig(Long.MAX_VALUE, Long.MAX_VALUE, DEFAULT_RECLAIM_TIMEOUT);
    }

    /**
     * Sets how long the reclaimer waits for one participant before counting it unresponsive.
     *
     * @param timeout 1 ms .. 10 s.
     * @return a new config with the timeout.
     */
    public MemoryQuotaConfig reclaimTimeout(final Duration timeout)
    {
        if (timeout == null || timeout.compareTo(Duration.ofMillis(1)) < 0 ||
            timeout.compareTo(Duration.ofSeconds(10)) > 0)
        {
            throw new ConfigurationException("reclaimTimeout", timeout, "out of range 1ms..10s",
                "memquota reclaimTimeout=" + timeout + " out of range 1ms..10s");
        }
        return new MemoryQuotaConfig(maxBytes, lowWaterBytes, timeout);
    }

    private static void checkMax(final long maxBytes)
    {
        if (maxBytes < MIN_MAX_BYTES)
        {
            final String allowed = "at least " + MIN_MAX_BYTES + " bytes (1 MiB)";
            throw new ConfigurationException("max", maxBytes, allowed,
                "memquota max=" + maxBytes + " bytes is below the minimum " + MIN_MAX_BYTES + " (1 MiB)");
        }
    }

    /**
     * Whether the quota reclaims at all.
     *
     * @return false for {@link #disabled()}.
     */
    public boolean enabled()
    {
        return maxBytes != Long.MAX_VALUE;
    }

    /**
     * The quota.
     *
     * @return max bytes.
     */
    public long maxBytes()
    {
        return maxBytes;
    }

    /**
     * Where reclamation stops.
     *
     * @return low-water bytes.
     */
    public long lowWaterBytes()
    {
        return lowWaterBytes;
    }

    /**
     * Wait per participant.
     *
     * @return the timeout.
     */
    public Duration reclaimTimeout()
    {
        return reclaimTimeout;
    }

    @Override
    public String toString()
    {
        return enabled() ? "MemoryQuotaConfig{max=" + maxBytes + ", lowWater=" + lowWaterBytes + '}' :
            "MemoryQuotaConfig{disabled}";
    }
}
