package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * A broker dropped a request: its queue's policy shed it, the queue was full, or a non-blocking request found
 * no counterparty.
 *
 * @param ref           the request's reference.
 * @param sojournTimeNs how long it waited before it was dropped.
 */
public record Drop(long ref, long sojournTimeNs)
{
    /** The event type id. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 3);
}
