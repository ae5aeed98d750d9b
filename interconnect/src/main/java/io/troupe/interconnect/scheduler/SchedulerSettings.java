package io.troupe.interconnect.scheduler;

import io.troupe.memquota.Setting;
import io.troupe.memquota.Setting.Kind;

import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The peer request scheduler's settings ({@code troupe.scheduler}), each declared once (see {@link Setting}):
 * {@link SchedulerConfig} takes its defaults from here and its setters refuse a value out of these bounds; the node's
 * config reader, the reference config file and the configuration docs are made from {@link #ALL}.
 */
public final class SchedulerSettings
{
    private static final String OWNER = "scheduler";

    /** {@code troupe.scheduler.channels-per-peer}. */
    public static final Setting<SchedulerConfig, Integer> CHANNELS_PER_PEER = integer("scheduler.channels-per-peer",
        "channelsPerPeer", 4, SchedulerConfig::channelsPerPeer, SchedulerConfig::channelsPerPeer)
        .range(1, 65_536)
        .doc("Channels each peer has (settable per peer at run time).")
        .build();
    /** {@code troupe.scheduler.max-in-flight}. */
    public static final Setting<SchedulerConfig, Integer> MAX_IN_FLIGHT = integer("scheduler.max-in-flight",
        "maxInFlight", 256, SchedulerConfig::maxInFlight, SchedulerConfig::maxInFlight)
        .allowed("at least 1", max -> max >= 1)
        .doc("The node-wide cap: requests and notifications in flight to all peers together.")
        .build();
    /** {@code troupe.scheduler.starvation-age}. */
    public static final Setting<SchedulerConfig, Duration> STARVATION_AGE =
        Setting.<SchedulerConfig, Duration>builder(OWNER, "scheduler.starvation-age", "starvationAge", Kind.DURATION,
            Duration.class, Duration.ofMillis(200), SchedulerConfig::starvationAge, SchedulerConfig::starvationAge)
        .allowed("positive", age -> !age.isNegative() && !age.isZero())
        .doc("A sender that has waited this long goes before every priority class.")
        .build();
    /** {@code troupe.scheduler.max-waiting-senders}. */
    public static final Setting<SchedulerConfig, Integer> MAX_WAITING_SENDERS = integer(
        "scheduler.max-waiting-senders", "maxWaitingSenders", 65_536, SchedulerConfig::maxWaitingSenders,
        SchedulerConfig::maxWaitingSenders)
        .allowed("at least 1", max -> max >= 1)
        .doc("Senders that may wait at once; one scheduled beyond it is discarded and counted.")
        .build();

    /** Every setting declared here, in the order of the reference file. */
    public static final List<Setting<SchedulerConfig, ?>> ALL =
        List.of(CHANNELS_PER_PEER, MAX_IN_FLIGHT, STARVATION_AGE, MAX_WAITING_SENDERS);

    private SchedulerSettings()
    {
    }

    private static Setting.Builder<SchedulerConfig, Integer> integer(final String key, final String name,
        final int defaultValue, final Function<SchedulerConfig, Integer> getter,
        final BiConsumer<SchedulerConfig, Integer> setter)
    {
        return Setting.builder(OWNER, key, name, Kind.INTEGER, Integer.class, defaultValue, getter, setter);
    }
}
