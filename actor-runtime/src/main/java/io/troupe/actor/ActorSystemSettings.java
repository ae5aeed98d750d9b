package io.troupe.actor;

import io.troupe.memquota.Setting;
import io.troupe.memquota.Setting.Kind;

import java.time.Duration;
import java.util.List;

/**
 * The actor system's settings a node's config file sets, each declared once (see {@link Setting}):
 * {@link ActorSystemConfig} takes its defaults from here and checks each value against its bounds here in
 * {@code conclude}; the node's config reader, the reference config file and the configuration docs are made from
 * {@link #ALL}. The node id and the pools are read by the node itself (a required value; a list of objects).
 */
public final class ActorSystemSettings
{
    private static final String OWNER = "actor system";

    /** {@code troupe.shutdown-timeout}. */
    public static final Setting<ActorSystemConfig, Duration> SHUTDOWN_TIMEOUT =
        Setting.<ActorSystemConfig, Duration>builder(OWNER, "shutdown-timeout", "shutdownTimeout", Kind.DURATION,
            Duration.class, Duration.ofSeconds(5), ActorSystemConfig::shutdownTimeout,
            ActorSystemConfig::shutdownTimeout)
        .range(Duration.ZERO, Duration.ofMinutes(10))
        .doc("How long a clean shutdown lets the executor pools drain before the rest fails.")
        .build();

    /** Every setting declared here, in the order of the reference file. */
    public static final List<Setting<ActorSystemConfig, ?>> ALL = List.of(SHUTDOWN_TIMEOUT);

    private ActorSystemSettings()
    {
    }
}
