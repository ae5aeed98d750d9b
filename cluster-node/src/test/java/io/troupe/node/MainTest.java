package io.troupe.node;

import io.troupe.node.demo.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The launcher's commands: what they print and the exit codes scripts rely on. */
@Timeout(120)
class MainTest
{
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args)
    {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String err()
    {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void helpListsTheCommands()
    {
        assertThat(run("help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("demo [--seconds N]", "demo --local", "node --config FILE")
            .doesNotContain("--demo-role");
        assertThat(run()).isEqualTo(2);
        assertThat(run("nonsense")).isEqualTo(2);
        assertThat(err()).contains("unknown command 'nonsense'");
    }

    @Test
    void nodeUsageAndConfigErrorsExitWith2AndSayWhatIsWrong() throws IOException
    {
        assertThat(run("node")).isEqualTo(2);
        assertThat(err()).contains("--config FILE is required");
        assertThat(run("node", "--config")).isEqualTo(2);
        assertThat(run("node", "--bogus")).isEqualTo(2);
        assertThat(err()).contains("unknown option '--bogus'");

        assertThat(run("node", "--config", dir.resolve("missing.conf").toString())).isEqualTo(2);
        assertThat(err()).contains("cannot read the file", "(it does not exist)");

        final Path bad = Files.writeString(dir.resolve("bad.conf"), String.join("\n",
            "troupe {",
            "  node-id = 1",
            "  cluster-secret = \"a secret of at least sixteen bytes\"",
            "  bind.prot = 40101",
            "}"));
        assertThat(run("node", "--config", bad.toString())).isEqualTo(2);
        assertThat(err()).contains("node config " + bad + ": troupe.bind.prot = 40101 (line 4): not a known key");
    }

    @Test
    void aNodeThatCannotStartExitsWith1() throws IOException
    {
        final LocalCluster cluster = LocalCluster.create(dir, 2);
        try (DatagramSocket taken = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(),
            cluster.port(1))))
        {
            assertThat(taken.isBound()).isTrue();
            assertThat(run("node", "--config", cluster.configFile(1).toString())).isEqualTo(1);
        }
        assertThat(err()).contains("troupe node: node 1 could not start");
        assertThat(cluster.aeronDir(1)).doesNotExist();
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
    void theDemoRunsThreeNodesInThreeProcessesAndLeavesNothingBehind() throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx256m", "-XX:+UseSerialGC",
            "-Djava.io.tmpdir=" + dir,
            "-cp", System.getProperty("java.class.path"),
            Main.class.getName(), "demo", "--seconds", "1", "--pairs", "2"));
        final Path output = dir.resolve("demo.out");
        final Process demo = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        final boolean exited = demo.waitFor(90, TimeUnit.SECONDS);
        if (!exited)
        {
            demo.descendants().forEach(ProcessHandle::destroyForcibly);
            demo.destroyForcibly();
        }
        final String printed = Files.readString(output);
        assertThat(exited).as("the demo finished; it printed:%n%s", printed).isTrue();
        assertThat(demo.exitValue()).as("exit code; it printed:%n%s", printed).isZero();
        assertThat(printed).contains(
            "sessions  all 3 up",
            "msgs/s",
            "round trip p50",
            "-> \"echo: hello from node 1\"",
            "node 1 got NodeDisconnected(3)",
            "node 3 exited with 0",
            "Undelivered(DISCONNECTED)",
            "counters  node 1   peer  session",
            "node 2 exited with 0",
            "all Aeron dirs removed",
            "done");
        // node 2 is still up when the counters are printed: its heartbeats' smoothed round trip is shown
        assertThat(printed).containsPattern("\\n {10,}2  up {7}[0-9,]+ us ");
        try (var left = Files.list(dir))
        {
            assertThat(left.filter(path -> path.getFileName().toString().startsWith("troupe-demo-")))
                .as("the demo's files are deleted").isEmpty();
        }
    }
}
