package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * Tells a regulator that the holder of a slot is done with it: the slot is released, and the next waiting
 * request may proceed.
 *
 * @param ref the reference of the request that got {@link Go}.
 */
public record Done(long ref)
{
    /** The event type id. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 12);
}
