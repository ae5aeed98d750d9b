package io.troupe.broker;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.NodeDisconnected;
import org.agrona.concurrent.NanoClock;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * The broker as an actor: handles {@link BrokerAsk}, {@link BrokerCancel}, {@link LengthsQuery}, {@link StatsQuery},
 * {@link AlarmSubscription} and {@link Reconfigure}, answers with {@link Go}, {@link Drop}, {@link Cancelled},
 * {@link Lengths} and {@link BrokerAlarm}, and wakes itself with a timer when a queue or a meter needs time to
 * pass. Requesters on its own node stamp their send time, so sojourn includes the wait in the broker's
 * mailbox; for requesters on other nodes it starts at arrival.
 */
final class BrokerActor implements Behavior, BrokerCore.Output
{
    /**
     * Alarm subscribers a broker keeps; one more is refused (counted). Alarms go out tracked, so a subscriber
     * that is gone (or on a node that went away) is dropped at the next alarm.
     */
    static final int MAX_ALARM_SUBSCRIBERS = 1024;

    private final NanoClock clock;
    private final BrokerCore core;
    private final Set<ActorId> alarmSubscribers = new LinkedHashSet<>();
    private final Set<String> raisedAlarms = new TreeSet<>();
    private final CoreDriver driver = new CoreDriver();
    /** Published after every batch when the broker belongs to a {@link BrokerDirectory}; else null. */
    private final BrokerGauges gauges;
    private ActorContext ctx;
    private long unknownEvents;
    private long unencodableAnswers;
    private long alarmChanges;
    private long refusedSubscriptions;

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
            core.ask(ask.side(), driver.request(context, envelope, ask, nowNs), ask.nonBlocking(), nowNs, this);
        }
        else if (event instanceof BrokerCancel cancel)
        {
            // not reply(): it keeps the request's type, and another node's codec for that type is BrokerCancel's
            final boolean found = core.cancel(cancel.side(), envelope.sender(), cancel.ref());
            context.send(envelope.sender(), new Cancelled(cancel.ref(), found), Cancelled.TYPE, 0, envelope.cookie());
        }
        else if (event instanceof LengthsQuery)
        {
            context.send(envelope.sender(), new Lengths(core.length(Side.ASK), core.length(Side.ASK_R)), Lengths.TYPE, 0,
                envelope.cookie());
        }
        else if (event instanceof StatsQuery)
        {
            final BrokerMetrics metrics = core.metrics();
            context.send(envelope.sender(), new BrokerStats(metrics.ask().matches(), metrics.ask().drops(),
                metrics.askR().matches(), metrics.askR().drops(), core.cancels(), alarmChanges, unknownEvents, core.purged(), unencodableAnswers),
                BrokerStats.TYPE, 0, envelope.cookie());
        }
        else if (event instanceof io.troupe.actor.Undelivered undelivered && undelivered.type() == BrokerAlarm.TYPE)
        {
            alarmSubscribers.remove(undelivered.recipient()); // gone, or its node is: it may subscribe again
        }
        else if (event instanceof AlarmSubscription subscription)
        {
            onSubscription(envelope.sender(), subscription.subscribe());
        }
        else if (event instanceof Reconfigure reconfigure)
        {
            core.reconfigure(reconfigure.spec(), nowNs);
            if (gauges != null)
            {
                gauges.reconfigured(reconfigure.spec());
            }
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
            gauges.publish(core.metrics(), core.cancels(), raisedAlarms.size(), core.purged());
        }
        ctx = null;
    }

    private void onSubscription(final ActorId subscriber, final boolean subscribe)
    {
        if (!subscribe)
        {
            alarmSubscribers.remove(subscriber);
            return;
        }
        if (!alarmSubscribers.contains(subscriber) && alarmSubscribers.size() >= MAX_ALARM_SUBSCRIBERS)
        {
            refusedSubscriptions++;
            return;
        }
        if (alarmSubscribers.add(subscriber))
        {
            for (final String name : raisedAlarms)
            {
                ctx.send(subscriber, new BrokerAlarm(ctx.self(), name, true), BrokerAlarm.TYPE,
                    Envelope.FLAG_TRACK_DELIVERY, 0L);
            }
        }
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
        if (raised ? !raisedAlarms.add(name) : !raisedAlarms.remove(name))
        {
            return; // no change
        }
        alarmChanges++;
        for (final ActorId subscriber : alarmSubscribers)
        {
            ctx.send(subscriber, new BrokerAlarm(ctx.self(), name, raised), BrokerAlarm.TYPE,
                Envelope.FLAG_TRACK_DELIVERY, 0L);
        }
    }

    long unknownEvents()
    {
        return unknownEvents;
    }

    long alarmChanges()
    {
        return alarmChanges;
    }

    int alarmSubscribers()
    {
        return alarmSubscribers.size();
    }

    long refusedSubscriptions()
    {
        return refusedSubscriptions;
    }
}
