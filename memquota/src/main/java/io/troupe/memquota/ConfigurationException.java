package io.troupe.memquota;

/**
 * A configuration value that is not allowed: which setting, the value, and what is allowed, as fields, so that
 * a caller that maps settings to its own names (the node's config file, say) never parses the message. Thrown
 * by every programmatic config of Troupe ({@code MemoryQuotaConfig}, {@code ActorSystemConfig},
 * {@code PoolConfig}, {@code FlowControlConfig}, {@code InterconnectConfig}); it lives in this module because
 * it is the one all others build on. An {@link IllegalArgumentException}, as a bad argument to a setter is.
 */
public final class ConfigurationException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    private final String setting;
    private final String value;
    private final String allowed;

    /**
     * A setting whose value is not allowed.
     *
     * @param setting the setting's name as the config class spells it ({@code "threads"}, {@code "lowWater"}).
     * @param value   the value given, as text ({@code "null"} for none).
     * @param allowed what is allowed, or why the value is not ({@code "out of range 1..256"}).
     * @param message the whole message, naming the config it belongs to.
     */
    public ConfigurationException(final String setting, final Object value, final String allowed, final String message)
    {
        super(message);
        this.setting = setting;
        this.value = String.valueOf(value);
        this.allowed = allowed;
    }

    /**
     * The setting's name, as the config class spells it.
     *
     * @return the name.
     */
    public String setting()
    {
        return setting;
    }

    /**
     * The value given, as text.
     *
     * @return the value.
     */
    public String value()
    {
        return value;
    }

    /**
     * What is allowed, or why the value is not.
     *
     * @return the text.
     */
    public String allowed()
    {
        return allowed;
    }
}
