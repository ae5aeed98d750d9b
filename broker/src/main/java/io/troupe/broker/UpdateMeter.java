package io.troupe.broker;

import io.troupe.actor.ActorId;

import java.util.SplittableRandom;

/**
 * Sends a regulator the relative time of one of the broker's queues at random intervals. See
 * {@link UpdateMeterSpec}.
 *
 * <p>Each interval is drawn uniformly from {@code [period / 2, period / 2 + period]} nanoseconds and counts
 * from the update that sent, so a late update delays the following ones rather than bunching them.
 *
 * <p>Owned by the broker's actor: single-threaded; allocates one {@link RegulatorUpdate} per send.
 */
final class UpdateMeter implements Meter
{
    private final ActorId regulator;
    private final Side side;
    private final long periodNs;
    private final SplittableRandom random;
    private long nextSendNs;

    UpdateMeter(final ActorId regulator, final Side side, final long periodNs, final long seed, final long nowNs)
    {
        this.regulator = regulator;
        this.side = side;
        this.periodNs = periodNs;
        this.random = new SplittableRandom(seed);
        this.nextSendNs = nowNs + nextIntervalNs();
    }

    /**
     * Sends the queue's last relative time if the send time has come.
     *
     * @param nowNs   the broker's clock.
     * @param metrics the broker's metrics; only the chosen queue's relative time is read.
     * @param output  sends the update.
     * @return the time of the next send.
     */
    @Override
    public long update(final long nowNs, final BrokerMetrics metrics, final MeterOutput output)
    {
        if (nowNs - nextSendNs >= 0)
        {
            output.send(regulator, new RegulatorUpdate(side.queue(metrics).lastRelativeNs()), RegulatorUpdate.TYPE);
            nextSendNs = nowNs + nextIntervalNs();
        }
        return nextSendNs;
    }

    private long nextIntervalNs()
    {
        // Uniform over [period / 2, period / 2 + period]: within [0.5, 1.5] * period also for an odd period.
        // At least 1 ns, so that a 1 ns period cannot ask for an update at the time it was updated.
        return Math.max(1, periodNs / 2 + random.nextLong(periodNs + 1));
    }

    @Override
    public String toString()
    {
        return "UpdateMeter{regulator=" + regulator + ", side=" + side + ", nextSendNs=" + nextSendNs + '}';
    }
}
