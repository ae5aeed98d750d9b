package io.troupe.client;

import io.troupe.node.Node;
import io.troupe.node.NodeConfigLoader;

import java.nio.file.Path;
import java.util.Properties;

/** A node in a child JVM with the tests' services: {@code ServiceNodeMain <config file>}; it runs until killed. */
public final class ServiceNodeMain
{
    private ServiceNodeMain()
    {
    }

    /**
     * Starts the node.
     *
     * @param args the config file.
     * @throws InterruptedException never, in practice: the node runs until the JVM is killed or stopped.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final Node node = Node.start(NodeConfigLoader.load(Path.of(args[0]), new Properties()), system -> { },
            TestEvents.codecs());
        TestEvents.registerServices(node);
        Runtime.getRuntime().addShutdownHook(new Thread(node::close, "node-shutdown"));
        System.out.println("READY node " + node.nodeId());
        node.awaitClosed();
    }
}
