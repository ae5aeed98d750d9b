package io.troupe.node.metrics;

import io.troupe.memquota.Setting;
import io.troupe.memquota.Setting.Kind;

import java.util.List;

/**
 * The Prometheus endpoint's settings ({@code troupe.metrics.prometheus}), each declared once (see {@link Setting}):
 * {@link MetricsConfig} takes its defaults from here and its setters refuse a value out of these bounds; the node's
 * config reader, the reference config file and the configuration docs are made from {@link #ALL}.
 *
 * <p>The bearer token (inline or in a file) is read by the node itself, which never shows it.
 */
public final class MetricsSettings
{
    private static final String OWNER = "metrics";

    /** {@code troupe.metrics.prometheus.enabled}. */
    public static final Setting<MetricsConfig, Boolean> ENABLED =
        Setting.<MetricsConfig, Boolean>builder(OWNER, "metrics.prometheus.enabled", "enabled", Kind.BOOLEAN,
            Boolean.class, false, MetricsConfig::enabled, MetricsConfig::enabled)
        .doc("Whether the endpoint runs, serving the node's metrics over HTTP at /metrics.")
        .build();
    /** {@code troupe.metrics.prometheus.host}. */
    public static final Setting<MetricsConfig, String> HOST =
        Setting.<MetricsConfig, String>builder(OWNER, "metrics.prometheus.host", "host", Kind.STRING, String.class,
            "127.0.0.1", MetricsConfig::host, MetricsConfig::host)
        .allowed("an address or host name of this host, e.g. 127.0.0.1", host -> !host.isBlank())
        .doc("The address it binds: loopback by default, so only this host can scrape; \"0.0.0.0\" for every " +
            "interface.")
        .build();
    /** {@code troupe.metrics.prometheus.port}. */
    public static final Setting<MetricsConfig, Integer> PORT =
        Setting.<MetricsConfig, Integer>builder(OWNER, "metrics.prometheus.port", "port", Kind.INTEGER, Integer.class,
            9400, MetricsConfig::port, MetricsConfig::port)
        .range(0, 65_535)
        .doc("Its TCP port (0: any free port, logged); a port in use stops the start with a message naming this " +
            "key.")
        .build();
    /** {@code troupe.metrics.prometheus.actor-types}. */
    public static final Setting<MetricsConfig, Boolean> ACTOR_TYPES =
        Setting.<MetricsConfig, Boolean>builder(OWNER, "metrics.prometheus.actor-types", "actorTypes", Kind.BOOLEAN,
            Boolean.class, false, MetricsConfig::actorTypes, MetricsConfig::actorTypes)
        .doc("Count events and time handlers per actor type (troupe_actor_handling_seconds): reads the clock twice " +
            "per event on the pool workers.")
        .build();

    /** The key naming the port, for messages. */
    public static final String PORT_KEY = "troupe." + PORT.key();

    /** Every setting declared here, in the order of the reference file. */
    public static final List<Setting<MetricsConfig, ?>> ALL = List.of(ENABLED, HOST, PORT, ACTOR_TYPES);

    private MetricsSettings()
    {
    }
}
