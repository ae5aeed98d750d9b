package io.troupe.node;

import io.troupe.node.local.LocalCluster;
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
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("node --config FILE").doesNotContain("demo");
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
        assertThat(err()).contains("troupe node: node 1 could not start: troupe.bind.port = " + cluster.port(1) +
            ": 127.0.0.1:" + cluster.port(1) + " is in use (another node on this host, or another program?)\n")
            .doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(cluster.aeronDir(1)).doesNotExist();
    }

    @Test
    void aSetupClassThatFailsStopsTheStartNamingItAndAMissingOneIsAConfigError() throws IOException
    {
        final LocalCluster failing = LocalCluster.create(dir.resolve("failing"), 1,
            "troupe.application.setup = [\"" + TestSetups.FailingSetup.class.getName() + "\"]");
        assertThat(run("node", "--config", failing.configFile(1).toString())).isEqualTo(1);
        assertThat(err()).contains("troupe node: node 1 could not start: setup class " +
            TestSetups.FailingSetup.class.getName() + " failed: " +
            "java.lang.IllegalStateException: the application's database is unreachable");
        assertThat(failing.aeronDir(1)).as("the node it started is stopped").doesNotExist();

        final String nope = "com.example.Nope";
        final LocalCluster missing = LocalCluster.create(dir.resolve("missing"), 1,
            "troupe.application.setup = [\"" + nope + "\"]");
        assertThat(run("node", "--config", missing.configFile(1).toString())).isEqualTo(2);
        assertThat(err()).contains("troupe.application.setup: no class " + nope + " on the class path");
    }
}
