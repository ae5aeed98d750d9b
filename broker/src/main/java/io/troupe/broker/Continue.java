package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * Asks a regulator to keep a slot: answered with {@link Go} (keep it) or {@link Stop} (released; the holder
 * must stop).
 *
 * @param ref the reference of the request that got {@link Go}.
 */
public record Continue(long ref)
{
    /** The event type id. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 13);
}
