package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * The broker's first answer to a {@link DynamicAsk} that found no counterparty: the request waits in the queue, and
 * its {@link Go} or {@link Drop} follows (after this, in order), unless it is cancelled.
 *
 * @param ref the request's reference.
 */
public record Queued(long ref)
{
    /** Type id, in the broker space. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 22);
}
