package io.troupe.broker;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * The alarms of a broker or regulator (raised by its meters) and who hears them: {@link AlarmSubscription}s, bounded;
 * each change goes to every subscriber as a tracked {@link BrokerAlarm}, so a subscriber that is gone (or on a node
 * that went away) is dropped when its {@code Undelivered} comes back. A new subscriber hears the alarms raised now at
 * once. Owned by its actor's thread.
 */
final class AlarmBoard
{
    /** Alarm subscribers kept; one more is refused (counted). */
    static final int MAX_SUBSCRIBERS = 1024;

    private final Set<ActorId> subscribers = new LinkedHashSet<>();
    private final Set<String> raised = new TreeSet<>();
    private long changes;
    private long refusedSubscriptions;

    /** A subscription or an unsubscription from {@code subscriber}. */
    void onSubscription(final ActorContext ctx, final ActorId subscriber, final boolean subscribe)
    {
        if (!subscribe)
        {
            subscribers.remove(subscriber);
            return;
        }
        if (!subscribers.contains(subscriber) && subscribers.size() >= MAX_SUBSCRIBERS)
        {
            refusedSubscriptions++;
            return;
        }
        if (subscribers.add(subscriber))
        {
            for (final String name : raised)
            {
                ctx.send(subscriber, new BrokerAlarm(ctx.self(), name, true), BrokerAlarm.TYPE,
                    Envelope.FLAG_TRACK_DELIVERY, 0L);
            }
        }
    }

    /** An alarm a subscriber could not get: the subscriber is gone (it may subscribe again). */
    void onUndelivered(final ActorId subscriber)
    {
        subscribers.remove(subscriber);
    }

    /** A meter raised or cleared an alarm: subscribers hear of a change, not of a repeat. */
    void alarm(final ActorContext ctx, final String name, final boolean up)
    {
        if (up ? !raised.add(name) : !raised.remove(name))
        {
            return;
        }
        changes++;
        for (final ActorId subscriber : subscribers)
        {
            ctx.send(subscriber, new BrokerAlarm(ctx.self(), name, up), BrokerAlarm.TYPE, Envelope.FLAG_TRACK_DELIVERY,
                0L);
        }
    }

    boolean isRaised(final String name)
    {
        return raised.contains(name);
    }

    int raisedCount()
    {
        return raised.size();
    }

    long changes()
    {
        return changes;
    }

    int subscribers()
    {
        return subscribers.size();
    }

    long refusedSubscriptions()
    {
        return refusedSubscriptions;
    }
}
