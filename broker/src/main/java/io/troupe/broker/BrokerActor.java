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
 * The broker as an actor: handles {@link BrokerAsk}, {@link DynamicAsk}, {@link BrokerCancel}, {@link LengthsQuery},
 * {@link StatsQuery}, {@link AlarmSubscription} and {@link Reconfigure}, answers with {@link Go}, {@link Drop},
 * {@link Cancelled}, {@link Lengths} and {@link BrokerAlarm}, and wakes itself with a timer when a queue or a meter
 * needs time to pass. Requesters on its own node stamp their send time, so sojourn includes the wait in the broker's
 * mailbox; for requesters on other nodes it starts at arrival.
 */
final class BrokerActor implements Behavior, BrokerCore.Output
{
    /** Alarm subscribers a broker keeps ({@link AlarmBoard#MAX_SUBSCRIBERS}); one more is refused (counted). */
    static final int MAX_ALARM_SUBSCRIBERS = AlarmBoard.MAX_SUBSCRIBERS;

    private final NanoClock clock;
    private final BrokerCore core;
    private final AlarmBoard alarms = new AlarmBoard();
    private final CoreDriver driver = new CoreDriver();
    /** Published after every batch when the broker belongs to a {@link BrokerDirectory}; else null. */
    private final BrokerGauges gauges;
    private ActorContext ctx;
    private long unknownEvents;
    private long unencodableAnswers;

    BrokerActor(final BrokerSpec spec, final NanoClock clock)
    {
        this(spec, clock, null);
    }

    BrokerActor(final BrokerSpec spec, final NanoClock clock, final BrokerGauges gauges)
    {
        this.clock = clock;
        this.core = new BrokerCore(spec, clock.nanoTime());
        this.gauges = gauges;
    }

    @Override
    public void receive(final ActorContext context, final Envelope envelope)
    {
        ctx = context;
        final long nowNs = clock.nanoTime();
        driver.begin();
        final Object event = envelope.event();
        if (event instanceof BrokerAsk ask)
        {
            final BrokerRequest request = driver.request(context, envelope, ask, nowNs);
            if (core.ask(ask.side(), request, ask.nonBlocking(), nowNs, this))
            {
                CoreDriver.watchWaiting(context, request, true);
            }
        }
        else if (event instanceof DynamicAsk dynamic)
        {
            final BrokerRequest request = driver.request(context, envelope, new BrokerAsk(dynamic.side(), dynamic.ref(),
                dynamic.counterparty(), dynamic.sentNs(), false), nowNs);
            if (core.ask(dynamic.side(), request, false, nowNs, this))
            {
                answer(request, new Queued(dynamic.ref()), Queued.TYPE); // before its Go or Drop, which come later
                CoreDriver.watchWaiting(context, request, true);
            }
        }
        else if (event instanceof BrokerCancel cancel)
        {
            // not reply(): it keeps the request's type, and another node's codec for that type is BrokerCancel's
            final boolean found = core.cancel(cancel.side(), envelope.sender(), cancel.ref());
            context.send(envelope.sender(), new Cancelled(cancel.ref(), found), Cancelled.TYPE, 0, envelope.cookie());
        }
        else if (event instanceof LengthsQuery)
        {
            context.send(envelope.sender(), new Lengths(core.length(Side.ASK), core.length(Side.ASK_R)), Lengths.TYPE,
                0, envelope.cookie());
        }
        else if (event instanceof StatsQuery)
        {
            final BrokerMetrics metrics = core.metrics();
            context.send(envelope.sender(), new BrokerStats(metrics.ask().matches(), metrics.ask().drops(),
                metrics.askR().matches(), metrics.askR().drops(), core.cancels(), alarms.changes(), unknownEvents,
                core.purged(), unencodableAnswers), BrokerStats.TYPE, 0, envelope.cookie());
        }
        else if (event instanceof Undelivered undelivered && undelivered.type() == BrokerAlarm.TYPE)
        {
            alarms.onUndelivered(undelivered.recipient()); // gone, or its node is: it may subscribe again
        }
        else if (event instanceof AlarmSubscription subscription)
        {
            alarms.onSubscription(context, envelope.sender(), subscription.subscribe());
        }
        else if (event instanceof Reconfigure reconfigure)
        {
            core.reconfigure(reconfigure.spec(), nowNs);
            if (gauges != null)
            {
                gauges.reconfigured(reconfigure.spec());
            }
        }
        else if (event instanceof Terminated terminated)
        {
            core.purgeRequester(terminated.actor());
        }
        else if (event instanceof NodeDisconnected disconnected)
        {
            core.purgeNode(disconnected.nodeId());
        }
        else if (event instanceof NodeConnected)
        {
            // the answer to a subscription: nothing to do
        }
        else if (!driver.isTick(event))
        {
            unknownEvents++; // an Undelivered answer to a requester that is gone, or a stray event: nothing to do
        }
        driver.wakeBy(context, core.afterBatch(nowNs, driver.queueDelayNs(), this), nowNs);
        if (gauges != null)
        {
            gauges.publish(core.metrics(), core.cancels(), alarms.raisedCount(), core.purged());
        }
        ctx = null;
    }

    @Override
    public void answer(final BrokerRequest request, final Object event, final int type)
    {
        try
        {
            ctx.send(request.requester(), event, type, 0, request.cookie());
        }
        catch (final IllegalArgumentException ex)
        {
            // a Go whose counterparty cannot cross to the requester's node: it gets a Drop instead of nothing
            unencodableAnswers++;
            final long sojournNs = event instanceof Go go ? go.sojournTimeNs() : 0;
            ctx.send(request.requester(), new Drop(request.ref(), sojournNs), Drop.TYPE, 0, request.cookie());
        }
    }

    @Override
    public void send(final ActorId recipient, final Object event, final int type)
    {
        ctx.send(recipient, event, type, 0, 0L);
    }

    @Override
    public void alarm(final String name, final boolean raised, final long nowNs)
    {
        alarms.alarm(ctx, name, raised);
    }

    long unknownEvents()
    {
        return unknownEvents;
    }

    long alarmChanges()
    {
        return alarms.changes();
    }

    int alarmSubscribers()
    {
        return alarms.subscribers();
    }

    long refusedSubscriptions()
    {
        return alarms.refusedSubscriptions();
    }
}
