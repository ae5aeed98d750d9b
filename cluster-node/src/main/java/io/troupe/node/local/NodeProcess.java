package io.troupe.node.local;

import io.troupe.registry.ReplicaLayout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A node running in a child JVM started by {@link LocalCluster#start}: its process, its log file and how to
 * stop it, cleanly ({@link #terminate()}, SIGTERM) or not ({@link #kill()}, SIGKILL).
 *
 * <p>Thread safe.
 */
public final class NodeProcess
{
    private final int nodeId;
    private final Process process;
    private final Path logFile;
    private final long startedNs;

    NodeProcess(final int nodeId, final Process process, final Path logFile, final long startedNs)
    {
        this.nodeId = nodeId;
        this.process = process;
        this.logFile = logFile;
        this.startedNs = startedNs;
    }

    /**
     * A system property of the JVM that starts node processes: more JVM flags for each of them, separated by spaces
     * (a build's tests set {@code -XX:TieredStopAtLevel=1}: their short-lived nodes start on about 40% less CPU).
     */
    public static final String EXTRA_FLAGS_PROPERTY = "troupe.local.node-jvm-flags";

    /** The JVM flags of a node process, but its class cache's. */
    static List<String> jvmFlags()
    {
        final List<String> flags = new ArrayList<>(List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"));
        flags.addAll(ReplicaLayout.JVM_FLAGS); // the directory replica's Chronicle Map
        // several nodes share a small host: a small heap and a single-threaded collector each
        flags.add("-Xmx256m");
        flags.add("-XX:+UseSerialGC");
        for (final String extra : System.getProperty(EXTRA_FLAGS_PROPERTY, "").trim().split("\\s+"))
        {
            if (!extra.isEmpty())
            {
                flags.add(extra);
            }
        }
        return flags;
    }

    /**
     * Starts a JVM with the same java and class path as this one, the flags a node needs and its output in
     * a log file.
     *
     * @param nodeId    the node it runs, for messages.
     * @param mainClass the main class.
     * @param args      its arguments.
     * @param logFile   where its standard output and error go (appended).
     * @return the process.
     * @throws UncheckedIOException if the process cannot be started.
     */
    static NodeProcess launch(final int nodeId, final String mainClass, final List<String> args, final Path logFile)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        final List<String> flags = jvmFlags();
        command.addAll(flags);
        command.addAll(ClassCache.flags(flags));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(args);
        try
        {
            final Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .start();
            return new NodeProcess(nodeId, process, logFile, System.nanoTime());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot start a JVM for node " + nodeId + ": " + command, ex);
        }
    }

    /**
     * The node's id.
     *
     * @return the id.
     */
    public int nodeId()
    {
        return nodeId;
    }

    /**
     * The process id.
     *
     * @return the pid.
     */
    public long pid()
    {
        return process.pid();
    }

    /**
     * Whether the process is running.
     *
     * @return true while it runs.
     */
    public boolean isAlive()
    {
        return process.isAlive();
    }

    /**
     * Where the node's output goes.
     *
     * @return the log file.
     */
    public Path logFile()
    {
        return logFile;
    }

    /**
     * How long ago the process was started.
     *
     * @return the age.
     */
    public Duration age()
    {
        return Duration.ofNanos(System.nanoTime() - startedNs);
    }

    /** Asks the node to stop cleanly: SIGTERM, which runs its shutdown hook. */
    public void terminate()
    {
        process.destroy();
    }

    /** Kills the node at once, as a crash would: SIGKILL, no goodbye, no shutdown hook. */
    public void kill()
    {
        process.destroyForcibly();
    }

    /**
     * Waits for the process to exit.
     *
     * @param timeout how long to wait.
     * @return its exit code, or null if it is still running.
     * @throws InterruptedException if interrupted while waiting.
     */
    public Integer awaitExit(final Duration timeout) throws InterruptedException
    {
        return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS) ? process.exitValue() : null;
    }

    /**
     * The last lines of the node's log, for error messages.
     *
     * @param lines how many.
     * @return the lines, each with a line break; a note if the log cannot be read.
     */
    public String logTail(final int lines)
    {
        try
        {
            final List<String> all = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            final StringBuilder text = new StringBuilder();
            for (final String line : all.subList(Math.max(0, all.size() - lines), all.size()))
            {
                text.append("    ").append(line).append(System.lineSeparator());
            }
            return text.toString();
        }
        catch (final IOException | UncheckedIOException ex)
        {
            return "    (cannot read " + logFile + ": " + ex.getMessage() + ")" + System.lineSeparator();
        }
    }

    @Override
    public String toString()
    {
        return "node " + nodeId + " (pid " + process.pid() + (process.isAlive() ? ")" : ", exited)");
    }
}
