package io.troupe.node;

import io.troupe.interconnect.PeerAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Properties;

import static io.troupe.node.NodeConfigTest.SECRET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeConfigLoaderTest
{
    /** One file for a 3-node cluster on one host: each node gets its id and port from system properties. */
    private static final String SHARED = String.join("\n",
        "troupe {",
        "  cluster-secret = \"" + SECRET + "\"",
        "  node-id = 1",
        "  bind { host = \"127.0.0.1\", port = 40101 }",
        "  data-dir = \"/tmp/troupe/node-\"${troupe.node-id}",
        "}");

    @TempDir
    Path dir;

    @Test
    void loadsAFile() throws IOException
    {
        final Path file = write("node.conf",
            SHARED + "\ntroupe.peers = [ { id = 2, host = \"127.0.0.1\", port = 40102 } ]");

        final NodeConfig config = NodeConfigLoader.load(file, new Properties());

        assertThat(config.nodeId()).isEqualTo(1);
        assertThat(config.source()).isEqualTo(file.toString());
        assertThat(config.dataDir()).isEqualTo(Path.of("/tmp/troupe/node-1"));
        assertThat(config.interconnectConfig().peers()).containsExactly(new PeerAddress(2, "127.0.0.1", 40102));
    }

    @Test
    void propertiesOverrideTheFileBeforeSubstitutionsResolve() throws IOException
    {
        final Path file = write("node.conf", SHARED);
        final Properties overrides = new Properties();
        overrides.setProperty("troupe.node-id", "3");
        overrides.setProperty("troupe.bind.port", "40103");
        overrides.setProperty("troupe.transport.idle", "spin");
        overrides.setProperty("troupe.transport.frame-protection", "Encrypted");
        overrides.setProperty("java.version", "ignored: not under troupe.");

        final NodeConfig config = NodeConfigLoader.load(file, overrides);

        assertThat(config.nodeId()).isEqualTo(3);
        assertThat(config.actorSystemConfig().nodeId()).isEqualTo(3);
        assertThat(config.interconnectConfig().bindPort()).isEqualTo(40103);
        assertThat(config.interconnectConfig().idleMode().name()).isEqualTo("SPIN");
        assertThat(config.interconnectConfig().frameProtection().name()).isEqualTo("ENCRYPTED");
        assertThat(config.describe()).contains("frames encrypted (AES-256-GCM) under per-session keys");
        assertThat(config.dataDir()).isEqualTo(Path.of("/tmp/troupe/node-3"));
    }

    @Test
    void systemPropertiesOverrideTheFile() throws IOException
    {
        final Path file = write("node.conf", SHARED);
        final String previous = System.getProperty("troupe.node-id");
        System.setProperty("troupe.node-id", "2");
        try
        {
            assertThat(NodeConfigLoader.load(file).nodeId()).isEqualTo(2);
        }
        finally
        {
            if (previous == null)
            {
                System.clearProperty("troupe.node-id");
            }
            else
            {
                System.setProperty("troupe.node-id", previous);
            }
        }
        assertThat(NodeConfigLoader.load(file, new Properties()).nodeId()).isEqualTo(1);
    }

    @Test
    void propertiesOfOtherPartsOfTroupeAreLeftAlone() throws IOException
    {
        final Path file = write("node.conf", SHARED);
        final Properties overrides = new Properties();
        overrides.setProperty("troupe.serialization.checkRawAccess", "true");
        overrides.setProperty("troupe.fuzz.tries", "1000");

        assertThat(NodeConfigLoader.load(file, overrides).nodeId()).isEqualTo(1);
    }

    @Test
    void anUnknownTroupePropertyIsRefusedLikeAnUnknownKeyWithASuggestion() throws IOException
    {
        final Path file = write("node.conf", SHARED);
        final Properties typo = new Properties();
        typo.setProperty("troupe.nodeid", "5");
        assertThatThrownBy(() -> NodeConfigLoader.load(file, typo))
            .isInstanceOf(NodeConfigException.class)
            .hasMessageContaining("node config " + file + ": unknown system property -Dtroupe.nodeid " +
                "(did you mean -Dtroupe.node-id?): not a key of the node config (the keys: ")
            .satisfies(ex -> assertThat(((NodeConfigException)ex).keyPath()).isEqualTo("troupe.nodeid"));

        final Properties two = new Properties();
        two.setProperty("troupe.nodeid", "5");
        two.setProperty("troupe.frobnicate", "yes");
        assertThatThrownBy(() -> NodeConfigLoader.load(file, two))
            .hasMessageContaining("unknown system properties -Dtroupe.frobnicate, -Dtroupe.nodeid (did you mean");
    }

    @Test
    void aBadPropertyIsRejectedAndSaysItIsAProperty() throws IOException
    {
        final Path file = write("node.conf", SHARED);
        final Properties typo = new Properties();
        typo.setProperty("troupe.bind.prot", "40102");
        final Properties bad = new Properties();
        bad.setProperty("troupe.node-id", "0");

        assertThatThrownBy(() -> NodeConfigLoader.load(file, typo))
            .isInstanceOf(NodeConfigException.class)
            .hasMessageContaining("troupe.bind.prot = \"40102\" (system property): not a known key; allowed in " +
                "troupe.bind");
        assertThatThrownBy(() -> NodeConfigLoader.load(file, bad))
            .isInstanceOf(NodeConfigException.class)
            .hasMessageContaining("node config " + file + ": troupe.node-id = \"0\" (system property)")
            .hasMessageContaining("1..1048575");
    }

    @Test
    void errorsNameTheFileAndTheLine() throws IOException
    {
        final Path file = write("node.conf", String.join("\n",
            "troupe {",
            "  node-id = 1",
            "  cluster-secret = \"" + SECRET + "\"",
            "  bind {",
            "    port = 40101",
            "    prot = 40102",
            "  }",
            "}"));

        assertThatThrownBy(() -> NodeConfigLoader.load(file, new Properties()))
            .isInstanceOfSatisfying(NodeConfigException.class, ex ->
            {
                assertThat(ex.keyPath()).isEqualTo("troupe.bind.prot");
                assertThat(ex.source()).isEqualTo(file.toString());
                assertThat(ex.getMessage()).isEqualTo("node config " + file +
                    ": troupe.bind.prot = 40102 (line 6): not a known key; allowed in troupe.bind: host, port");
            });
    }

    @Test
    void anIncludedFileIsNamedWithItsLine() throws IOException
    {
        write("common.conf", "troupe.transport.mtu = 1000\n");
        final Path file = write("node.conf", "include \"common.conf\"\n" + SHARED);

        assertThatThrownBy(() -> NodeConfigLoader.load(file, new Properties()))
            .isInstanceOf(NodeConfigException.class)
            .hasMessageContaining("troupe.transport.mtu = 1000 (" + dir.resolve("common.conf") + ", line 1)");
    }

    @Test
    void anIncludeIsFoundBesideTheFileWhetherItsPathIsBareRelativeOrAbsolute() throws IOException
    {
        // bare and relative names are resolved against the working directory, the module's: files made there, removed
        final Path here = Path.of("").toAbsolutePath();
        final String unique = "include-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        final Path sub = Files.createDirectories(here.resolve("target").resolve(unique));
        final String cluster = "troupe { cluster-secret = \"" + SECRET + "\", cluster-id = \"include-test\" }\n";
        final String node = "include \"" + unique + "-cluster.conf\"\ntroupe { node-id = 1, bind.port = 40101 }\n";
        final Path bareCluster = Files.writeString(here.resolve(unique + "-cluster.conf"), cluster);
        final Path bareNode = Files.writeString(here.resolve(unique + "-node.conf"), node);
        try
        {
            Files.writeString(sub.resolve(unique + "-cluster.conf"), cluster);
            Files.writeString(sub.resolve(unique + "-node.conf"), node);
            for (final Path path : List.of(Path.of(unique + "-node.conf"),
                Path.of("target", unique, unique + "-node.conf"), sub.resolve(unique + "-node.conf")))
            {
                final NodeConfig config = NodeConfigLoader.load(path, new Properties());
                assertThat(new String(config.interconnectConfig().clusterSecret(), StandardCharsets.UTF_8))
                    .as("the secret from the file included by " + path).isEqualTo(SECRET);
                assertThat(config.interconnectConfig().clusterId()).as(path.toString()).isEqualTo("include-test");
            }
        }
        finally
        {
            Files.deleteIfExists(bareCluster);
            Files.deleteIfExists(bareNode);
            Files.deleteIfExists(sub.resolve(unique + "-cluster.conf"));
            Files.deleteIfExists(sub.resolve(unique + "-node.conf"));
            Files.deleteIfExists(sub);
        }
    }

    @Test
    void aMissingIncludedFileIsAnErrorNamingIt() throws IOException
    {
        final Path file = write("node.conf", "include \"cluster.conf\"\n" + SHARED);

        assertThatThrownBy(() -> NodeConfigLoader.load(file, new Properties()))
            .isInstanceOf(NodeConfigException.class)
            .hasMessageContaining("cluster.conf");
    }

    @Test
    void aMissingOrUnparsableFileIsNamed() throws IOException
    {
        final Path missing = dir.resolve("nope.conf");
        final Path broken = write("broken.conf", "troupe {\n  node-id = 1\n");

        assertThatThrownBy(() -> NodeConfigLoader.load(missing, new Properties()))
            .isInstanceOfSatisfying(NodeConfigException.class, ex -> assertThat(ex.keyPath()).isEmpty())
            .hasMessageContaining("node config " + missing + ": cannot read the file")
            .hasMessageContaining("does not exist");
        assertThatThrownBy(() -> NodeConfigLoader.load(dir, new Properties()))
            .isInstanceOf(NodeConfigException.class)
            .hasMessageContaining("not a readable file");
        assertThatThrownBy(() -> NodeConfigLoader.load(broken, new Properties()))
            .isInstanceOf(NodeConfigException.class)
            .hasMessageContaining("node config " + broken + ": cannot parse: " + broken + ": 3");
    }

    @Test
    void aSecretFileLosesOneTrailingLineBreak() throws IOException
    {
        final String secret = "a-secret-of-more-than-16-bytes";
        final Path unix = writeBytes("unix.secret", (secret + "\n").getBytes(StandardCharsets.UTF_8));
        final Path windows = writeBytes("windows.secret", (secret + "\r\n").getBytes(StandardCharsets.UTF_8));
        final Path bare = writeBytes("bare.secret", secret.getBytes(StandardCharsets.UTF_8));
        final Path twice = writeBytes("twice.secret", (secret + "\n\n").getBytes(StandardCharsets.UTF_8));

        assertThat(secretFrom(unix)).isEqualTo(secret.getBytes(StandardCharsets.UTF_8));
        assertThat(secretFrom(windows)).isEqualTo(secret.getBytes(StandardCharsets.UTF_8));
        assertThat(secretFrom(bare)).isEqualTo(secret.getBytes(StandardCharsets.UTF_8));
        assertThat(secretFrom(twice)).isEqualTo((secret + "\n").getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aSecretFileIsNamedInTheSummaryButItsBytesAreNot() throws IOException
    {
        final Path secretFile = writeBytes("cluster.secret",
            "0123456789abcdef0123456789abcdef\n".getBytes(StandardCharsets.UTF_8));

        final NodeConfig config =
            NodeConfigLoader.parse("troupe { node-id = 1, bind.port = 40101, cluster-secret-file = \"" +
            secretFile + "\" }");

        assertThat(config.describe()).contains("32 bytes from file " + secretFile).doesNotContain("0123456789abcdef");
    }

    @Test
    void aShortSecretFileIsNamed() throws IOException
    {
        final Path secretFile = writeBytes("short.secret", "0123456789abcde\n".getBytes(StandardCharsets.UTF_8));

        NodeConfigErrorTest.assertError("troupe { node-id = 1, bind.port = 40101, cluster-secret-file = \"" +
            secretFile + "\" }", "troupe.cluster-secret-file", "15 bytes", "at least 16 bytes");
    }

    @Test
    void aSecretFileLargerThan64KiBIsRefused() throws IOException
    {
        final Path secretFile = writeBytes("huge.secret", new byte[64 * 1024 + 1]);

        NodeConfigErrorTest.assertError("troupe { node-id = 1, bind.port = 40101, cluster-secret-file = \"" +
            secretFile + "\" }", "troupe.cluster-secret-file", "allowed a file of at most 65536 bytes");
        assertThat(secretFrom(writeBytes("largest.secret", new byte[64 * 1024]))).hasSize(64 * 1024);
    }

    private byte[] secretFrom(final Path secretFile)
    {
        return NodeConfigLoader.parse("troupe { node-id = 1, bind.port = 40101, cluster-secret-file = \"" + secretFile +
            "\" }").interconnectConfig().clusterSecret();
    }

    private Path write(final String name, final String text) throws IOException
    {
        return writeBytes(name, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes a file only its owner can read: a secret file others can read is refused. */
    private Path writeBytes(final String name, final byte[] bytes) throws IOException
    {
        final Path file = Files.write(dir.resolve(name), bytes);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    @Test
    void aSecretFileOthersCanReadIsRefusedWithTheCommandThatFixesIt() throws IOException
    {
        final Path secretFile = writeBytes("shared.secret",
            "a-secret-of-more-than-16-bytes".getBytes(StandardCharsets.UTF_8));
        Files.setPosixFilePermissions(secretFile, PosixFilePermissions.fromString("rw-r-----"));
        NodeConfigErrorTest.assertError("troupe { node-id = 1, bind.port = 40101, cluster-secret-file = \"" +
            secretFile + "\" }", "troupe.cluster-secret-file", "only its owner can read", "rw-r-----", "chmod 600");
    }
}
