package io.troupe.node;

import io.troupe.actor.ActorSystemSettings;
import io.troupe.actor.FlowControlSettings;
import io.troupe.interconnect.InterconnectSettings;
import io.troupe.interconnect.scheduler.SchedulerSettings;
import io.troupe.membership.MembershipSettings;
import io.troupe.memquota.ConfigurationException;
import io.troupe.memquota.Setting;
import io.troupe.node.client.ClientIngressSettings;
import io.troupe.node.metrics.MetricsSettings;
import io.troupe.registry.RegistrySettings;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads settings declared once by their components ({@link Setting}, such as {@link InterconnectSettings}; every
 * one in {@link #ALL}) from a node's config file, by their kind, and applies them to
 * the component's config. The file's key of a setting is {@code troupe.} and its declared key. Used on the config
 * reader's thread only.
 */
final class DeclaredSettings
{
    /** Every declared setting a node's config file sets, of every component. */
    static final List<Setting<?, ?>> ALL = all(InterconnectSettings.ALL, ActorSystemSettings.ALL,
        FlowControlSettings.ALL, ClientIngressSettings.ALL, RegistrySettings.ALL,
        SchedulerSettings.ALL, MembershipSettings.ALL, OpsSettings.ALL, MetricsSettings.ALL,
        ApplicationSettings.ALL);

    private DeclaredSettings()
    {
    }

    @SafeVarargs
    private static List<Setting<?, ?>> all(final List<? extends Setting<?, ?>>... lists)
    {
        final List<Setting<?, ?>> all = new ArrayList<>();
        for (final List<? extends Setting<?, ?>> list : lists)
        {
            all.addAll(list);
        }
        return List.copyOf(all);
    }

    /**
     * A setting's path in a node's config file.
     *
     * @param setting the setting.
     * @return {@code troupe.} and its key.
     */
    static String path(final Setting<?, ?> setting)
    {
        return NodeConfigLoader.SYSTEM_PROPERTY_PREFIX + setting.key();
    }

    /**
     * Reads a setting's value from the file (or the reference's default) and sets it in a config, unchecked: the
     * config's own validation checks it, and the node's config reader names the key of what it refuses. A setter that
     * refuses a value at once has its refusal reported under the setting's key.
     *
     * @param in      the file.
     * @param config  the config.
     * @param setting the setting.
     * @param <C>     the config class.
     * @param <T>     the value's type.
     * @throws NodeConfigException if the value is not of the setting's kind, or the config's setter refuses it.
     */
    static <C, T> void apply(final ConfigReader in, final C config, final Setting<C, T> setting)
    {
        final T value = read(in, setting);
        try
        {
            setting.apply(config, value);
        }
        catch (final ConfigurationException ex)
        {
            // a config class whose setter refuses a value at once (FlowControlConfig)
            throw in.invalid(path(setting), "allowed " + ex.allowed(), ex);
        }
    }

    /**
     * Reads a setting's value from the file.
     *
     * @param in      the file.
     * @param setting the setting.
     * @param <T>     the value's type.
     * @return the value.
     * @throws NodeConfigException if the value is not of the setting's kind (an enum's: not one of its names).
     */
    static <T> T read(final ConfigReader in, final Setting<?, T> setting)
    {
        final String key = path(setting);
        final Object value = switch (setting.kind())
        {
            case INTEGER -> in.integer(key);
            case LONG -> in.longInteger(key);
            case SIZE -> in.intBytes(key);
            case DURATION -> in.duration(key);
            case BOOLEAN -> in.bool(key);
            case STRING, OPTIONAL_STRING -> in.string(key);
            case ENUM -> constant(in, setting, key);
        };
        return setting.type().cast(value);
    }

    private static <T> T constant(final ConfigReader in, final Setting<?, T> setting, final String key)
    {
        final String name = in.string(key).trim();
        for (final T constant : setting.type().getEnumConstants())
        {
            if (((Enum<?>)constant).name().equalsIgnoreCase(name))
            {
                return constant;
            }
        }
        throw in.invalid(key, "allowed " + setting.allowed());
    }

    /**
     * The file's keys of a component's settings, by the names its {@link ConfigurationException}s carry: how the
     * node's config reader names the key of a value the config's validation refuses.
     *
     * @param settings the component's settings.
     * @return the keys by name.
     */
    static Map<String, String> keys(final List<? extends Setting<?, ?>> settings)
    {
        final Map<String, String> keys = new HashMap<>();
        for (final Setting<?, ?> setting : settings)
        {
            keys.put(setting.name(), path(setting));
        }
        return Map.copyOf(keys);
    }

    /**
     * Copies every setting of a list from one config to another.
     *
     * @param settings the settings.
     * @param from     the source.
     * @param to       the target.
     * @param <C>      the config class.
     * @return the target.
     */
    static <C> C copy(final List<Setting<C, ?>> settings, final C from, final C to)
    {
        for (final Setting<C, ?> setting : settings)
        {
            setting.copy(from, to);
        }
        return to;
    }
}
