package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * A request to a broker: queue on {@code side} until matched with a request of the other side, or (with
 * {@code nonBlocking}) match now or be dropped now. The broker answers the sender with {@link Go} or
 * {@link Drop}, carrying the envelope cookie back.
 *
 * @param side         which queue the request joins.
 * @param ref          the requester's reference (unique per requester), for cancel and in the answer.
 * @param counterparty what the matched counterparty receives; null means the requester's actor id. To reach a
 *                     counterparty on another node it must be null, an {@code ActorId}, a {@code String}, a
 *                     {@code Long}, an {@code Integer} or a {@code byte[]} (see {@link BrokerCodecs}).
 * @param sentNs       {@code System.nanoTime()} when sent; used for sojourn and relative time only if the
 *                     requester is on the broker's node, else the arrival time is used.
 * @param nonBlocking  true: match with a waiting counterparty now, or {@link Drop} at once.
 */
public record BrokerAsk(Side side, long ref, Object counterparty, long sentNs, boolean nonBlocking)
{
    /** The event type id. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 1);
}
