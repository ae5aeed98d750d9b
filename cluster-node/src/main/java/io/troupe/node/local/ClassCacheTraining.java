package io.troupe.node.local;

import io.troupe.node.Node;
import io.troupe.node.NodeConfigLoader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

/**
 * The run that fills a node's class cache: started in a JVM of its own with {@code -XX:ArchiveClassesAtExit=<file>}
 * (the launcher scripts and {@link ClassCache} do it), it starts a one-node cluster with its
 * membership's voter in a temporary directory, so that the classes every node loads are loaded, stops it and exits;
 * the JVM then writes those classes to the archive, and later node JVMs on the same java and jar map them instead of
 * loading them (about 1.3 s less of a node's start here). Writes nothing else; exits 1 if the node could not start.
 */
public final class ClassCacheTraining
{
    private ClassCacheTraining()
    {
    }

    /**
     * Starts and stops a one-node cluster.
     *
     * @param args none.
     */
    public static void main(final String[] args)
    {
        final Path dir;
        try
        {
            dir = Files.createTempDirectory("troupe-class-cache-");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        try
        {
            final LocalCluster cluster = LocalCluster.withMembership(dir, 1, 1);
            final Node node = Node.start(NodeConfigLoader.load(cluster.configFile(1), new Properties()));
            node.close(Duration.ZERO);
        }
        catch (final RuntimeException ex)
        {
            System.err.println("troupe: the class cache's training run failed: " + ex);
            System.exit(1);
        }
        finally
        {
            LocalCluster.deleteTree(dir);
        }
    }
}
