package io.troupe.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;

/**
 * Reads a node's config file: HOCON (Typesafe Config, as Akka and Pekko use), keys under {@code troupe},
 * every key it leaves out taken from {@value #REFERENCE_RESOURCE} on the class path.
 *
 * <p>System properties {@code -Dtroupe.<key>=<value>} override the file, so that one file can run several
 * nodes: {@code -Dtroupe.node-id=3 -Dtroupe.bind.port=40103}. They are applied before substitutions are
 * resolved, so {@code data-dir = "/var/lib/troupe/node-"${troupe.node-id}} follows an overridden node id.
 * Only properties under a key this file has ({@code troupe.node-id}, {@code troupe.bind.*}, ...) are config;
 * others under {@code troupe.} belong to other parts of Troupe (such as
 * {@code troupe.serialization.checkRawAccess}) and are left alone. A property under a known key that does
 * not exist ({@code -Dtroupe.bind.prot=1}) is rejected like the same typo in the file. Lists (peers, pools)
 * cannot be changed piecewise from system properties.
 *
 * <p>Stateless and thread-safe.
 */
public final class NodeConfigLoader
{
    /** Class-path resource with every key and its default. */
    public static final String REFERENCE_RESOURCE = "troupe-reference.conf";
    /** Prefix of system properties that override the file. */
    public static final String SYSTEM_PROPERTY_PREFIX = "troupe.";

    private static final Config REFERENCE = ConfigFactory.parseResources(
        NodeConfigLoader.class.getClassLoader(), REFERENCE_RESOURCE, ConfigParseOptions.defaults().setAllowMissing(false));

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
            parsed = ConfigFactory.parseFile(file.toFile(),
                ConfigParseOptions.defaults().setAllowMissing(false).setSyntax(ConfigSyntax.CONF));
        }
        catch (final ConfigException ex)
        {
            throw ConfigReader.whole(source, "cannot parse: " + ex.getMessage(), ex);
        }
        return NodeConfig.from(systemProperties(overrides).withFallback(parsed), source);
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

    private static Config systemProperties(final Properties properties)
    {
        final Set<String> sections = REFERENCE.getObject("troupe").keySet();
        final Properties config = new Properties();
        for (final String name : properties.stringPropertyNames())
        {
            if (name.startsWith(SYSTEM_PROPERTY_PREFIX))
            {
                final String rest = name.substring(SYSTEM_PROPERTY_PREFIX.length());
                final int dot = rest.indexOf('.');
                if (sections.contains(dot < 0 ? rest : rest.substring(0, dot)))
                {
                    config.setProperty(name, properties.getProperty(name));
                }
            }
        }
        return ConfigFactory.parseProperties(config,
            ConfigParseOptions.defaults().setOriginDescription(ConfigReader.SYSTEM_PROPERTY_ORIGIN));
    }
}
