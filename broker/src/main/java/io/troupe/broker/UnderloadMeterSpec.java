package io.troupe.broker;

import java.time.Duration;

/**
 * The configuration of an {@link UnderloadMeter}, for a regulator (the seed's {@code sregulator_underload_meter}):
 * an alarm raised while the regulator's valve is slow to get a match, its capacity waiting for requests that do
 * not come, and cleared once requests find it fast again; with hysteresis like the {@link OverloadMeterSpec
 * overload alarm}. A broker cannot tell one queue asking too much from the other asking too little, and its
 * queues' policies shed the imbalance quickly; a regulator's valve stays open while the processes that should use
 * it do not ask, and cannot correct that itself, so the alarm tells an operator (or a supervisor that stops
 * workers).
 *
 * <p>Immutable and thread-safe; each {@link #newMeter} starts a fresh meter with the alarm clear.
 *
 * @param target    how long the valve may wait for a request before it counts as slow; at least 0. Recommended:
 *                  {@link #DEFAULT_TARGET}.
 * @param interval  how long it must stay slow to raise the alarm, and fast to clear it; positive. Recommended:
 *                  {@link #DEFAULT_INTERVAL}.
 * @param alarmName the alarm's name; not blank. Default: {@link #DEFAULT_ALARM_NAME}.
 */
public record UnderloadMeterSpec(Duration target, Duration interval, String alarmName) implements MeterSpec
{
    /** The default alarm name. */
    public static final String DEFAULT_ALARM_NAME = "underload";
    /** Default target: 100 ms. */
    public static final Duration DEFAULT_TARGET = Duration.ofMillis(100);
    /** Default interval: 1 s. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);

    /**
     * Checks the configuration.
     *
     * @param target    the valve's wait target, at least 0.
     * @param interval  the time slow (fast) that raises (clears) the alarm, positive.
     * @param alarmName the alarm's name, not blank.
     * @throws IllegalArgumentException naming the field, its value and what is allowed.
     */
    public UnderloadMeterSpec
    {
        MeterArgs.nanos("UnderloadMeterSpec", "target", target, true);
        MeterArgs.nanos("UnderloadMeterSpec", "interval", interval, false);
        MeterArgs.present("UnderloadMeterSpec", "alarmName", alarmName, "a non-blank name");
        if (alarmName.isBlank())
        {
            throw new IllegalArgumentException(
                "UnderloadMeterSpec.alarmName must be a non-blank name, was \"" + alarmName + '"');
        }
    }

    /**
     * A spec with the alarm named {@link #DEFAULT_ALARM_NAME}.
     *
     * @param target   the valve's wait target, at least 0.
     * @param interval the time slow (fast) that raises (clears) the alarm, positive.
     * @return the spec.
     */
    public static UnderloadMeterSpec of(final Duration target, final Duration interval)
    {
        return new UnderloadMeterSpec(target, interval, DEFAULT_ALARM_NAME);
    }

    @Override
    public Meter newMeter(final long nowNs)
    {
        return new UnderloadMeter(target.toNanos(), interval.toNanos(), alarmName);
    }
}
