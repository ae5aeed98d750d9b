package io.troupe.broker;

import io.troupe.actor.EventTypes;

/**
 * Replaces a regulator's queue policy, valve and meters while it runs: waiting requests and held slots are
 * kept. Local only (a spec holds code).
 *
 * @param spec the new configuration.
 */
public record ReconfigureRegulator(RegulatorSpec spec)
{
    /** The event type id. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_BROKER, 14);
}
