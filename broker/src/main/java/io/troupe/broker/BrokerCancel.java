package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * Asks a broker to remove a queued request of the sender; answered with {@link Cancelled}. A cancelled request
 * gets no {@link Go} or {@link Drop}.
 *
 * @param side which queue it is in.
 * @param ref  the request's reference.
 */
public record BrokerCancel(Side side, long ref)
{
    /** The event type id. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 4);
}
