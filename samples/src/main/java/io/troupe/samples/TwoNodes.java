package io.troupe.samples;

import io.troupe.actor.EventTypes;
import io.troupe.actor.ServiceId;
import io.troupe.node.Node;
import io.troupe.node.NodeConfigLoader;
import io.troupe.node.local.LocalCluster;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.RecordCodec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Two nodes and an event that crosses between them: node 2 runs a greeter service, node 1 asks it. The event
 * type has an id in a user space and a codec that both nodes are started with. Both nodes run in this process
 * here; on real hosts each runs {@code Node.start} (or {@code NodeCommand.run}) from its own config file.
 */
public final class TwoNodes
{
    /** The type id of {@link Greeting}: the first type in the first user space. */
    public static final int GREETING = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 1);
    /** The greeter service, on whichever node registers it. */
    public static final ServiceId GREETER = ServiceId.of(0, "greeter");
    /** How a greeting crosses nodes. */
    public static final EventCodec<Greeting> GREETING_CODEC = RecordCodec.of(GREETING, "samples.Greeting",
        Greeting.class, (out, greeting) -> out.writeString(greeting.text()), in -> new Greeting(in.readString()));

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(20);

    /**
     * A greeting, the event both ways.
     *
     * @param text what it says.
     */
    public record Greeting(String text)
    {
    }

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
        try (Node one = Node.start(NodeConfigLoader.load(cluster.configFile(1), new Properties()), GREETING_CODEC);
            Node two = Node.start(NodeConfigLoader.load(cluster.configFile(2), new Properties()),
                system -> system.registerService(GREETER, system.register((ctx, envelope) ->
                    ctx.reply(new Greeting("node " + ctx.system().nodeId() + " greets back: " +
                        ((Greeting)envelope.event()).text())))),
                GREETING_CODEC))
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
            return (Greeting)one.system().ask(GREETER.onNode(2), new Greeting(text), GREETING, Duration.ofSeconds(5))
                .get(10, TimeUnit.SECONDS);
        }
        finally
        {
            cluster.close();
        }
    }
}
