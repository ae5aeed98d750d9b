package io.troupe.samples.demo;

import io.troupe.node.NodeCommand;
import io.troupe.node.local.LocalCluster;
import io.troupe.node.local.NodeProcess;
import io.troupe.serialization.EventCodec;

import java.util.List;

/**
 * A node with the demo's services ({@link DemoRole}) and codecs ({@link DemoEvents}): the main class of the
 * demo's child JVMs, and an example of a node that runs an application's actors. It takes the options of
 * {@code troupe node} ({@code --config FILE}).
 */
public final class DemoNode
{
    private DemoNode()
    {
    }

    /**
     * Runs a node with the demo's services until SIGTERM or Ctrl-C.
     *
     * @param args {@code --config FILE}.
     */
    public static void main(final String[] args)
    {
        System.exit(NodeCommand.run(args, System.out, System.err, DemoRole::register, codecs()));
    }

    /**
     * Starts a demo node of a local cluster in a child JVM.
     *
     * @param cluster the cluster.
     * @param nodeId  the node.
     * @return the process.
     */
    public static NodeProcess start(final LocalCluster cluster, final int nodeId)
    {
        return cluster.start(nodeId, DemoNode.class.getName(),
            List.of("--config", cluster.configFile(nodeId).toString()));
    }

    /**
     * The demo's codecs, as {@link io.troupe.node.Node#start} takes them.
     *
     * @return a new array.
     */
    public static EventCodec<?>[] codecs()
    {
        return DemoEvents.CODECS.toArray(new EventCodec<?>[0]);
    }
}
