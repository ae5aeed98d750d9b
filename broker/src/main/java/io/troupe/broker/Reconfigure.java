package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * Replaces a broker's queue policies and meters while it runs: queued requests are kept (in their order, with
 * their times) and the new policies apply from then on. Local only: a spec holds code, so it does not cross
 * nodes.
 *
 * @param spec the new configuration.
 */
public record Reconfigure(BrokerSpec spec)
{
    /** The event type id. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 10);
}
