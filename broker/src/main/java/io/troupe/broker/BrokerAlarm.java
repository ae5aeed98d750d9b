package io.troupe.broker;

import io.troupe.actor.ActorId;
import io.troupe.actor.EventTypes;

/**
 * A broker's alarm was raised or cleared (e.g. the overload meter's {@code "overload"}).
 *
 * @param broker the broker.
 * @param name   the alarm.
 * @param raised true if raised, false if cleared.
 */
public record BrokerAlarm(ActorId broker, String name, boolean raised)
{
    /** The event type id. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 9);
}
