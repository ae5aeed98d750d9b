package io.troupe.node;

import io.troupe.serialization.EventCodec;

import java.util.List;

/**
 * An application's part of a node: what {@code troupe node} runs on the node besides Troupe's own. The config names
 * the classes ({@code troupe.application.setup}), or, with none named, every {@code NodeSetup} a jar in
 * {@code troupe.application.lib-dir} declares as a service ({@code META-INF/services/io.troupe.node.NodeSetup}).
 * Each needs a public constructor without arguments.
 *
 * <pre>{@code
 * public final class GreeterSetup implements NodeSetup {
 *     public List<EventCodec<?>> codecs() { return List.of(Greet.CODEC, Greeting.CODEC); }
 *     public void setup(Node node) {
 *         node.registry().register(GREETER, node.system().register(new Greeter()));
 *     }
 * }
 * }</pre>
 */
public interface NodeSetup
{
    /**
     * The codecs of the application's events that cross nodes (user type spaces), asked for before the node starts.
     *
     * @return the codecs; none by default.
     */
    default List<EventCodec<?>> codecs()
    {
        return List.of();
    }

    /**
     * Registers the application's actors and services on the running node (its directory included), before the
     * node admits clients (a client that connects finds the services) and before {@code troupe node} says it is up
     * ({@link Node#clients()} is null until then). An exception here stops the node: {@code troupe node} exits with
     * 1, naming the class.
     *
     * @param node the node.
     */
    void setup(Node node);
}
