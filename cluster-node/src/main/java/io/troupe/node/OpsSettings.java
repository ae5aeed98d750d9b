package io.troupe.node;

import io.troupe.memquota.Setting;
import io.troupe.memquota.Setting.Kind;

import java.time.Duration;
import java.util.List;

/**
 * The settings of a node's counters file and error log ({@code troupe.ops}), each declared once (see
 * {@link Setting}): {@link OpsConfig} takes its defaults from here and its setters refuse a value out of these
 * bounds; the node's config reader, the reference config file and the configuration docs are made from {@link #ALL}.
 */
public final class OpsSettings
{
    private static final String OWNER = "ops";

    /** {@code troupe.ops.counters-interval}. */
    public static final Setting<OpsConfig, Duration> COUNTERS_INTERVAL =
        Setting.<OpsConfig, Duration>builder(OWNER, "ops.counters-interval", "countersInterval", Kind.DURATION,
            Duration.class, Duration.ofSeconds(1), OpsConfig::countersInterval, OpsConfig::countersInterval)
        .range(Duration.ofMillis(10), Duration.ofSeconds(10))
        .doc("How often the node copies its counters into <data-dir>/counters.dat, which troupe status and troupe " +
            "counters read (the file lags by at most this). Each copy wakes a thread; on a small machine every " +
            "100 ms of it showed in the latency tail of a busy node.")
        .build();
    /** {@code troupe.ops.max-counters}. */
    public static final Setting<OpsConfig, Integer> MAX_COUNTERS =
        Setting.<OpsConfig, Integer>builder(OWNER, "ops.max-counters", "maxCounters", Kind.INTEGER, Integer.class,
            4096, OpsConfig::maxCounters, OpsConfig::maxCounters)
        .range(256, 1 << 20)
        .doc("Room in the file for counters (node-wide ones, per pool, per peer, per client session).")
        .build();
    /** {@code troupe.ops.error-log-size}. */
    public static final Setting<OpsConfig, Integer> ERROR_LOG_SIZE =
        Setting.<OpsConfig, Integer>builder(OWNER, "ops.error-log-size", "errorLogBytes", Kind.SIZE, Integer.class,
            1 << 20, OpsConfig::errorLogBytes, OpsConfig::errorLogBytes)
        .range(64 * 1024, 256 << 20)
        .doc("Bytes of the distinct error log at the end of the counters file, which troupe errors shows (each " +
            "distinct error once, with first/last time and count).")
        .build();

    /** Every setting declared here, in the order of the reference file. */
    public static final List<Setting<OpsConfig, ?>> ALL = List.of(COUNTERS_INTERVAL, MAX_COUNTERS, ERROR_LOG_SIZE);

    private OpsSettings()
    {
    }
}
