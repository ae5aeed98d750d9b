package io.troupe.registry;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.NodeDisconnected;
import io.troupe.actor.Undelivered;
import io.troupe.interconnect.DirectoryUpdate;

import java.time.Duration;

/**
 * The directory's actor: it hears the node notices of every peer, the peers' directory updates (handed over by
 * the interconnect's listener), the pass-aways of actors that serve a name, and the notices to subscribers that
 * came back undelivered, and applies each to the {@link Directory}. Once a {@link #TICK} it sends the snapshots
 * that could not be queued before. It also answers {@link Lookup} (a {@link LookupResult} to the sender, same cookie)
 * and takes {@link Subscribe} and {@link Unsubscribe} from actors of this node: the requests a client process makes
 * through its session on the node.
 */
final class DirectoryActor implements Behavior
{
    /** How often snapshots that could not be queued are tried again. */
    static final Duration TICK = Duration.ofMillis(100);

    /** Asks the actor to subscribe to its peers' node notices and start ticking. */
    record Start(int[] peers)
    {
    }

    /** An actor that served a name passed away. */
    record ActorGone(ActorId actor)
    {
    }

    private enum Tick
    {
        TICK
    }

    private final Directory directory;

    DirectoryActor(final Directory directory)
    {
        this.directory = directory;
    }

    @Override
    public void receive(final ActorContext ctx, final Envelope envelope)
    {
        final Object event = envelope.event();
        if (event instanceof DirectoryUpdate update)
        {
            directory.peerUpdate(update);
        }
        else if (event instanceof NodeConnected connected)
        {
            directory.nodeConnected(connected.nodeId());
        }
        else if (event instanceof NodeDisconnected disconnected)
        {
            directory.nodeDisconnected(disconnected.nodeId());
        }
        else if (event instanceof ActorGone gone)
        {
            directory.actorGone(gone.actor());
        }
        else if (event instanceof Undelivered notice &&
            (notice.type() == ServiceUp.TYPE || notice.type() == ServiceDown.TYPE))
        {
            directory.forgetSubscriber(notice.recipient());
        }
        else if (event instanceof Lookup lookup)
        {
            ctx.send(envelope.sender(), new LookupResult(lookup.service(), directory.lookup(lookup.service())),
                LookupResult.TYPE, 0, envelope.cookie());
        }
        else if (event instanceof Subscribe subscribe && ctx.system().isLocalNode(envelope.sender().nodeId()))
        {
            directory.subscribe(subscribe.service(), envelope.sender());
        }
        else if (event instanceof Unsubscribe unsubscribe)
        {
            directory.unsubscribe(unsubscribe.service(), envelope.sender());
        }
        else if (event == Tick.TICK)
        {
            directory.retryResync();
            ctx.schedule(TICK, Tick.TICK);
        }
        else if (event instanceof Start start)
        {
            for (final int peer : start.peers())
            {
                ctx.subscribeToNode(peer);
            }
            ctx.schedule(TICK, Tick.TICK);
        }
    }
}
