package io.troupe.node.local;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A node JVM's class cache: a class-data-sharing archive (the JVM's {@code -XX:SharedArchiveFile}) of the classes a
 * node loads, so that a node started from a jar maps them instead of loading them one by one (a node's start, here:
 * about 1.3 s less of 3.5 s). The archive sits beside the jar ({@code troupe.jar} gets {@code troupe.jsa}), the
 * same file the launcher scripts use; it is made once, by a training run ({@link ClassCacheTraining}), when it is
 * missing or older than the jar. The JVM checks that an archive was made by the same java from the same jar and
 * ignores it otherwise ({@code -Xlog:cds=off} keeps that quiet). Only for a class path of one jar: a JVM whose class
 * path has directories (a build's tests) cannot archive their classes, and runs without a cache.
 */
public final class ClassCache
{
    /** Set to {@code off} (environment) to start node JVMs without a class cache. */
    public static final String SWITCH = "TROUPE_CLASS_CACHE";
    private static final Logger LOG = LoggerFactory.getLogger(ClassCache.class);
    private static final long TRAINING_TIMEOUT_S = 120;

    private ClassCache()
    {
    }

    /**
     * The JVM flags that give a child JVM on this JVM's java and class path the class cache, made first if missing or
     * stale; none if the class path is not one jar, the cache is switched off, or it could not be made (said once on
     * its log: the node starts slower, and works the same).
     *
     * @param jvmFlags the flags the child gets besides (the training run gets them too).
     * @return the flags, possibly none.
     */
    public static synchronized List<String> flags(final List<String> jvmFlags)
    {
        final String classPath = System.getProperty("java.class.path");
        if ("off".equalsIgnoreCase(System.getenv(SWITCH)) || classPath.contains(File.pathSeparator) ||
            !classPath.endsWith(".jar"))
        {
            return List.of();
        }
        final Path jar = Path.of(classPath).toAbsolutePath();
        final Path archive = jar.resolveSibling(jar.getFileName().toString().replaceFirst("\\.jar$", ".jsa"));
        if (!fresh(archive, jar) && !train(jar, archive, jvmFlags))
        {
            return List.of();
        }
        return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
    }

    private static boolean fresh(final Path archive, final Path jar)
    {
        try
        {
            return Files.isRegularFile(archive) &&
                Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) > 0;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    private static boolean train(final Path jar, final Path archive, final List<String> jvmFlags)
    {
        final Path partial = archive.resolveSibling(archive.getFileName() + ".tmp-" + ProcessHandle.current().pid());
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmFlags);
        command.add("-XX:ArchiveClassesAtExit=" + partial);
        command.add("-Xlog:cds=off");
        command.add("-Xlog:cds+dynamic=off");
        command.add("-cp");
        command.add(jar.toString());
        command.add(ClassCacheTraining.class.getName());
        try
        {
            final Process training = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!training.waitFor(TRAINING_TIMEOUT_S, TimeUnit.SECONDS))
            {
                training.destroyForcibly();
                return failed(archive, "its training run took more than " + TRAINING_TIMEOUT_S + " s");
            }
            if (training.exitValue() != 0 || !Files.isRegularFile(partial))
            {
                return failed(archive, "its training run exited with " + training.exitValue());
            }
            Files.move(partial, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return true;
        }
        catch (final IOException ex)
        {
            return failed(archive, ex.toString());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return failed(archive, "interrupted");
        }
        finally
        {
            try
            {
                Files.deleteIfExists(partial);
            }
            catch (final IOException ignored)
            {
                // a stray partial archive is only a file; the next training run writes its own
            }
        }
    }

    private static boolean failed(final Path archive, final String why)
    {
        LOG.warn("no class cache {} ({}): node JVMs start without one", archive, why);
        return false;
    }
}
