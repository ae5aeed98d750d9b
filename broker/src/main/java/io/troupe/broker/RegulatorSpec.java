package io.troupe.broker;

import java.util.List;
import java.util.Objects;

/**
 * A regulator's configuration: the policy of its queue of waiting requests, its valve, and its meters.
 * Immutable; applied live without losing queued requests or held slots.
 *
 * @param queue  the policy of the queue of requests waiting for a slot.
 * @param valve  how many requests may proceed at once.
 * @param meters the meters (the {@code askR} view of their metrics is the valve: length = slots held).
 */
public record RegulatorSpec(QueueSpec queue, ValveSpec valve, List<MeterSpec> meters)
{
    /**
     * Validates and copies.
     *
     * @param queue  the queue policy.
     * @param valve  the valve.
     * @param meters the meters.
     */
    public RegulatorSpec
    {
        Objects.requireNonNull(queue, "queue spec");
        Objects.requireNonNull(valve, "valve spec");
        meters = List.copyOf(Objects.requireNonNull(meters, "meters"));
    }
}
