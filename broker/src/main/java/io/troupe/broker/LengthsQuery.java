package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * Asks a broker or regulator for its queue lengths; answered with {@link Lengths}.
 *
 * @param unused no meaning; records need a component for a stable wire form (send 0).
 */
public record LengthsQuery(int unused)
{
    /** The event type id. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 6);
}
