package io.troupe.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Typed reads of one level of a resolved node config (the whole file, or one element of a list), each failing
 * with a {@link NodeConfigException} that names the full key path, the value as written, where it was written
 * and what is expected. Not thread-safe; used once, during {@link NodeConfig#from}.
 */
final class ConfigReader
{
    /** Origin description the loader gives to system-property overrides. */
    static final String SYSTEM_PROPERTY_ORIGIN = "system property";

    private static final int MAX_RENDERED_VALUE = 200;

    private final Config config;
    private final String pathPrefix;
    private final String source;

    /**
     * A reader of a resolved config.
     *
     * @param config     the config; keys are read relative to it.
     * @param pathPrefix what goes before a key to make the full key path in messages ({@code ""} at the top).
     * @param source     the config's file name (or another name for it), for messages.
     */
    ConfigReader(final Config config, final String pathPrefix, final String source)
    {
        this.config = config;
        this.pathPrefix = pathPrefix;
        this.source = source;
    }

    /**
     * A reader of one object in a list.
     *
     * @param element     the element.
     * @param elementPath its full key path, such as {@code troupe.peers[1]}.
     * @return the reader.
     */
    ConfigReader element(final ConfigObject element, final String elementPath)
    {
        return new ConfigReader(element.toConfig(), elementPath + '.', source);
    }

    String source()
    {
        return source;
    }

    String path(final String key)
    {
        return pathPrefix + key;
    }

    boolean isSet(final String key)
    {
        return config.hasPath(key);
    }

    ConfigValue value(final String key)
    {
        if (!config.hasPath(key))
        {
            throw missing(key);
        }
        return config.getValue(key);
    }

    int integer(final String key)
    {
        final ConfigValue value = value(key);
        final long parsed;
        if (value.valueType() == ConfigValueType.NUMBER &&
            (value.unwrapped() instanceof Integer || value.unwrapped() instanceof Long))
        {
            parsed = ((Number)value.unwrapped()).longValue();
        }
        else if (value.valueType() == ConfigValueType.STRING)
        {
            try
            {
                parsed = Long.parseLong(((String)value.unwrapped()).trim());
            }
            catch (final NumberFormatException ex)
            {
                throw invalid(key, "expected an integer");
            }
        }
        else
        {
            throw invalid(key, "expected an integer");
        }
        if (parsed < Integer.MIN_VALUE || parsed > Integer.MAX_VALUE)
        {
            throw invalid(key, "expected an integer in " + Integer.MIN_VALUE + ".." + Integer.MAX_VALUE);
        }
        return (int)parsed;
    }

    long longInteger(final String key)
    {
        final ConfigValue value = value(key);
        if (value.valueType() == ConfigValueType.NUMBER &&
            (value.unwrapped() instanceof Integer || value.unwrapped() instanceof Long))
        {
            return ((Number)value.unwrapped()).longValue();
        }
        if (value.valueType() == ConfigValueType.STRING)
        {
            try
            {
                return Long.parseLong(((String)value.unwrapped()).trim());
            }
            catch (final NumberFormatException ex)
            {
                throw invalid(key, "expected a whole number", ex);
            }
        }
        throw invalid(key, "expected a whole number");
    }

    long bytes(final String key)
    {
        return bytes(key, "a size such as 64KiB, 16MiB or 65536 (bytes)");
    }

    long bytes(final String key, final String expected)
    {
        value(key);
        try
        {
            return config.getBytes(key);
        }
        catch (final ConfigException ex)
        {
            throw invalid(key, "expected " + expected, ex);
        }
    }

    int intBytes(final String key)
    {
        final long bytes = bytes(key);
        if (bytes < Integer.MIN_VALUE || bytes > Integer.MAX_VALUE)
        {
            throw invalid(key, "expected a size below 2GiB");
        }
        return (int)bytes;
    }

    Duration duration(final String key)
    {
        value(key);
        try
        {
            return config.getDuration(key);
        }
        catch (final ConfigException ex)
        {
            throw invalid(key, "expected a duration such as 20us, 100ms, 1.5s or 5m", ex);
        }
    }

    boolean bool(final String key)
    {
        value(key);
        try
        {
            return config.getBoolean(key);
        }
        catch (final ConfigException ex)
        {
            throw invalid(key, "expected true or false", ex);
        }
    }

    String string(final String key)
    {
        value(key);
        try
        {
            return config.getString(key);
        }
        catch (final ConfigException ex)
        {
            throw invalid(key, "expected a string", ex);
        }
    }

    /** A path: the string at the key, which must name one. */
    Path file(final String key)
    {
        final String text = string(key);
        try
        {
            return Path.of(text);
        }
        catch (final InvalidPathException ex)
        {
            throw invalid(key, "expected a path: " + ex.getMessage(), ex);
        }
    }

    ConfigList list(final String key, final String expected)
    {
        final ConfigValue value = value(key);
        if (value.valueType() != ConfigValueType.LIST)
        {
            throw invalid(key, "expected " + expected);
        }
        return (ConfigList)value;
    }

    /**
     * An error about a key that is set.
     *
     * @param key     the key, relative to this reader.
     * @param problem what is wrong or what is allowed, e.g. {@code "allowed 1..65535"}.
     * @return the exception, to throw.
     */
    NodeConfigException invalid(final String key, final String problem)
    {
        return invalid(key, problem, null);
    }

    NodeConfigException invalid(final String key, final String problem, final Throwable cause)
    {
        return invalid(source, path(key), config.getValue(key), problem, cause);
    }

    /**
     * An error about a key that is required and not set.
     *
     * @param key the key, relative to this reader.
     * @return the exception, to throw.
     */
    NodeConfigException missing(final String key)
    {
        return missing(key, "required");
    }

    NodeConfigException missing(final String key, final String what)
    {
        return new NodeConfigException(path(key), source,
            "node config " + source + ": " + path(key) + " is missing: " + what, null);
    }

    /**
     * An error about a value.
     *
     * @param source  the config's source.
     * @param keyPath the full key path.
     * @param value   the value at fault.
     * @param problem what is wrong or allowed.
     * @param cause   the underlying error, or null.
     * @return the exception, to throw.
     */
    static NodeConfigException invalid(
        final String source, final String keyPath, final ConfigValue value, final String problem, final Throwable cause)
    {
        return new NodeConfigException(keyPath, source, "node config " + source + ": " + keyPath + " = " +
            render(keyPath, value) + " (" + where(source, value.origin()) + "): " + problem, cause);
    }

    /**
     * An error about the config as a whole: unreadable, bad syntax, a substitution that does not resolve.
     *
     * @param source  the config's source.
     * @param problem what is wrong.
     * @param cause   the underlying error, or null.
     * @return the exception, to throw.
     */
    static NodeConfigException whole(final String source, final String problem, final Throwable cause)
    {
        return new NodeConfigException("", source, "node config " + source + ": " + problem, cause);
    }

    private static String render(final String keyPath, final ConfigValue value)
    {
        if (keyPath.endsWith(NodeConfigMapper.CLUSTER_SECRET) || keyPath.endsWith(NodeConfigMapper.CLIENT_SECRET) ||
            keyPath.endsWith(OperationsConfigMapper.METRICS_TOKEN))
        {
            return "(hidden)";
        }
        final String rendered = value.render(ConfigRenderOptions.concise());
        return rendered.length() <= MAX_RENDERED_VALUE ? rendered : rendered.substring(0, MAX_RENDERED_VALUE) + "...";
    }

    /**
     * Where a value was written, for a message that already names the source.
     */
    private static String where(final String source, final ConfigOrigin origin)
    {
        final String line = origin.lineNumber() >= 0 ? "line " + origin.lineNumber() : "";
        if (NodeConfigLoader.REFERENCE_RESOURCE.equals(origin.resource()))
        {
            return "the default";
        }
        if (origin.filename() != null)
        {
            if (source.equals(origin.filename()))
            {
                return line.isEmpty() ? "in the file" : line;
            }
            return origin.filename() + (line.isEmpty() ? "" : ", " + line);
        }
        if (origin.description().startsWith(SYSTEM_PROPERTY_ORIGIN))
        {
            return SYSTEM_PROPERTY_ORIGIN;
        }
        if (origin.description().startsWith(source) && !line.isEmpty())
        {
            return line;
        }
        return origin.description();
    }
}
