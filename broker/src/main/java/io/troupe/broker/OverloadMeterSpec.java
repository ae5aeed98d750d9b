package io.troupe.broker;

import java.time.Duration;

/**
 * The configuration of an {@link OverloadMeter}: an alarm raised while the broker's own message queue is slow
 * (the broker receives more than it can handle), with hysteresis so that a short spike or a short lull does
 * not toggle it. This watches the broker's load, not the congestion of its request queues, which their
 * policies shed by dropping.
 *
 * <p>Immutable and thread-safe; each {@link #newMeter} starts a fresh meter with the alarm clear.
 *
 * @param target    the message-queue sojourn above which the broker counts as slow; at least 0 (0: any
 *                  wait at all is slow). Recommended: {@link #DEFAULT_TARGET}.
 * @param interval  how long the sojourn must stay above the target to raise the alarm, and at or below it to
 *                  clear it; positive. Recommended: {@link #DEFAULT_INTERVAL}.
 * @param alarmName the alarm raised and cleared through {@link MeterOutput#alarm}; not blank. Default:
 *                  {@link #DEFAULT_ALARM_NAME}.
 */
public record OverloadMeterSpec(Duration target, Duration interval, String alarmName) implements MeterSpec
{
    /** The default alarm name. */
    public static final String DEFAULT_ALARM_NAME = "overload";
    /** A target that users perceive as instantaneous: 100 ms. */
    public static final Duration DEFAULT_TARGET = Duration.ofMillis(100);
    /** An interval in which users stay engaged: 1 s. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);

    /**
     * Checks the configuration.
     *
     * @param target    the message-queue sojourn target, at least 0.
     * @param interval  the time above (below) the target that raises (clears) the alarm, positive.
     * @param alarmName the alarm's name, not blank.
     * @throws IllegalArgumentException naming the field, its value and what is allowed.
     */
    public OverloadMeterSpec
    {
        MeterArgs.nanos("OverloadMeterSpec", "target", target, true);
        MeterArgs.nanos("OverloadMeterSpec", "interval", interval, false);
        MeterArgs.present("OverloadMeterSpec", "alarmName", alarmName, "a non-blank name");
        if (alarmName.isBlank())
        {
            throw new IllegalArgumentException(
                "OverloadMeterSpec.alarmName must be a non-blank name, was \"" + alarmName + '"');
        }
    }

    /**
     * A spec with the alarm named {@link #DEFAULT_ALARM_NAME}.
     *
     * @param target   the message-queue sojourn target, at least 0.
     * @param interval the time above (below) the target that raises (clears) the alarm, positive.
     * @return the spec.
     * @throws IllegalArgumentException naming the field, its value and what is allowed.
     */
    public static OverloadMeterSpec of(final Duration target, final Duration interval)
    {
        return new OverloadMeterSpec(target, interval, DEFAULT_ALARM_NAME);
    }

    /**
     * A new meter with the alarm clear; nothing is sent to the output until the first change.
     *
     * @param nowNs the broker's clock when it starts.
     * @return the meter.
     */
    @Override
    public Meter newMeter(final long nowNs)
    {
        return new OverloadMeter(target.toNanos(), interval.toNanos(), alarmName);
    }
}
