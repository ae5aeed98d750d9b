package io.troupe.node;

import java.nio.file.Path;
import java.util.List;

/**
 * The application {@code troupe node} runs ({@code troupe.application}): its {@link NodeSetup} classes and the
 * directory of its jars. The directory is declared in {@link ApplicationSettings}; the setup classes, a list, are
 * read by the node's config reader. Not thread safe: build it, then hand it over (a node config hands out copies).
 */
public final class ApplicationConfig
{
    private List<String> setupClasses = List.of();
    private Path libDir;

    /** No setup class and no directory: the class path only, and no application. */
    public ApplicationConfig()
    {
    }

    /**
     * The {@link NodeSetup} classes by name, made in order.
     *
     * @param names the class names; empty: those the jars of {@link #libDir()} declare.
     * @return this.
     */
    public ApplicationConfig setupClasses(final List<String> names)
    {
        this.setupClasses = List.copyOf(names);
        return this;
    }

    /**
     * The {@link NodeSetup} classes by name, in order.
     *
     * @return the names; empty: those the library declares.
     */
    public List<String> setupClasses()
    {
        return setupClasses;
    }

    /**
     * The directory of the application's jars.
     *
     * @param dir an absolute path, or null for the class path only.
     * @return this.
     */
    public ApplicationConfig libDir(final Path dir)
    {
        this.libDir = dir;
        return this;
    }

    /**
     * The directory of the application's jars.
     *
     * @return an absolute path, or null for the class path only.
     */
    public Path libDir()
    {
        return libDir;
    }
}
