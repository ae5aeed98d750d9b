package io.troupe.broker;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.NodeDisconnected;
import io.troupe.actor.Terminated;
import io.troupe.actor.Undelivered;
import org.agrona.concurrent.NanoClock;

/**
 * The regulator as an actor: {@link BrokerAsk} (side ignored) waits for a slot and gets {@link Go} or
 * {@link Drop}; {@link Done} releases a slot; {@link Continue} is answered {@link Go} or {@link Stop};
 * {@link RegulatorUpdate} feeds the valve; {@link BrokerCancel}, {@link LengthsQuery} and
 * {@link ReconfigureRegulator} as for brokers; {@link AlarmSubscription} hears its meters' alarms (an
 * {@link UnderloadMeterSpec underload meter}'s) as {@link BrokerAlarm}s. Holders on other nodes are watched: when
 * their node disconnects, their slots are released.
 */
final class RegulatorActor implements Behavior, BrokerCore.Output
{
    private final NanoClock clock;
    private final RegulatorSpec initialSpec;
    private final CoreDriver driver = new CoreDriver();
    private RegulatorCore core;
    private final AlarmBoard alarms = new AlarmBoard();
    private ActorContext ctx;
    private long unknownEvents;

    RegulatorActor(final RegulatorSpec spec, final NanoClock clock)
    {
        this.clock = clock;
        this.initialSpec = spec;
    }

    @Override
    public void receive(final ActorContext context, final Envelope envelope)
    {
        ctx = context;
        final long nowNs = clock.nanoTime();
        if (core == null)
        {
            core = new RegulatorCore(context.self(), initialSpec, nowNs);
        }
        driver.begin();
        final Object event = envelope.event();
        final ActorId sender = envelope.sender();
        if (event instanceof BrokerAsk ask)
        {
            final BrokerRequest request = driver.request(context, envelope, ask, nowNs);
            core.ask(request, ask.nonBlocking(), nowNs, this);
            CoreDriver.watchWaiting(context, request, false); // waiting or holding: gone, it would never say done
        }
        else if (event instanceof Done done)
        {
            core.done(sender, done.ref(), nowNs, this);
        }
        else if (event instanceof Continue keep)
        {
            final boolean kept = core.keep(sender, keep.ref(), nowNs, this);
            context.send(sender, kept ? new Go(keep.ref(), context.self(), 0, 0) : new Stop(keep.ref()),
                kept ? Go.TYPE : Stop.TYPE, 0, envelope.cookie());
        }
        else if (event instanceof RegulatorUpdate update)
        {
            core.update(update.relativeTimeNs(), nowNs, this);
        }
        else if (event instanceof BrokerCancel cancel)
        {
            context.send(sender, new Cancelled(cancel.ref(), core.cancel(sender, cancel.ref())), Cancelled.TYPE, 0,
                envelope.cookie());
        }
        else if (event instanceof LengthsQuery)
        {
            context.send(sender, new Lengths(core.waiting(), core.held()), Lengths.TYPE, 0, envelope.cookie());
        }
        else if (event instanceof ReconfigureRegulator reconfigure)
        {
            core.reconfigure(reconfigure.spec(), nowNs);
        }
        else if (event instanceof Terminated terminated)
        {
            core.releaseRequester(terminated.actor(), nowNs, this);
        }
        else if (event instanceof NodeDisconnected disconnected)
        {
            core.releaseNode(disconnected.nodeId(), nowNs, this);
        }
        else if (event instanceof Undelivered undelivered && undelivered.type() == Go.TYPE)
        {
            core.goUndelivered(undelivered.recipient(), undelivered.cookie(), nowNs, this);
        }
        else if (event instanceof Undelivered undelivered && undelivered.type() == BrokerAlarm.TYPE)
        {
            alarms.onUndelivered(undelivered.recipient());
        }
        else if (event instanceof AlarmSubscription subscription)
        {
            alarms.onSubscription(context, sender, subscription.subscribe());
        }
        else if (event instanceof NodeConnected)
        {
            // the answer to a subscription: nothing to do
        }
        else if (!driver.isTick(event))
        {
            unknownEvents++;
        }
        driver.wakeBy(context, core.afterBatch(nowNs, driver.queueDelayNs(), this), nowNs);
        ctx = null;
    }

    @Override
    public void answer(final BrokerRequest request, final Object event, final int type)
    {
        // Go (counterparty: this regulator) or Drop; a Go goes tracked, so that a slot granted to a requester that
        // is gone comes back at once rather than when its lease runs out
        ctx.send(request.requester(), event, type, type == Go.TYPE ? Envelope.FLAG_TRACK_DELIVERY : 0,
            request.cookie());
    }

    @Override
    public void send(final ActorId recipient, final Object event, final int type)
    {
        ctx.send(recipient, event, type, 0, 0L);
    }

    @Override
    public void alarm(final String name, final boolean raised, final long nowNs)
    {
        alarms.alarm(ctx, name, raised); // an underload meter's, to the regulator's alarm subscribers
    }

    long alarmChanges()
    {
        return alarms.changes();
    }

    long unknownEvents()
    {
        return unknownEvents;
    }

    long expiredLeases()
    {
        return core == null ? 0 : core.expiredLeases();
    }
}
