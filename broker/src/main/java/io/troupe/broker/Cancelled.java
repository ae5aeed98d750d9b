package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * The answer to {@link BrokerCancel}.
 *
 * @param ref   the request's reference.
 * @param found true if it was queued and is now removed; false if it had already left (matched, dropped).
 */
public record Cancelled(long ref, boolean found)
{
    /** The event type id. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 5);
}
