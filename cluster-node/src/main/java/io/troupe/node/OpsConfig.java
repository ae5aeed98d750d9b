package io.troupe.node;

import java.time.Duration;

/**
 * Settings of a node's counters file and error log ({@code troupe.ops}), which operators read (the troupe CLI,
 * Prometheus). Each is declared in {@link OpsSettings}, which gives the defaults and the bounds the setters refuse a
 * value out of. Not thread safe: build it, then hand it over (a node config hands out copies).
 */
public final class OpsConfig
{
    private Duration countersInterval = OpsSettings.COUNTERS_INTERVAL.defaultValue();
    private int maxCounters = OpsSettings.MAX_COUNTERS.defaultValue();
    private int errorLogBytes = OpsSettings.ERROR_LOG_SIZE.defaultValue();

    /** Settings with every default. */
    public OpsConfig()
    {
    }

    /**
     * How often the node copies its counters into the file.
     *
     * @param interval 10ms..10s.
     * @return this.
     * @throws IllegalArgumentException if out of range.
     */
    public OpsConfig countersInterval(final Duration interval)
    {
        this.countersInterval = OpsSettings.COUNTERS_INTERVAL.requireValid(interval);
        return this;
    }

    /**
     * How often the node copies its counters into the file.
     *
     * @return the interval.
     */
    public Duration countersInterval()
    {
        return countersInterval;
    }

    /**
     * Room in the file for counters.
     *
     * @param max 256..1048576.
     * @return this.
     * @throws IllegalArgumentException if out of range.
     */
    public OpsConfig maxCounters(final int max)
    {
        this.maxCounters = OpsSettings.MAX_COUNTERS.requireValid(max);
        return this;
    }

    /**
     * Room in the file for counters.
     *
     * @return the number of counters.
     */
    public int maxCounters()
    {
        return maxCounters;
    }

    /**
     * Bytes of the distinct error log.
     *
     * @param bytes 64KiB..256MiB.
     * @return this.
     * @throws IllegalArgumentException if out of range.
     */
    public OpsConfig errorLogBytes(final int bytes)
    {
        this.errorLogBytes = OpsSettings.ERROR_LOG_SIZE.requireValid(bytes);
        return this;
    }

    /**
     * Bytes of the distinct error log.
     *
     * @return the size.
     */
    public int errorLogBytes()
    {
        return errorLogBytes;
    }
}
