package io.troupe.samples.client;

import io.troupe.actor.ActorId;
import io.troupe.node.Node;
import io.troupe.node.NodeSetup;
import io.troupe.serialization.EventCodec;

import java.util.List;

/**
 * The greeter as an application {@code troupe node} runs: name it in the node's config,
 * {@code troupe.application.setup = ["io.troupe.samples.client.GreeterSetup"]}, or pack it in a jar of
 * {@code troupe.application.lib-dir} with a {@code META-INF/services/io.troupe.node.NodeSetup} entry naming it. It
 * brings the greeter's codecs and registers the {@code greeter} service in the cluster's directory.
 */
public final class GreeterSetup implements NodeSetup
{
    private ActorId greeter;

    /** A setup. */
    public GreeterSetup()
    {
    }

    @Override
    public List<EventCodec<?>> codecs()
    {
        return List.of(GreeterEvents.GREET, GreeterEvents.GREETING);
    }

    @Override
    public void setup(final Node node)
    {
        final int nodeId = node.nodeId();
        greeter = node.system().register((ctx, envelope) ->
        {
            if (envelope.event() instanceof GreeterEvents.Greet greet)
            {
                ctx.reply(new GreeterEvents.Greeting("hello, " + greet.name(), nodeId));
            }
        });
        node.registry().register(GreeterEvents.GREETER, greeter);
    }

    /**
     * The greeter actor, once set up.
     *
     * @return its id.
     */
    public ActorId greeter()
    {
        return greeter;
    }
}
