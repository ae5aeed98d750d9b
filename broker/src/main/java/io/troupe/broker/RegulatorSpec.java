package io.troupe.broker;

import io.troupe.memquota.ConfigurationException;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A regulator's configuration: the policy of its queue of waiting requests, its valve, and its meters.
 * Immutable; applied live without losing queued requests or held slots.
 *
 * @param queue  the policy of the queue of requests waiting for a slot.
 * @param valve  how many requests may proceed at once.
 * @param meters the meters (the {@code askR} view of their metrics is the valve: length = slots held).
 * @param lease  how long a slot is held without a word from its holder: a {@link Go} or a {@link Continue}
 *               starts it again; when it runs out the slot is released, as if the holder had said {@link Done}
 *               (a holder that died, or an asker that timed out before its {@link Go} came, never will).
 */
public record RegulatorSpec(QueueSpec queue, ValveSpec valve, List<MeterSpec> meters, Duration lease)
{
    /** The lease unless one is given. */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(60);

    /**
     * Validates and copies.
     *
     * @param queue  the queue policy.
     * @param valve  the valve.
     * @param meters the meters.
     * @param lease  1 ms to 1 day.
     */
    public RegulatorSpec
    {
        Objects.requireNonNull(queue, "queue spec");
        Objects.requireNonNull(valve, "valve spec");
        meters = List.copyOf(Objects.requireNonNull(meters, "meters"));
        if (lease == null || lease.compareTo(Duration.ofMillis(1)) < 0 || lease.compareTo(Duration.ofDays(1)) > 0)
        {
            throw new ConfigurationException("lease", lease, "1 ms to 1 day",
                "a regulator's lease must be 1 ms to 1 day, was " + lease);
        }
    }

    /**
     * A spec with the {@link #DEFAULT_LEASE}.
     *
     * @param queue  the queue policy.
     * @param valve  the valve.
     * @param meters the meters.
     */
    public RegulatorSpec(final QueueSpec queue, final ValveSpec valve, final List<MeterSpec> meters)
    {
        this(queue, valve, meters, DEFAULT_LEASE);
    }
}
