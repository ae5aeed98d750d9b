package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * Subscribes the sender to a broker's alarms (its meters' {@link BrokerAlarm}s), or unsubscribes it. A new
 * subscriber is told at once about every alarm that is raised.
 *
 * @param subscribe true to subscribe, false to unsubscribe.
 */
public record AlarmSubscription(boolean subscribe)
{
    /** The event type id. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 8);
}
