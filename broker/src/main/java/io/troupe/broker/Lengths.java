package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * A broker's queue lengths (for a regulator: requests waiting, and slots held).
 *
 * @param ask  requests in the {@code ask} queue.
 * @param askR requests in the {@code askR} queue.
 */
public record Lengths(int ask, int askR)
{
    /** The event type id. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 7);
}
