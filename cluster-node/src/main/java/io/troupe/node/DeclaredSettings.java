package io.troupe.node;

import io.troupe.memquota.Setting;

import java.util.List;

/**
 * Reads settings declared once by their components ({@link Setting}, such as
 * {@link io.troupe.interconnect.InterconnectSettings}) from a node's config file, by their kind, and applies them to
 * the component's config. The file's key of a setting is {@code troupe.} and its declared key. Used on the config
 * reader's thread only.
 */
final class DeclaredSettings
{
    private DeclaredSettings()
    {
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
     * config's own validation checks it, and the node's config reader names the key of what it refuses.
     *
     * @param in      the file.
     * @param config  the config.
     * @param setting the setting.
     * @param <C>     the config class.
     * @param <T>     the value's type.
     * @throws NodeConfigException if the value is not of the setting's kind.
     */
    static <C, T> void apply(final ConfigReader in, final C config, final Setting<C, T> setting)
    {
        setting.apply(config, read(in, setting));
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
     * Copies every setting of a list from one config to another.
     *
     * @param settings the settings.
     * @param from     the source.
     * @param to       the target.
     * @param <C>      the config class.
     */
    static <C> void copy(final List<Setting<C, ?>> settings, final C from, final C to)
    {
        for (final Setting<C, ?> setting : settings)
        {
            setting.copy(from, to);
        }
    }
}
