package io.troupe.chaos;

import io.troupe.node.local.NodeProcess;
import io.troupe.testing.JsonReader;
import org.testcontainers.containers.Container;
import org.testcontainers.containers.ExecConfig;
import org.testcontainers.containers.GenericContainer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** What runs inside a node's container: the {@code troupe} CLI, a dump of its media driver's counters. */
final class InContainer
{
    /** A JVM in the image as the node's entrypoint starts it: serial GC and the image's class cache. */
    private static final List<String> JAVA = List.of("java", "-XX:+UseSerialGC",
        "-XX:SharedArchiveFile=/app/troupe.jsa", "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
    private static final String WORKLOAD_CLASS_PATH = "/app/troupe.jar:" + ChaosCluster.WORKLOAD_JAR;

    private InContainer()
    {
    }

    /**
     * Runs the {@code troupe} CLI in a node's container against the node's data directory.
     *
     * @param node a started node's container.
     * @param args the command and its options, e.g. {@code status --json}.
     * @return the CLI's exit code and output.
     */
    static Container.ExecResult cli(final GenericContainer<?> node, final String... args)
    {
        final List<String> command = new ArrayList<>(JAVA);
        command.add("-jar");
        command.add("/app/troupe.jar");
        command.addAll(List.of(args));
        command.add("--data-dir");
        command.add(ChaosCluster.DATA_DIR);
        return exec(node, command.toArray(String[]::new));
    }

    /** The JSON document a read command printed with {@code --json} in a node's container. */
    static Map<String, Object> cliJson(final GenericContainer<?> node, final String... args)
    {
        final String[] withJson = Arrays.copyOf(args, args.length + 1);
        withJson[args.length] = "--json";
        final Container.ExecResult result = cli(node, withJson);
        if (result.getExitCode() != 0 && result.getExitCode() != 1)
        {
            throw new IllegalStateException("troupe " + String.join(" ", args) + " exited " + result.getExitCode() +
                ": " + result.getStdout() + result.getStderr());
        }
        return JsonReader.object(result.getStdout());
    }

    /**
     * A node's media driver's system counters that are not zero, on one line ({@link
     * io.troupe.chaos.workload.DriverCounters}), for a failure report: never fails, says why it could not read them.
     */
    static String driverCounters(final GenericContainer<?> node, final String aeronDir)
    {
        try
        {
            final List<String> command = new ArrayList<>(JAVA);
            command.addAll(List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-cp",
                WORKLOAD_CLASS_PATH, "io.troupe.chaos.workload.DriverCounters", aeronDir));
            final Container.ExecResult result = exec(node, command.toArray(String[]::new));
            return result.getExitCode() == 0 ? result.getStdout().trim() :
                "unreadable (exit " + result.getExitCode() + ")";
        }
        catch (final RuntimeException ex)
        {
            return "unreadable: " + ex; // a report is being written: say so, do not fail it
        }
    }

    /**
     * Runs a command in a node's container; a JVM it starts gets the build's flags for nodes (C1 only) in place of
     * the node's {@code JDK_JAVA_OPTIONS}, whose GC log would overwrite the node's pause log.
     */
    private static Container.ExecResult exec(final GenericContainer<?> node, final String... command)
    {
        try
        {
            return node.execInContainer(ExecConfig.builder().command(command)
                .envVars(Map.of("JDK_JAVA_OPTIONS", System.getProperty(NodeProcess.EXTRA_FLAGS_PROPERTY, "").trim()))
                .build());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(String.join(" ", command) + " in " + node.getContainerName(), ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
