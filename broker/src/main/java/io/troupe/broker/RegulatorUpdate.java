package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * The relative time of a regulated queue, for a regulator's valve (sent by an update meter, or by anyone).
 *
 * @param relativeTimeNs the relative time in nanoseconds.
 */
public record RegulatorUpdate(long relativeTimeNs)
{
    /** The event type id. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 20);
}
