package io.troupe.node;

import io.troupe.serialization.EventCodec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Stream;

/**
 * The application {@code troupe node} runs: its {@link NodeSetup} classes, found as {@code troupe.application} says
 * (by name, on the class path or in the jars of {@code lib-dir}; or, with no names, every one the jars of
 * {@code lib-dir} declare as a service), made once, before the node starts. A class that is missing or is no
 * {@code NodeSetup} is a config error naming it; one that fails to construct or to set up stops the start, naming it.
 */
public final class Application
{
    /** The key naming the setup classes. */
    public static final String SETUP_KEY = "troupe.application.setup";
    /** The key naming the library directory. */
    public static final String LIB_DIR_KEY = "troupe.application.lib-dir";

    private final List<NodeSetup> setups;

    private Application(final List<NodeSetup> setups)
    {
        this.setups = List.copyOf(setups);
    }

    /**
     * Finds and makes the application's setup classes.
     *
     * @param config the node's config.
     * @return the application; with no setup if the config names none and has no library directory.
     * @throws NodeConfigException if a named class is missing or is no {@code NodeSetup}, or the library directory
     *                             cannot be read.
     * @throws NodeStartException  if a setup class cannot be made (its constructor fails).
     */
    public static Application load(final NodeConfig config)
    {
        final ApplicationConfig settings = config.application();
        final String source = config.source();
        final Path libDir = settings.libDir();
        final ClassLoader parent = Application.class.getClassLoader();
        final ClassLoader loader = libDir == null ? parent : libraryLoader(libDir, parent, source);
        final List<NodeSetup> setups = new ArrayList<>();
        if (settings.setupClasses().isEmpty())
        {
            if (libDir != null)
            {
                try
                {
                    ServiceLoader.load(NodeSetup.class, loader).stream()
                        .filter(provider -> provider.type().getClassLoader() == loader) // the library's own only
                        .forEach(provider -> setups.add(make(provider.type().getName(), provider::get)));
                }
                catch (final ServiceConfigurationError ex)
                {
                    throw new NodeConfigException(LIB_DIR_KEY, source, "node config " + source + ": " + LIB_DIR_KEY +
                        " = " + libDir + ": a jar declares a NodeSetup that cannot be loaded: " + ex.getMessage(), ex);
                }
            }
            return new Application(setups);
        }
        for (final String name : settings.setupClasses())
        {
            final Class<?> type;
            try
            {
                type = Class.forName(name, false, loader);
            }
            catch (final ClassNotFoundException | LinkageError ex)
            {
                throw new NodeConfigException(SETUP_KEY, source, "node config " + source + ": " + SETUP_KEY +
                    ": no class " + name + (libDir == null ? " on the class path" : " in the jars of " + libDir +
                    " or on the class path") + (ex instanceof LinkageError ? " (" + ex + ")" : ""), ex);
            }
            if (!NodeSetup.class.isAssignableFrom(type))
            {
                throw new NodeConfigException(SETUP_KEY, source, "node config " + source + ": " + SETUP_KEY + ": " +
                    name + " does not implement " + NodeSetup.class.getName(), null);
            }
            setups.add(make(name, () -> (NodeSetup)type.getDeclaredConstructor().newInstance()));
        }
        return new Application(setups);
    }

    private interface Maker
    {
        NodeSetup make() throws ReflectiveOperationException;
    }

    private static NodeSetup make(final String name, final Maker maker)
    {
        try
        {
            return maker.make();
        }
        catch (final ReflectiveOperationException | RuntimeException | ServiceConfigurationError ex)
        {
            final Throwable cause = ex instanceof InvocationTargetException target &&
                target.getCause() != null ? target.getCause() : ex;
            throw new NodeStartException("setup class " + name + " could not be made: " + cause, cause);
        }
    }

    private static ClassLoader libraryLoader(final Path libDir, final ClassLoader parent, final String source)
    {
        final List<URL> jars = new ArrayList<>();
        try (Stream<Path> files = Files.list(libDir))
        {
            for (final Path jar : files.filter(file -> file.getFileName().toString().endsWith(".jar"))
                .sorted().toList())
            {
                jars.add(jar.toUri().toURL());
            }
        }
        catch (final IOException | UncheckedIOException ex)
        {
            throw new NodeConfigException(LIB_DIR_KEY, source, "node config " + source + ": " + LIB_DIR_KEY + " = " +
                libDir + ": cannot list its jars: " + ex.getMessage(), ex);
        }
        return new URLClassLoader("troupe-application", jars.toArray(new URL[0]), parent);
    }

    /**
     * The codecs of every setup, in order.
     *
     * @return the codecs.
     */
    public EventCodec<?>[] codecs()
    {
        final List<EventCodec<?>> codecs = new ArrayList<>();
        for (final NodeSetup setup : setups)
        {
            codecs.addAll(setup.codecs());
        }
        return codecs.toArray(new EventCodec<?>[0]);
    }

    /**
     * The setup classes' names, in order.
     *
     * @return the names.
     */
    public List<String> names()
    {
        return setups.stream().map(setup -> setup.getClass().getName()).toList();
    }

    /**
     * Runs every setup on the node, in order.
     *
     * @param node the started node.
     * @throws NodeStartException if one fails, naming it (the node is left to the caller to close).
     */
    public void setUp(final Node node)
    {
        for (final NodeSetup setup : setups)
        {
            try
            {
                setup.setup(node);
            }
            catch (final RuntimeException ex)
            {
                throw new NodeStartException("setup class " + setup.getClass().getName() + " failed: " + ex, ex);
            }
        }
    }
}
