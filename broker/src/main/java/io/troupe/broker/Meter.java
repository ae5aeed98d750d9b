package io.troupe.broker;

/**
 * Watches a broker or regulator: called with its metrics after every batch of messages, and at the time it
 * asked for even when nothing arrives. Owned by the broker's actor: single-threaded, never blocking.
 */
@FunctionalInterface
public interface Meter
{
    /**
     * The broker's state now.
     *
     * @param nowNs   the broker's clock.
     * @param metrics the broker's metrics.
     * @param output  what the meter may do.
     * @return when the meter wants its next update even if nothing arrives ({@link Long#MAX_VALUE}: never).
     */
    long update(long nowNs, BrokerMetrics metrics, MeterOutput output);
}
