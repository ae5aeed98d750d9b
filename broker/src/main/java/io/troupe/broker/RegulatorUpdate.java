package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * Tells a regulator the relative time of a queue it regulates by, for its valve ({@link Valve#update}). An
 * {@link UpdateMeter} sends it with type {@link #TYPE}; anything else may send it too.
 *
 * @param relativeTimeNs the relative time of the queue's last match, from that queue's side (see
 *                       {@link BrokerRequest}): positive when its request waited for the counterparty,
 *                       negative when the counterparty waited.
 */
public record RegulatorUpdate(long relativeTimeNs)
{
    /** Type id of the event, in the broker space. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 20);
}
