package io.troupe.broker;

/**
 * Runs the basic PIE algorithm (RFC 8033, section 4.2) on each of a broker's queues and publishes the
 * resulting short-circuit probabilities to a {@link Protection}. See {@link PieProtectorSpec}.
 *
 * <p><b>Queue delay.</b> PIE's {@code current_qdelay} for a side is the age of its oldest queued request,
 * {@link QueueMetrics#headSojournNs(long)}, read at the update. It is current even when nothing leaves the
 * queue, so it grows when no counterparty matches, which is what makes the protector a circuit breaker; and it
 * is 0 when the queue is empty, which is when RFC 8033 decays the probability. The sojourn of the last
 * request to leave ({@link QueueMetrics#lastSojournNs()}) would stay stale for as long as nothing leaves.
 *
 * <p><b>Update.</b> Once per interval, per side, with delays in units of the target:
 * <pre>
 *   delta = ALPHA * (qdelay - target) / target + BETA * (qdelay - qdelayOld) / target
 *   delta = delta / k, where by p: k = 2048 (p &lt; 1e-6), 512 (&lt; 1e-5), 128 (&lt; 1e-4), 32 (&lt; 1e-3),
 *                                     8 (&lt; 1e-2), 2 (&lt; 0.1), else 1
 *   p     = p + delta;  p = 0.98 * p if qdelay == 0 and qdelayOld == 0;  p = clamp(p, 0, 1)
 * </pre>
 * The divisor {@code k} is RFC 8033's auto-tuning: small steps while {@code p} is small, full steps from 10%.
 * Left out: the burst allowance (section 4.4), which would hold off the breaker for the allowance (the
 * {@code min} length serves small bursts); the cap on the step (section 5.5), which would take some 45
 * intervals from 10% to 100%; and the safeguard against dropping while the delay is under half the target
 * (section 4.1), of little use when the steps are this steep: the probability falls fast once the delay is
 * low.
 *
 * <p><b>Publishing.</b> After every update, every batch included, the protection gets per side 0 if the queue
 * is shorter than {@code min}, 1 if it is at least {@code max} long, else PIE's {@code p}; written only when
 * it changes.
 *
 * <p>Owned by the broker's actor: single-threaded, allocates nothing.
 */
final class PieProtector implements Meter
{
    private static final double DECAY = 0.98;

    private final long targetNs;
    private final long intervalNs;
    private final int min;
    private final int max;
    private final Protection protection;
    private final Pie ask = new Pie(Side.ASK);
    private final Pie askR = new Pie(Side.ASK_R);
    private long nextUpdateNs;

    PieProtector(
        final long targetNs,
        final long intervalNs,
        final int min,
        final int max,
        final Protection protection,
        final long nowNs)
    {
        this.targetNs = targetNs;
        this.intervalNs = intervalNs;
        this.min = min;
        this.max = max;
        this.protection = protection;
        this.nextUpdateNs = nowNs + intervalNs;
        protection.publish(Side.ASK, 0.0);
        protection.publish(Side.ASK_R, 0.0);
    }

    /**
     * Recomputes both probabilities if an interval has passed since the last time, and publishes what the
     * queue lengths make of them.
     *
     * @param nowNs   the broker's clock.
     * @param metrics the broker's metrics; both queues are read.
     * @param output  unused: the protector only publishes to its protection.
     * @return the time of the next PIE update.
     */
    @Override
    public long update(final long nowNs, final BrokerMetrics metrics, final MeterOutput output)
    {
        final QueueMetrics askQueue = metrics.ask();
        final QueueMetrics askRQueue = metrics.askR();
        if (nowNs - nextUpdateNs >= 0)
        {
            ask.step(askQueue.headSojournNs(nowNs), targetNs);
            askR.step(askRQueue.headSojournNs(nowNs), targetNs);
            nextUpdateNs = nowNs + intervalNs;
        }
        ask.publish(askQueue.length(), min, max, protection);
        askR.publish(askRQueue.length(), min, max, protection);
        return nextUpdateNs;
    }

    /**
     * PIE's probability for a side, before the length rules (for tests).
     *
     * @param side the side.
     * @return {@code p} in [0, 1].
     */
    double dropProbability(final Side side)
    {
        return side == Side.ASK ? ask.probability : askR.probability;
    }

    /**
     * One PIE update (see the class comment): the probability after an interval.
     *
     * @param probability the probability before, in [0, 1].
     * @param qdelayNs    the queue delay now.
     * @param qdelayOldNs the queue delay at the previous update (0 before the first).
     * @param targetNs    the target delay, positive.
     * @return the probability after, in [0, 1].
     */
    static double nextProbability(
        final double probability, final long qdelayNs, final long qdelayOldNs, final long targetNs)
    {
        final double target = targetNs;
        final double delta = PieProtectorSpec.ALPHA * (qdelayNs - targetNs) / target +
            PieProtectorSpec.BETA * (qdelayNs - qdelayOldNs) / target;
        double next = probability + delta / autoTuneDivisor(probability);
        if (qdelayNs == 0 && qdelayOldNs == 0)
        {
            next *= DECAY;
        }
        return Math.max(0.0, Math.min(1.0, next));
    }

    /**
     * RFC 8033's auto-tuning: the divisor of a step at a probability.
     *
     * @param probability the probability before the step.
     * @return 2048 below 0.000001 down to 2 below 0.1, else 1.
     */
    static double autoTuneDivisor(final double probability)
    {
        if (probability < 0.000001)
        {
            return 2048;
        }
        if (probability < 0.00001)
        {
            return 512;
        }
        if (probability < 0.0001)
        {
            return 128;
        }
        if (probability < 0.001)
        {
            return 32;
        }
        if (probability < 0.01)
        {
            return 8;
        }
        if (probability < 0.1)
        {
            return 2;
        }
        return 1;
    }

    @Override
    public String toString()
    {
        return "PieProtector{ask=" + ask.probability + ", askR=" + askR.probability + ", nextUpdateNs=" +
            nextUpdateNs + '}';
    }

    /** PIE's state for one side. */
    private static final class Pie
    {
        private final Side side;
        private double probability;
        private long qdelayOldNs;
        private double published;

        Pie(final Side side)
        {
            this.side = side;
        }

        void step(final long qdelayNs, final long targetNs)
        {
            probability = nextProbability(probability, qdelayNs, qdelayOldNs, targetNs);
            qdelayOldNs = qdelayNs;
        }

        void publish(final int length, final int min, final int max, final Protection protection)
        {
            final double effective = length < min ? 0.0 : length >= max ? 1.0 : probability;
            if (effective != published)
            {
                published = effective;
                protection.publish(side, effective);
            }
        }
    }
}
