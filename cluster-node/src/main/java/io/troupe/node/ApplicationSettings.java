package io.troupe.node;

import io.troupe.memquota.ConfigurationException;
import io.troupe.memquota.Setting;
import io.troupe.memquota.Setting.Kind;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;

/**
 * The application's settings a node's config file sets ({@code troupe.application}) that a declaration fits (see
 * {@link Setting}): the node's config reader, the reference config file and the configuration docs are made from
 * {@link #ALL}. {@code troupe.application.setup}, a list of class names, is read by the node itself; so is the check
 * that the directory exists, which is a fact of the host at start rather than a bound of the value.
 */
public final class ApplicationSettings
{
    private static final String OWNER = "application";

    /** {@code troupe.application.lib-dir}. */
    public static final Setting<ApplicationConfig, String> LIB_DIR =
        Setting.<ApplicationConfig, String>builder(OWNER, "application.lib-dir", "libDir", Kind.OPTIONAL_STRING,
            String.class, "", config -> config.libDir() == null ? "" : config.libDir().toString(),
            (ApplicationConfig config, String dir) -> config.libDir(dir.isEmpty() ? null : absolute(dir)))
        .doc("A directory of the application's jars, loaded beside Troupe's (a relative path is relative to the " +
            "working directory). With no setup names, the NodeSetups its jars declare in " +
            "META-INF/services/io.troupe.node.NodeSetup run. Empty: the class path only.")
        .build();

    /** Every setting declared here, in the order of the reference file. */
    public static final List<Setting<ApplicationConfig, ?>> ALL = List.of(LIB_DIR);

    private ApplicationSettings()
    {
    }

    private static Path absolute(final String dir)
    {
        try
        {
            return Path.of(dir).toAbsolutePath();
        }
        catch (final InvalidPathException ex)
        {
            throw new ConfigurationException(LIB_DIR.name(), dir, "a path (" + ex.getMessage() + ")",
                "application setting libDir = " + dir + " is invalid: " + ex.getMessage());
        }
    }
}
