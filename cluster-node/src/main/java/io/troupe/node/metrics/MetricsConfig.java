package io.troupe.node.metrics;

/**
 * The node's Prometheus endpoint settings ({@code troupe.metrics.prometheus}). Each but the bearer token is declared
 * in {@link MetricsSettings}, which gives the defaults and the bounds the setters refuse a value out of; the token is
 * checked by the node's config reader, which never shows it. Not thread safe: build it, then hand it over (a node
 * config hands out copies).
 */
public final class MetricsConfig
{
    private boolean enabled = MetricsSettings.ENABLED.defaultValue();
    private String host = MetricsSettings.HOST.defaultValue();
    private int port = MetricsSettings.PORT.defaultValue();
    private boolean actorTypes = MetricsSettings.ACTOR_TYPES.defaultValue();
    private String bearerToken;

    /** Settings with every default and no bearer token. */
    public MetricsConfig()
    {
    }

    /**
     * Whether the endpoint runs.
     *
     * @param value true to run it.
     * @return this.
     */
    public MetricsConfig enabled(final boolean value)
    {
        this.enabled = value;
        return this;
    }

    /**
     * Whether the endpoint runs.
     *
     * @return true if it does.
     */
    public boolean enabled()
    {
        return enabled;
    }

    /**
     * The address it binds.
     *
     * @param value an address or host name of this host.
     * @return this.
     * @throws IllegalArgumentException if blank.
     */
    public MetricsConfig host(final String value)
    {
        this.host = MetricsSettings.HOST.requireValid(value);
        return this;
    }

    /**
     * The address it binds (loopback by default).
     *
     * @return the host.
     */
    public String host()
    {
        return host;
    }

    /**
     * Its TCP port.
     *
     * @param value 0..65535 (0: any free one).
     * @return this.
     * @throws IllegalArgumentException if out of range.
     */
    public MetricsConfig port(final int value)
    {
        this.port = MetricsSettings.PORT.requireValid(value);
        return this;
    }

    /**
     * Its TCP port (0: any free one).
     *
     * @return the port.
     */
    public int port()
    {
        return port;
    }

    /**
     * Whether per-actor-type counts and handling-time histograms are kept (a clock read per event).
     *
     * @param value true to keep them.
     * @return this.
     */
    public MetricsConfig actorTypes(final boolean value)
    {
        this.actorTypes = value;
        return this;
    }

    /**
     * Whether per-actor-type counts and handling-time histograms are kept.
     *
     * @return true if they are.
     */
    public boolean actorTypes()
    {
        return actorTypes;
    }

    /**
     * The token a scrape must present.
     *
     * @param value the token, or null for none.
     * @return this.
     */
    public MetricsConfig bearerToken(final String value)
    {
        this.bearerToken = value;
        return this;
    }

    /**
     * The token a scrape must present.
     *
     * @return the token, or null for none.
     */
    public String bearerToken()
    {
        return bearerToken;
    }

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
