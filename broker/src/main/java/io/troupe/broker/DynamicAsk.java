package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * A request that learns at once whether it waits (the seed's {@code dynamic_ask}): the broker answers {@link Go} if
 * a counterparty is waiting now; otherwise it queues the request like a {@link BrokerAsk} and answers
 * {@link Queued} at once, then {@link Go} or {@link Drop} later (or nothing, if the asker cancels it first with
 * {@link BrokerCancel}). An actor keeps handling its mailbox meanwhile; a plain thread uses
 * {@link Brokers#dynamicAsk(io.troupe.actor.ActorSystem, io.troupe.actor.ActorId, Side, Object, java.time.Duration)}
 * and its {@link BrokerAwait}.
 *
 * @param side         which queue the request joins.
 * @param ref          the asker's reference for the request (in every answer; to cancel it).
 * @param counterparty what the counterparty receives in its {@link Go}; null for the asker's id.
 * @param sentNs       the asker's {@code System.nanoTime()} when it sent the request (on the broker's node).
 */
public record DynamicAsk(Side side, long ref, Object counterparty, long sentNs)
{
    /** Type id, in the broker space. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 21);
}
