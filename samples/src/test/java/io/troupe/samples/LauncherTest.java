package io.troupe.samples;

import io.troupe.node.local.NodeProcess;
import io.troupe.registry.ReplicaLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The launcher's jar: the demo commands in front of the node's, what they print and their exit codes. */
@Timeout(120)
class LauncherTest
{
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args)
    {
        return Launcher.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String err()
    {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void helpListsTheDemoAndTheNodesCommands()
    {
        assertThat(run("help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
            .contains("demo [--seconds N]", "demo --local", "node --config FILE");
        assertThat(run()).isEqualTo(2);
        assertThat(run("nonsense")).isEqualTo(2);
        assertThat(err()).contains("unknown command 'nonsense'");
    }

    @Test
    void theCliCommandsAreDispatchedToTheTroupeCli()
    {
        assertThat(run("help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("status | nodes | sessions | counters");
        assertThat(run("status", "--data-dir", dir.resolve("no-node").toString())).isEqualTo(3);
        assertThat(err()).contains("troupe status: no counters file at");
        assertThat(run("counters", "--bogus")).isEqualTo(2);
    }

    @Test
    void theNodeCommandIsTheNodes()
    {
        assertThat(run("node")).isEqualTo(2);
        assertThat(err()).contains("--config FILE is required");
    }

    @Test
    void demoOptionsAreChecked()
    {
        assertThat(run("demo", "--seconds", "0")).isEqualTo(2);
        assertThat(err()).contains("--seconds 0 out of range 1..3600");
        assertThat(run("demo", "--local", "--bogus", "1")).isEqualTo(2);
        assertThat(err()).contains("unknown option --bogus");
    }

    @Test
    void theDemoRunsThreeNodesInThreeProcessesAFourthJoinsAndLeavesAndNothingIsLeftBehind() throws Exception
    {
        final String printed = launchAndAwaitSuccess("demo.out", "demo", "--seconds", "1", "--pairs", "2");
        assertThat(printed).contains(
            "sessions  all 3 up",
            "msgs/s",
            "round trip p50",
            "-> \"echo: hello from node 1\"",
            "troupe    ./troupe status --data-dir",
            "troupe    ./troupe counters --filter",
            "troupe    ./troupe members --data-dir",
            "3 members; a voter, LEADER",
            "only the seeds",
            "it joined as node 1000",
            "4 members; a voter, LEADER",
            "saw it LEFT",
            "node 1 got NodeDisconnected(3)",
            "node 3 exited with 0",
            "Undelivered(DISCONNECTED)",
            "counters  node 1   peer  session",
            "node 2 exited with 0",
            "all Aeron dirs removed",
            "done");
        // the CLI reads node 2 (a child process) from its files mid-run: running, ready, its peers up
        assertThat(printed).containsPattern("node 2 \\(cluster [^)]+\\), incarnation [0-9]+, pid [0-9]+: running")
            .contains("2 of 2 up").containsPattern("peer_connected peer=1\\n");
        // node 2 is still up when the counters are printed: its heartbeats' smoothed round trip is shown
        assertThat(printed).containsPattern("\\n {10,}2  up {7}[0-9,]+ us ");
        try (var left = Files.list(dir))
        {
            assertThat(left.filter(path -> path.getFileName().toString().startsWith("troupe-demo-")))
                .as("the demo's files are deleted").isEmpty();
        }
    }

    @Test
    void theClientDemoRunsAGreeterNodeAndAClientInTwoProcessesAndLeavesNothingBehind() throws Exception
    {
        final String printed = launchAndAwaitSuccess("client-demo.out", "client-demo");
        assertThat(printed).contains(
            "connected to node 1",
            "lookup    greeter -> [ServiceInstance[service=[1:@greeter]",
            "asked the node",
            "ask       greet -> \"hello, client ",
            "200 asks one after another, after 5,000 of warm-up: p50",
            "(no network hop)",
            "./troupe greeter-node --config node.conf",
            "./troupe greeter-client --endpoint 127.0.0.1:PORT",
            "done      node stopped, files removed");
        try (var left = Files.list(dir))
        {
            assertThat(left.filter(path -> path.getFileName().toString().startsWith("troupe-client-demo")))
                .as("the demo's files are deleted").isEmpty();
        }
    }

    @Test
    void theGreeterClientChecksItsOptions()
    {
        assertThat(run("greeter-client")).isEqualTo(2);
        assertThat(err()).contains("--endpoint is required");
        assertThat(run("greeter-client", "--endpoint", "127.0.0.1:1", "--bogus", "1")).isEqualTo(2);
        assertThat(err()).contains("unknown option --bogus");
        assertThat(run("greeter-node")).isEqualTo(2);
    }

    /**
     * Runs the launcher in a JVM of its own, as {@code ./troupe} would, and checks it exits with 0; what it printed.
     */
    private String launchAndAwaitSuccess(final String outputName, final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx256m", "-XX:+UseSerialGC",
            "-Djava.io.tmpdir=" + dir));
        command.addAll(ReplicaLayout.JVM_FLAGS); // as the launcher and the jar's manifest give
        // the build's flags for the node processes it starts (C1 only), to the nodes this one starts
        command.add("-D" + NodeProcess.EXTRA_FLAGS_PROPERTY + "=" +
            System.getProperty(NodeProcess.EXTRA_FLAGS_PROPERTY, ""));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Launcher.class.getName()));
        command.addAll(List.of(args));
        final Path output = dir.resolve(outputName);
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
            .start();
        final boolean exited = process.waitFor(90, TimeUnit.SECONDS);
        if (!exited)
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        final String printed = Files.readString(output);
        assertThat(exited).as("%s finished; it printed:%n%s", args[0], printed).isTrue();
        assertThat(process.exitValue()).as("exit code; it printed:%n%s", printed).isZero();
        return printed;
    }
}
