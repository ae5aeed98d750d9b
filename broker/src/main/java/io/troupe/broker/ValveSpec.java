package io.troupe.broker;

/**
 * The configuration of a valve: immutable. Replacing a regulator's valve keeps the slots held: the new valve
 * starts with their count.
 */
@FunctionalInterface
public interface ValveSpec
{
    /**
     * A new valve with this configuration.
     *
     * @param heldSlots slots already held (0 for a new regulator).
     * @return the valve.
     */
    Valve newValve(int heldSlots);
}
