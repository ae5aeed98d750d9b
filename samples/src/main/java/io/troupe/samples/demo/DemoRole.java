package io.troupe.samples.demo;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.interconnect.Interconnect;
import io.troupe.interconnect.PeerCounters;

/**
 * The demo's services on a node ({@link DemoNode}): {@link DemoEvents#ECHO},
 * {@link DemoEvents#PING_PONG} and {@link DemoEvents#STATUS_SERVICE}.
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
        system.registerService(DemoEvents.ECHO, system.register(new Echo()));
        system.registerService(DemoEvents.PING_PONG, system.register(new PingPong()));
        system.registerService(DemoEvents.STATUS_SERVICE, system.register(new StatusReporter()));
    }

    /** Answers a text with "echo: " and the text. */
    private static final class Echo implements Behavior
    {
        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            if (envelope.type() == DemoEvents.TEXT && !envelope.sender().isNone())
            {
                final DemoEvents.Text text = (DemoEvents.Text)envelope.event();
                ctx.send(envelope.sender(), new DemoEvents.Text("echo: " + text.text()), DemoEvents.TEXT, 0,
                    envelope.cookie());
            }
        }
    }

    /** Returns every ball to whoever sent it, as it came. */
    private static final class PingPong implements Behavior
    {
        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            if (envelope.type() == DemoEvents.PING && !envelope.sender().isNone())
            {
                ctx.send(envelope.sender(), envelope.event(), DemoEvents.PING, 0, envelope.cookie());
            }
        }
    }

    /** Answers anything with the node's status; the node's interconnect is its actor system's remote transport. */
    private static final class StatusReporter implements Behavior
    {
        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            if (envelope.sender().isNone() || !(ctx.system().remote() instanceof Interconnect interconnect))
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
            ctx.send(envelope.sender(), new DemoEvents.Status(ctx.system().nodeId(), ProcessHandle.current().pid(),
                interconnect.incarnation(), peersUp.toString()), DemoEvents.STATUS, 0, envelope.cookie());
        }
    }
}
