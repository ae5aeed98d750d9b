package io.troupe.broker;

/**
 * The configuration of a meter: immutable, creates a fresh meter. Replacing a broker's meters starts the new
 * ones from their initial state.
 */
@FunctionalInterface
public interface MeterSpec
{
    /**
     * A new meter with this configuration.
     *
     * @param nowNs the broker's clock when it starts.
     * @return the meter.
     */
    Meter newMeter(long nowNs);
}
