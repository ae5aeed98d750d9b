package io.troupe.node.local;

import io.troupe.actor.ActorSystem;
import io.troupe.node.Node;
import io.troupe.node.NodeConfigLoader;
import io.troupe.serialization.EventCodec;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;

/**
 * Nodes started in this JVM from config files (a {@link LocalCluster}'s, say), closed together, the last started
 * first: for tests and tools that run several nodes side by side in one process. Not thread safe.
 */
public final class LocalNodes implements AutoCloseable
{
    private final List<Node> nodes = new ArrayList<>();

    /** No nodes yet: {@link #start} adds them. */
    public LocalNodes()
    {
        // nothing to set up
    }

    /**
     * Starts a node of a local cluster.
     *
     * @param cluster the cluster.
     * @param nodeId  the node.
     * @param codecs  the codecs of the caller's own events.
     * @return the running node, closed by {@link #close()}.
     */
    public Node start(final LocalCluster cluster, final int nodeId, final EventCodec<?>... codecs)
    {
        return start(cluster.configFile(nodeId), system -> { }, codecs);
    }

    /**
     * Starts a node from a config file.
     *
     * @param configFile its config file.
     * @param setup      registers its actors before it serves ({@link Node#start(io.troupe.node.NodeConfig,
     *                   Consumer, EventCodec[])}).
     * @param codecs     the codecs of the caller's own events.
     * @return the running node, closed by {@link #close()}.
     */
    public Node start(final Path configFile, final Consumer<ActorSystem> setup,
        final EventCodec<?>... codecs)
    {
        final Node node = Node.start(NodeConfigLoader.load(configFile, new Properties()), setup, codecs);
        nodes.add(node);
        return node;
    }

    /**
     * Forgets a node the caller closes itself.
     *
     * @param node the node.
     * @return true if it was one of these.
     */
    public boolean remove(final Node node)
    {
        return nodes.remove(node);
    }

    /**
     * Closes every node still here at once (no drain), the last started first.
     */
    @Override
    public void close()
    {
        for (int i = nodes.size() - 1; i >= 0; i--)
        {
            nodes.get(i).close(Duration.ZERO);
        }
        nodes.clear();
    }
}
