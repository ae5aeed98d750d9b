package io.troupe.samples.client;

import io.troupe.actor.ActorId;
import io.troupe.node.Node;
import io.troupe.node.NodeConfigLoader;
import io.troupe.serialization.EventCodec;

import java.nio.file.Path;
import java.util.Properties;

/**
 * A node with one service, {@code greeter}, in the cluster's directory, so that clients find it: the server side
 * of the client sample. {@code troupe greeter-node --config FILE} runs it until SIGTERM or Ctrl-C; the config must
 * set {@code troupe.client.secret} (or {@code secret-file}) for clients to get in.
 */
public final class GreeterNode
{
    private GreeterNode()
    {
    }

    /**
     * Runs the node.
     *
     * @param args {@code --config FILE}.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args));
    }

    /**
     * Runs the node until the JVM is asked to stop.
     *
     * @param args {@code --config FILE}.
     * @return the exit code: 0 stopped, 2 usage.
     */
    public static int run(final String[] args)
    {
        if (args.length != 2 || !"--config".equals(args[0]))
        {
            System.err.println("usage: troupe greeter-node --config FILE");
            return 2;
        }
        final GreeterSetup setup = new GreeterSetup(); // the same application troupe node runs from its config
        // set up before the node admits clients: a client that connects at once finds the greeter
        final Node node = Node.start(NodeConfigLoader.load(Path.of(args[1]), new Properties()), system -> { },
            setup::setup, setup.codecs().toArray(new EventCodec<?>[0]));
        final int nodeId = node.nodeId();
        final ActorId greeter = setup.greeter();
        Runtime.getRuntime().addShutdownHook(new Thread(node::close, "greeter-node-shutdown"));
        System.out.println("greeter node " + nodeId + " up on " + node.config().interconnectConfig().bindHost() + ':' +
            node.config().interconnectConfig().bindPort() + "; service greeter is " + greeter + "; data dir " +
            node.config().dataDir());
        try
        {
            node.awaitClosed();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        return 0;
    }
}
