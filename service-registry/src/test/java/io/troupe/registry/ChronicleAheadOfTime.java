package io.troupe.registry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A build step, run by the module's build after its tests compile ({@code process-test-classes}): compiles ahead of
 * time the classes Chronicle Map would otherwise generate and compile with javac the first time a JVM opens a map
 * (about 0.7 s of the replica's 1.2 s first open here, on the node's start path), and writes them into the module's
 * classes, so they ship in its jar. Chronicle Values loads a value interface's {@code <Name>$$Native} class from the
 * class path when it is there, and compiles one only when it is not: should this step ever fail to run, nodes start
 * slower and work the same. The source comes from Chronicle's own generator (package-private: reached by reflection,
 * so a Chronicle upgrade that changes it fails this step, not a node).
 */
public final class ChronicleAheadOfTime
{
    /** The value interfaces a directory replica's map uses. */
    static final List<String> VALUE_INTERFACES = List.of("net.openhft.chronicle.hash.VanillaGlobalMutableState");
    private static final String NATIVE = "$$Native";

    private ChronicleAheadOfTime()
    {
    }

    /**
     * Compiles the native classes into a classes directory.
     *
     * @param args the classes directory.
     * @throws ReflectiveOperationException if Chronicle's generator is not where this step expects it.
     */
    public static void main(final String[] args) throws ReflectiveOperationException
    {
        if (args.length != 1)
        {
            throw new IllegalArgumentException("usage: ChronicleAheadOfTime <classes directory>");
        }
        final Path classes = Path.of(args[0]);
        final Path sources = temporaryDirectory();
        final Class<?> valueModel = Class.forName("net.openhft.chronicle.values.ValueModel");
        final Method acquire = valueModel.getMethod("acquire", Class.class);
        final Method simpleName = valueModel.getDeclaredMethod("simpleName");
        simpleName.setAccessible(true);
        final Method generate = Class.forName("net.openhft.chronicle.values.Generators")
            .getDeclaredMethod("generateNativeClass", valueModel, String.class);
        generate.setAccessible(true);
        for (final String name : VALUE_INTERFACES)
        {
            final Object model = acquire.invoke(null, Class.forName(name));
            final String nativeName = simpleName.invoke(model) + NATIVE;
            final String source;
            try
            {
                source = (String)generate.invoke(null, model, nativeName);
            }
            catch (final InvocationTargetException ex)
            {
                throw new IllegalStateException("Chronicle could not generate " + nativeName, ex.getCause());
            }
            compile(sources.resolve(nativeName + ".java"), source, classes);
        }
    }

    private static Path temporaryDirectory()
    {
        try
        {
            return Files.createTempDirectory("troupe-chronicle-aot-");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static void compile(final Path file, final String source, final Path classes)
    {
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null)
        {
            throw new IllegalStateException("no Java compiler in " + System.getProperty("java.home") + " (a JRE?)");
        }
        try
        {
            Files.writeString(file, source, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
        final int status = javac.run(null, null, null, "-nowarn", "-d", classes.toString(), "-cp",
            System.getProperty("java.class.path"), file.toString());
        if (status != 0)
        {
            throw new IllegalStateException("javac failed on " + file + " (status " + status + ")");
        }
    }

    /**
     * Whether a value interface's native class file is on the class path (then Chronicle compiles nothing for it). A
     * class Chronicle compiled at run time loads too, but has no class file.
     *
     * @param name the interface's name.
     * @return true if its class file is there.
     */
    static boolean precompiled(final String name)
    {
        return ClassLoader.getSystemResource(name.replace('.', '/') + NATIVE + ".class") != null;
    }
}
