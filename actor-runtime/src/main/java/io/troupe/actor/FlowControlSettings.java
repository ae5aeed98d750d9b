package io.troupe.actor;

import io.troupe.memquota.Setting;
import io.troupe.memquota.Setting.Kind;

import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Credit flow control's settings a node's config file sets ({@code troupe.flow}), each declared once (see
 * {@link Setting}): {@link FlowControlConfig} takes its defaults from here and its setters refuse a value out of
 * these bounds; the node's config reader, the reference config file and the configuration docs are made from
 * {@link #ALL}. Costs per event type and the shadows per owner are set in code only.
 */
public final class FlowControlSettings
{
    private static final String OWNER = "flow control";
    /** The largest count of credit units a setting takes: 2^62, far from overflow when debts are added. */
    private static final long MAX_CREDIT = 1L << 62;

    /** {@code troupe.flow.enabled}. */
    public static final Setting<FlowControlConfig, Boolean> ENABLED =
        Setting.<FlowControlConfig, Boolean>builder(OWNER, "flow.enabled", "enabled", Kind.BOOLEAN, Boolean.class,
            true, FlowControlConfig::enabled, FlowControlConfig::enabled)
        .doc("true: events are charged and repaid; false: nothing is charged, ensureClearFunds always succeeds.")
        .build();
    /** {@code troupe.flow.default-threshold}. */
    public static final Setting<FlowControlConfig, Long> DEFAULT_THRESHOLD = credit("flow.default-threshold",
        "defaultThreshold", 1024L, FlowControlConfig::defaultThreshold, FlowControlConfig::defaultThreshold)
        .doc("Debt at or above which an account opened without a threshold is in debt.")
        .build();
    /** {@code troupe.flow.flush-bound}. */
    public static final Setting<FlowControlConfig, Long> FLUSH_BOUND = credit("flow.flush-bound", "flushBound",
        64L, FlowControlConfig::flushBound, FlowControlConfig::flushBound)
        .doc("Pending delta at which this node's shadow of another node's account is reported at once, rather than " +
            "at the next periodic credit flush.")
        .build();
    /** {@code troupe.flow.shadow-idle-timeout}. */
    public static final Setting<FlowControlConfig, Duration> SHADOW_IDLE_TIMEOUT =
        Setting.<FlowControlConfig, Duration>builder(OWNER, "flow.shadow-idle-timeout", "shadowIdleTimeout",
            Kind.DURATION, Duration.class, Duration.ofSeconds(10), FlowControlConfig::shadowIdleTimeout,
            FlowControlConfig::shadowIdleTimeout)
        .range(Duration.ofMillis(1), Duration.ofHours(1))
        .doc("How long this node's shadow of another node's account may go unchanged before it is forgotten (after " +
            "one to two of these; events still charged to it are accounted for all the same).")
        .build();

    /** Every setting declared here, in the order of the reference file. */
    public static final List<Setting<FlowControlConfig, ?>> ALL =
        List.of(ENABLED, DEFAULT_THRESHOLD, FLUSH_BOUND, SHADOW_IDLE_TIMEOUT);

    private FlowControlSettings()
    {
    }

    private static Setting.Builder<FlowControlConfig, Long> credit(final String key, final String name,
        final long defaultValue, final Function<FlowControlConfig, Long> getter,
        final BiConsumer<FlowControlConfig, Long> setter)
    {
        return Setting.builder(OWNER, key, name, Kind.LONG, Long.class, defaultValue, getter, setter)
            .allowed("1..2^62", value -> value >= 1 && value <= MAX_CREDIT);
    }
}
