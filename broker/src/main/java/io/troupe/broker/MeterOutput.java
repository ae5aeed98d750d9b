package io.troupe.broker;

import io.troupe.actor.ActorId;

/** What a meter may do besides keeping its own state: send events and raise alarms. Broker thread only. */
public interface MeterOutput
{
    /**
     * Sends an event on behalf of the broker (e.g. an update meter's relative time to a regulator).
     *
     * @param recipient where to.
     * @param event     the event.
     * @param type      its type id (see {@link io.troupe.actor.EventTypes}).
     */
    void send(ActorId recipient, Object event, int type);

    /**
     * Raises or clears a named alarm: the broker counts the change and tells its alarm subscribers, once per
     * change.
     *
     * @param name   the alarm (e.g. {@code "overload"}).
     * @param raised true to raise, false to clear.
     * @param nowNs  the broker's clock.
     */
    void alarm(String name, boolean raised, long nowNs);
}
