package io.troupe.node.metrics;

/**
 * The node's Prometheus endpoint settings ({@code troupe.metrics.prometheus}).
 *
 * @param enabled     whether the endpoint runs.
 * @param host        the address it binds (loopback by default).
 * @param port        its TCP port (0: any free one).
 * @param bearerToken the token a scrape must present, or null for none.
 * @param actorTypes  whether per-actor-type counts and handling-time histograms are kept (a clock read per event).
 */
public record MetricsSettings(boolean enabled, String host, int port, String bearerToken, boolean actorTypes)
{
    /** The key naming the port, for messages. */
    public static final String PORT_KEY = "troupe.metrics.prometheus.port";

    /**
     * The settings without the token, for logs.
     *
     * @return a description.
     */
    @Override
    public String toString()
    {
        return enabled ? "Prometheus on http://" + host + ':' + port + "/metrics" + (bearerToken == null ? "" :
            " (bearer token)") + (actorTypes ? ", per actor type" : "") : "no Prometheus endpoint";
    }
}
