package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * A broker matched a request: {@code counterparty} is the value the other side offered (by default its
 * actor id).
 *
 * @param ref            the request's reference.
 * @param counterparty   the other side's value.
 * @param relativeTimeNs when the counterparty sent its request minus when this one was sent: negative if the
 *                       counterparty waited for this request, positive if this request waited.
 * @param sojournTimeNs  how long this request waited for the match.
 */
public record Go(long ref, Object counterparty, long relativeTimeNs, long sojournTimeNs)
{
    /** The event type id. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 2);
}
