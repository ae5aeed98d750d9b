package io.troupe.broker;

import java.util.List;
import java.util.Objects;

/**
 * A broker's configuration: the policy of each queue and its meters. Immutable; a new spec can be applied
 * to a running broker without losing its queued requests.
 *
 * @param ask    the policy of the {@code ask} queue (clients).
 * @param askR   the policy of the {@code askR} queue (workers).
 * @param meters the meters, in the order they are updated.
 */
public record BrokerSpec(QueueSpec ask, QueueSpec askR, List<MeterSpec> meters)
{
    /**
     * Validates and copies.
     *
     * @param ask    the policy of the {@code ask} queue.
     * @param askR   the policy of the {@code askR} queue.
     * @param meters the meters.
     */
    public BrokerSpec
    {
        Objects.requireNonNull(ask, "ask queue spec");
        Objects.requireNonNull(askR, "askR queue spec");
        meters = List.copyOf(Objects.requireNonNull(meters, "meters"));
    }

    /**
     * A broker with the same policy on both queues and no meters.
     *
     * @param both the policy of both queues.
     * @return the spec.
     */
    public static BrokerSpec of(final QueueSpec both)
    {
        return new BrokerSpec(both, both, List.of());
    }
}
