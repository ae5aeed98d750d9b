package io.troupe.samples;

import io.troupe.actor.ActorRef;
import io.troupe.actor.ServiceKey;
import io.troupe.node.Node;
import io.troupe.node.NodeConfigLoader;
import io.troupe.node.local.LocalCluster;
import io.troupe.serialization.DerivedCodec;
import io.troupe.serialization.EventCodec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Two nodes and typed events that cross between them: node 2 runs a greeter service, node 1 asks it. The events
 * are records whose codecs are derived ({@link DerivedCodec}), with type ids from stable names; both nodes are
 * started with them, and their handshake checks that both bind the ids to the same shapes. Both nodes run in
 * this process here; on real hosts each runs {@code Node.start} (or {@code NodeCommand.run}) from its own config
 * file.
 */
public final class TwoNodes
{
    /**
     * A greeting request.
     *
     * @param text    what it says.
     * @param replyTo where the answer goes.
     */
    public record Greet(String text, ActorRef<Greeting> replyTo)
    {
    }

    /**
     * A greeting, the answer.
     *
     * @param text what it says.
     */
    public record Greeting(String text)
    {
    }

    /** The greeter service, on whichever node registers it. */
    public static final ServiceKey<Greet> GREETER = ServiceKey.of(Greet.class, "greeter");
    /** How the two events cross nodes: derived from the records, named so that a rename keeps their ids. */
    public static final EventCodec<?>[] CODECS = {
        DerivedCodec.of(Greet.class, "samples.Greet"), DerivedCodec.of(Greeting.class, "samples.Greeting")};

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(20);

    private TwoNodes()
    {
    }

    /**
     * Runs the sample in a temporary directory and prints the answer.
     *
     * @param args unused.
     * @throws Exception if it fails.
     */
    public static void main(final String[] args) throws Exception
    {
        final Path dir = Files.createTempDirectory("troupe-two-nodes-");
        try
        {
            System.out.println(run(dir, "hello from node 1"));
        }
        finally
        {
            LocalCluster.deleteTree(dir);
        }
    }

    /**
     * Starts nodes 1 and 2 from the config files of a local cluster in a directory, asks node 2's greeter from
     * node 1, and stops both.
     *
     * @param dir  where the config files go.
     * @param text what node 1 says.
     * @return node 2's answer.
     * @throws Exception if the nodes do not connect or the ask fails.
     */
    public static Greeting run(final Path dir, final String text) throws Exception
    {
        final LocalCluster cluster = LocalCluster.create(dir, 2);
        try (Node one = Node.start(NodeConfigLoader.load(cluster.configFile(1), new Properties()), CODECS);
            Node two = Node.start(NodeConfigLoader.load(cluster.configFile(2), new Properties()),
                system -> system.registerService(GREETER, system.spawn(Greet.class, (ctx, greet) ->
                    ctx.send(greet.replyTo(), new Greeting("node " + ctx.system().nodeId() + " greets back: " +
                        greet.text())))),
                CODECS))
        {
            final long deadlineNs = System.nanoTime() + CONNECT_TIMEOUT.toNanos();
            while (!(one.interconnect().isConnected(2) && two.interconnect().isConnected(1)))
            {
                if (System.nanoTime() - deadlineNs > 0)
                {
                    throw new IllegalStateException("nodes 1 and 2 did not connect within " + CONNECT_TIMEOUT);
                }
                Thread.sleep(10);
            }
            return one.system().ask(GREETER.on(2), replyTo -> new Greet(text, replyTo), Greeting.class,
                Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS);
        }
        finally
        {
            cluster.close();
        }
    }
}
