package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * A broker's counters since it started.
 *
 * @param askMatches    matches of {@code ask} requests.
 * @param askDrops      {@code ask} requests dropped (policy, full queue, non-blocking).
 * @param askRMatches   matches of {@code askR} requests (equal to askMatches).
 * @param askRDrops     {@code askR} requests dropped.
 * @param cancels       requests cancelled.
 * @param alarmChanges  times an alarm was raised or cleared.
 * @param strayEvents   events the broker did not expect (counted, ignored).
 * @param purged        queued requests forgotten because their node disconnected.
 * @param unencodable   answers that could not cross to the requester's node (a {@code Go} whose counterparty
 *                      has no wire form), sent as {@code Drop} instead.
 */
public record BrokerStats(long askMatches, long askDrops, long askRMatches, long askRDrops, long cancels,
    long alarmChanges, long strayEvents, long purged, long unencodable)
{
    /** The event type id. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 16);
}
