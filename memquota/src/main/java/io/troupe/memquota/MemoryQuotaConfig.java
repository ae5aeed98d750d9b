package io.troupe.memquota;

import java.time.Duration;

/**
 * Settings of a {@link MemoryQuotaTracker}: {@code max} bytes, past which reclamation frees the oldest data; the
 * {@code lowWater} that reclamation goes down to (default 75% of max, at most 98%); the {@code hardCap} past which
 * new claims are refused while reclamation catches up (default 125% of max, max..400% of max: between max and the
 * cap claims succeed, as the original design has it, and only the oldest data pays); and how long the reclaimer
 * waits for one participant. {@link #disabled()} tracks use but never reclaims.
 */
public final class MemoryQuotaConfig
{
    /** Smallest max that is accepted: below it, per-participant local caches alone would exceed the quota. */
    public static final long MIN_MAX_BYTES = 1L << 20;
    /** Default low water as a fraction of max. */
    public static final double DEFAULT_LOW_WATER_FRACTION = 0.75;
    /** Highest low water as a fraction of max. */
    public static final double MAX_LOW_WATER_FRACTION = 0.98;
    /** Default hard cap as a fraction of max. */
    public static final double DEFAULT_HARD_CAP_FRACTION = 1.25;
    /** Highest hard cap as a fraction of max. */
    public static final double MAX_HARD_CAP_FRACTION = 4.0;
    /** Default wait for one participant's reclamation. */
    public static final Duration DEFAULT_RECLAIM_TIMEOUT = Duration.ofMillis(100);

    private final long maxBytes;
    private final long lowWaterBytes;
    private final long hardCapBytes;
    private final Duration reclaimTimeout;

    private MemoryQuotaConfig(final long maxBytes, final long lowWaterBytes, final long hardCapBytes,
        final Duration reclaimTimeout)
    {
        this.maxBytes = maxBytes;
        this.lowWaterBytes = lowWaterBytes;
        this.hardCapBytes = hardCapBytes;
        this.reclaimTimeout = reclaimTimeout;
    }

    private static long defaultHardCap(final long maxBytes)
    {
        return (long)(maxBytes * DEFAULT_HARD_CAP_FRACTION);
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
        return new MemoryQuotaConfig(maxBytes, lowWaterBytes, defaultHardCap(maxBytes), DEFAULT_RECLAIM_TIMEOUT);
    }

    /**
     * A tracker that counts use but never reclaims (no max set).
     *
     * @return the config.
     */
    public static MemoryQuotaConfig disabled()
    {
        return new MemoryQuotaConfig(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, DEFAULT_RECLAIM_TIMEOUT);
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
        return new MemoryQuotaConfig(maxBytes, lowWaterBytes, hardCapBytes, timeout);
    }

    /**
     * Sets the hard cap: past it, new claims are refused ({@link MemoryQuotaException.QuotaExhausted}, counted) until
     * reclamation brings use down; between max and the cap they succeed while reclamation runs. A cap equal to max
     * refuses every claim once use is over max.
     *
     * @param hardCapBytes max..400% of max.
     * @return a new config with the cap.
     * @throws IllegalArgumentException naming the bad value, or if the quota is {@link #disabled()}.
     */
    public MemoryQuotaConfig hardCap(final long hardCapBytes)
    {
        final long highest = (long)(maxBytes * MAX_HARD_CAP_FRACTION);
        if (!enabled() || hardCapBytes < maxBytes || hardCapBytes > highest)
        {
            final String allowed = enabled() ? "out of range " + maxBytes + ".." + highest + " (max=" + maxBytes +
                " to 400% of it)" : "not settable on a disabled quota";
            throw new ConfigurationException("hardCap", hardCapBytes, allowed,
                "memquota hardCap=" + hardCapBytes + " " + allowed);
        }
        return new MemoryQuotaConfig(maxBytes, lowWaterBytes, hardCapBytes, reclaimTimeout);
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
     * Past which new claims are refused.
     *
     * @return hard-cap bytes ({@link Long#MAX_VALUE} when disabled).
     */
    public long hardCapBytes()
    {
        return hardCapBytes;
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
        return enabled() ? "MemoryQuotaConfig{max=" + maxBytes + ", lowWater=" + lowWaterBytes + ", hardCap=" +
            hardCapBytes + '}' :
            "MemoryQuotaConfig{disabled}";
    }
}
