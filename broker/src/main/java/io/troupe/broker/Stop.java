package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * A regulator's answer to {@link Continue} when the holder must give up its slot: the valve shrank.
 *
 * @param ref the reference of the request that held the slot.
 */
public record Stop(long ref)
{
    /** The event type id. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 11);
}
