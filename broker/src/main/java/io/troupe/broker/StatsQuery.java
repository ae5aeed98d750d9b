package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * Asks a broker for its counters; answered with {@link BrokerStats}.
 *
 * @param unused no meaning (send 0).
 */
public record StatsQuery(int unused)
{
    /** The event type id. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 15);
}
