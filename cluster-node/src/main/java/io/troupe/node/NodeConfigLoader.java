package io.troupe.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigIncludeContext;
import com.typesafe.config.ConfigIncluder;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads a node's config file: HOCON (Typesafe Config, as Akka and Pekko use), keys under {@code troupe},
 * every key it leaves out taken from {@value #REFERENCE_RESOURCE} on the class path.
 *
 * <p>System properties {@code -Dtroupe.<key>=<value>} override the file, so that one file can run several
 * nodes: {@code -Dtroupe.node-id=3 -Dtroupe.bind.port=40103}. They are applied before substitutions are
 * resolved, so {@code data-dir = "/var/lib/troupe/node-"${troupe.node-id}} follows an overridden node id.
 * Properties under a key this file has ({@code troupe.node-id}, {@code troupe.bind.*}, ...) are config; those
 * under the few names that belong to other parts of Troupe ({@link #FOREIGN_PROPERTY_SECTIONS}, such as
 * {@code troupe.serialization.checkRawAccess}) are left alone; any other {@code -Dtroupe.*} property is refused
 * like an unknown key in the file ({@code -Dtroupe.nodeid=5}: a typo must not leave the node id at its file's
 * value), and so is a property under a known key that does not exist ({@code -Dtroupe.bind.prot=1}). Lists
 * (peers, pools) cannot be changed piecewise from system properties.
 *
 * <p>Stateless and thread-safe.
 */
public final class NodeConfigLoader
{
    /** Class-path resource with every key and its default. */
    public static final String REFERENCE_RESOURCE = "troupe-reference.conf";
    /** Prefix of system properties that override the file. */
    public static final String SYSTEM_PROPERTY_PREFIX = "troupe.";

    /**
     * The names after {@code troupe.} of system properties that are not node config: tools', tests' and the
     * {@code LocalCluster}'s ({@code troupe.local.*}).
     */
    public static final Set<String> FOREIGN_PROPERTY_SECTIONS = Set.of("serialization", "bench", "fuzz", "test",
        "local");

    private static final Config REFERENCE = ConfigFactory.parseResources(
        NodeConfigLoader.class.getClassLoader(), REFERENCE_RESOURCE,
        ConfigParseOptions.defaults().setAllowMissing(false));

    private NodeConfigLoader()
    {
    }

    /**
     * Reads a config file, with the current system properties as overrides.
     *
     * @param file the file.
     * @return the node config.
     * @throws NodeConfigException if the file cannot be read or parsed, or a key is unknown, missing or invalid;
     *                             the message names the file, the key path, the value and what is allowed.
     */
    public static NodeConfig load(final Path file)
    {
        return load(file, System.getProperties());
    }

    /**
     * Reads a config file, with the given properties as overrides.
     *
     * @param file      the file.
     * @param overrides properties; those named {@code troupe.<key>} for a key of the file override it.
     * @return the node config.
     * @throws NodeConfigException if the file cannot be read or parsed, or a key is unknown, missing or invalid.
     */
    public static NodeConfig load(final Path file, final Properties overrides)
    {
        final String source = file.toString();
        if (!Files.isRegularFile(file) || !Files.isReadable(file))
        {
            throw ConfigReader.whole(source, "cannot read the file " + file.toAbsolutePath() +
                (Files.exists(file) ? " (not a readable file)" : " (it does not exist)"), null);
        }
        final Config parsed;
        try
        {
            // absolute: an include is resolved against the including file's directory, which a bare name has none of
            parsed = ConfigFactory.parseFile(file.toAbsolutePath().normalize().toFile(),
                ConfigParseOptions.defaults().setAllowMissing(false).setSyntax(ConfigSyntax.CONF)
                    .setIncluder(new RequiredIncludes(null)));
        }
        catch (final ConfigException ex)
        {
            throw ConfigReader.whole(source, "cannot parse: " + ex.getMessage(), ex);
        }
        return NodeConfig.from(systemProperties(overrides, source).withFallback(parsed), source);
    }

    /**
     * Reads a config from a string, without system-property overrides; for tests and embedding.
     *
     * @param hocon the config text.
     * @return the node config.
     * @throws NodeConfigException if the text cannot be parsed, or a key is unknown, missing or invalid.
     */
    public static NodeConfig parse(final String hocon)
    {
        final String source = "<string>";
        final Config parsed;
        try
        {
            parsed = ConfigFactory.parseString(hocon,
                ConfigParseOptions.defaults().setOriginDescription(source).setSyntax(ConfigSyntax.CONF));
        }
        catch (final ConfigException ex)
        {
            throw ConfigReader.whole(source, "cannot parse: " + ex.getMessage(), ex);
        }
        return NodeConfig.from(parsed, source);
    }

    /**
     * The reference config: every key, with its default; required keys are null.
     *
     * @return the parsed {@value #REFERENCE_RESOURCE}.
     */
    static Config reference()
    {
        return REFERENCE;
    }

    /**
     * Makes a plain {@code include "cluster.conf"} behave as {@code include required("cluster.conf")}: an included
     * file that is not there is an error naming it, not a node that starts without the settings it holds.
     */
    private static final class RequiredIncludes implements ConfigIncluder
    {
        private final ConfigIncluder fallback;

        RequiredIncludes(final ConfigIncluder fallback)
        {
            this.fallback = fallback;
        }

        @Override
        public ConfigIncluder withFallback(final ConfigIncluder next)
        {
            return next == fallback ? this : new RequiredIncludes(next);
        }

        @Override
        public ConfigObject include(final ConfigIncludeContext context, final String what)
        {
            return fallback.include(context.setParseOptions(context.parseOptions().setAllowMissing(false)), what);
        }
    }

    private static Config systemProperties(final Properties properties, final String source)
    {
        final Set<String> sections = REFERENCE.getObject("troupe").keySet();
        final Properties config = new Properties();
        final List<String> unknown = new ArrayList<>();
        String firstUnknown = null;
        for (final String name : new TreeSet<>(properties.stringPropertyNames()))
        {
            if (name.startsWith(SYSTEM_PROPERTY_PREFIX))
            {
                final String rest = name.substring(SYSTEM_PROPERTY_PREFIX.length());
                final int dot = rest.indexOf('.');
                final String section = dot < 0 ? rest : rest.substring(0, dot);
                if (sections.contains(section))
                {
                    config.setProperty(name, properties.getProperty(name));
                }
                else if (!FOREIGN_PROPERTY_SECTIONS.contains(section))
                {
                    firstUnknown = firstUnknown == null ? name : firstUnknown;
                    unknown.add("-D" + name + suggestion(section, sections));
                }
            }
        }
        if (!unknown.isEmpty())
        {
            throw new NodeConfigException(firstUnknown, source, "node config " + source + ": unknown " +
                (unknown.size() == 1 ? "system property " : "system properties ") + String.join(", ", unknown) +
                ": not a key of the node config (the keys: " + String.join(", ", new TreeSet<>(sections)) +
                ")", null);
        }
        return ConfigFactory.parseProperties(config,
            ConfigParseOptions.defaults().setOriginDescription(ConfigReader.SYSTEM_PROPERTY_ORIGIN));
    }

    /** " (did you mean troupe.node-id?)" for a name one or two edits from a key, else nothing. */
    private static String suggestion(final String name, final Set<String> keys)
    {
        String best = null;
        int bestDistance = 3;
        for (final String key : keys)
        {
            final int distance = distance(name, key);
            if (distance < bestDistance)
            {
                bestDistance = distance;
                best = key;
            }
        }
        return best == null ? "" : " (did you mean -D" + SYSTEM_PROPERTY_PREFIX + best + "?)";
    }

    private static int distance(final String a, final String b)
    {
        final int[] previous = new int[b.length() + 1];
        final int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++)
        {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++)
        {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++)
            {
                final int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            System.arraycopy(current, 0, previous, 0, current.length);
        }
        return previous[b.length()];
    }
}
