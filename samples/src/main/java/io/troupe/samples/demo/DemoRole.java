package io.troupe.samples.demo;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.TypedBehavior;
import io.troupe.actor.TypedContext;
import io.troupe.interconnect.Interconnect;
import io.troupe.interconnect.PeerCounters;

/**
 * The demo's services on a node ({@link DemoNode}): {@link DemoEvents#ECHO},
 * {@link DemoEvents#PING_PONG} and {@link DemoEvents#STATUS_SERVICE}, typed actors that answer the ref each
 * request carries.
 */
public final class DemoRole
{
    private DemoRole()
    {
    }

    /**
     * Registers the demo's actors and services on a node's actor system, before its interconnect starts (see
     * {@link io.troupe.node.Node#start(io.troupe.node.NodeConfig, java.util.function.Consumer,
     * io.troupe.serialization.EventCodec[])}).
     *
     * @param system the node's actor system.
     */
    public static void register(final ActorSystem system)
    {
        system.registerService(DemoEvents.ECHO, system.spawn(DemoEvents.EchoRequest.class, (ctx, request) ->
        {
            if (request.replyTo() != null)
            {
                ctx.send(request.replyTo(), new DemoEvents.Text("echo: " + request.text()));
            }
        }));
        system.registerService(DemoEvents.PING_PONG, system.spawn(DemoEvents.Ping.class, (ctx, ball) ->
        {
            if (ball.replyTo() != null)
            {
                ctx.send(ball.replyTo(), ball);
            }
        }));
        system.registerService(DemoEvents.STATUS_SERVICE,
            system.spawn(DemoEvents.StatusRequest.class, new StatusReporter()));
    }

    /** Answers with the node's status; the node's interconnect is its actor system's remote transport. */
    private static final class StatusReporter implements TypedBehavior<DemoEvents.StatusRequest>
    {
        @Override
        public void receive(final TypedContext<DemoEvents.StatusRequest> ctx, final DemoEvents.StatusRequest request)
        {
            if (request.replyTo() == null ||
                !(ActorSystemSpi.of(ctx.system()).remote() instanceof Interconnect interconnect))
            {
                return;
            }
            final StringBuilder peersUp = new StringBuilder();
            for (final PeerCounters peer : interconnect.peerCounters())
            {
                if (peer.connected())
                {
                    peersUp.append(peersUp.length() == 0 ? "" : ",").append(peer.nodeId());
                }
            }
            ctx.send(request.replyTo(), new DemoEvents.Status(ctx.system().nodeId(), ProcessHandle.current().pid(),
                interconnect.incarnation(), peersUp.toString()));
        }
    }
}
