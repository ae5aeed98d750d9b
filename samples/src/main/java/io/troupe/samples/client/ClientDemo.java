package io.troupe.samples.client;

import io.troupe.client.ClientConfig;
import io.troupe.client.TroupeClient;
import io.troupe.node.local.LocalCluster;
import io.troupe.node.local.NodeProcess;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

/**
 * {@code troupe client-demo}: a greeter node in a child JVM ({@link GreeterNode}), and this process as its client
 * ({@link GreeterClient}): connect, look the service up (asking the node, then from its replica in shared memory),
 * ask it, and close. It prints the two commands that do the same by hand.
 */
public final class ClientDemo
{
    private ClientDemo()
    {
    }

    /**
     * Runs the demo.
     *
     * @param args none.
     * @param out  where the story goes.
     * @param err  where errors go.
     * @return 0 done, 1 failed.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        final Path dir;
        final Path secretFile;
        try
        {
            dir = Files.createTempDirectory("troupe-client-demo");
            secretFile = dir.resolve("client-secret");
            final byte[] secret = new byte[24];
            new SecureRandom().nextBytes(secret);
            Files.writeString(secretFile, Base64.getEncoder().encodeToString(secret) + "\n", StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(secretFile, PosixFilePermissions.fromString("rw-------"));
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            err.println("troupe client-demo: cannot write its files: " + ex);
            return 1;
        }
        final LocalCluster cluster = LocalCluster.create(dir, 1,
            "troupe.client.secret-file = \"" + secretFile.toAbsolutePath() + "\"");
        boolean ok = false;
        try
        {
            out.printf("Troupe client demo: a greeter node in a child process, this process (pid %d) its client%n",
                ProcessHandle.current().pid());
            final NodeProcess node = cluster.start(1, GreeterNode.class.getName(),
                List.of("--config", cluster.configFile(1).toString()));
            out.printf("node      pid %d, cluster \"%s\" on 127.0.0.1:%d; config and log in %s%n", node.pid(),
                cluster.clusterId(), cluster.port(1), dir);
            final ClientConfig config = new ClientConfig().endpoint("127.0.0.1:" + cluster.port(1))
                .clusterId(cluster.clusterId()).secret(GreeterClient.readSecretFile(secretFile))
                .connectTimeout(Duration.ofSeconds(30))
                .codec(GreeterEvents.GREET).codec(GreeterEvents.GREETING);
            try (TroupeClient client = TroupeClient.connect(config))
            {
                if (GreeterClient.talk(client, config, 200, out) != 0)
                {
                    return 1;
                }
            }
            final Path dataDir = dir.resolve("data").resolve("node-1");
            try (TroupeClient local = TroupeClient.connect(config.replicaDirectory(dataDir)))
            {
                final long start = System.nanoTime();
                out.printf("replica   lookup from %s -> %s in %.1f us (no network hop)%n", dataDir,
                    local.lookup(GreeterEvents.GREETER), (System.nanoTime() - start) / 1e3);
            }
            out.println("by hand   a node config with a client secret (cluster-client/README.md, \"Try it by " +
                "hand\"), then");
            out.println("          ./troupe greeter-node --config node.conf           # in one terminal");
            out.println("          ./troupe greeter-client --endpoint 127.0.0.1:PORT --cluster-id ID " +
                "--client-secret-file FILE [--replica DATA_DIR]   # in another");
            ok = true;
            return 0;
        }
        catch (final RuntimeException ex)
        {
            err.println("troupe client-demo: failed: " + ex);
            return 1;
        }
        finally
        {
            cluster.close();
            if (ok)
            {
                cluster.deleteFiles();
            }
            else
            {
                err.println("troupe client-demo: files kept in " + dir);
            }
            out.println(ok ? "done      node stopped, files removed" : "");
        }
    }
}
