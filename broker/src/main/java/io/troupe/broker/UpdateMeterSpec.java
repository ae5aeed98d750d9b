package io.troupe.broker;

import io.troupe.actor.ActorId;

import java.time.Duration;

/**
 * The configuration of an update meter: sends a regulator the relative time of one of the broker's queues
 * ({@link QueueMetrics#lastRelativeNs()}) as a {@link RegulatorUpdate}, at random intervals uniformly
 * distributed between 0.5 and 1.5 times {@code period}. The randomness keeps brokers that update the same
 * regulator from synchronising their updates and the regulator's reactions to them (Floyd and Jacobson,
 * <i>The Synchronization of Periodic Routing Messages</i>, 1994); the seed makes the intervals repeatable.
 *
 * <p>The value sent is the relative time of the queue's last match, as seen from that queue: for
 * {@link Side#ASK_R} it is already the negation of the {@code ask} side's. It is the last match's even if
 * there has been none since the previous update (0 before the first match).
 *
 * <p>Immutable and thread-safe; each {@link #newMeter} starts a fresh meter with a fresh generator from the
 * seed.
 *
 * @param regulator the regulator to update.
 * @param side      the queue whose relative time is sent.
 * @param period    the mean interval between updates; positive. Default {@link #DEFAULT_PERIOD}.
 * @param seed      the seed of the meter's {@link java.util.SplittableRandom}.
 */
public record UpdateMeterSpec(ActorId regulator, Side side, Duration period, long seed) implements MeterSpec
{
    /** Default mean interval between updates: 100 ms. */
    public static final Duration DEFAULT_PERIOD = Duration.ofMillis(100);

    /**
     * Checks the configuration.
     *
     * @param regulator the regulator to update, not null.
     * @param side      the queue whose relative time is sent, not null.
     * @param period    the mean interval between updates, positive.
     * @param seed      the seed of the meter's random intervals.
     * @throws IllegalArgumentException naming the field, its value and what is allowed.
     */
    public UpdateMeterSpec
    {
        MeterArgs.present("UpdateMeterSpec", "regulator", regulator, "the regulator's actor id");
        MeterArgs.present("UpdateMeterSpec", "side", side, "ASK or ASK_R");
        MeterArgs.nanos("UpdateMeterSpec", "period", period, false);
    }

    /**
     * A new meter; its first update is sent one random interval after {@code nowNs} (an update at the start
     * would carry no match yet).
     *
     * @param nowNs the broker's clock when it starts.
     * @return the meter.
     */
    @Override
    public Meter newMeter(final long nowNs)
    {
        return new UpdateMeter(regulator, side, period.toNanos(), seed, nowNs);
    }
}
