package io.troupe.broker;

/**
 * Raises an alarm once the broker's message-queue sojourn ({@link BrokerMetrics#messageQueueSojournNs()}) has
 * stayed above a target for an interval, and clears it once the sojourn has stayed at or below the target for
 * an interval. See {@link OverloadMeterSpec}.
 *
 * <p><b>Hysteresis.</b> The alarm has two states and changes only after the opposite condition held for a
 * whole interval: every sample that agrees with the current state (above while raised, at or below while
 * clear) cancels a pending change, so a spike or a lull shorter than the interval changes nothing, and a
 * sojourn hovering around the target cannot make the alarm flap faster than once per interval. Each change is
 * reported exactly once: {@code output.alarm(name, true, now)} when raised, {@code output.alarm(name, false,
 * now)} when cleared.
 *
 * <p><b>Sampling.</b> The meter sees the sojourn only when it is updated, and assumes it stays where the last
 * update put it until the next. While a change is pending the meter asks to be updated at the time it would
 * take effect (the first opposite sample plus the interval); the broker then calls it even if nothing arrived,
 * with whatever it then reports as its message-queue sojourn. While the alarm is raised it also asks for an update
 * every re-check period (the target, at least 1 ms, at most the interval): a broker that went idle reports a sojourn
 * of 0 at such a timer, so the alarm clears an interval after the load stopped even if no request ever comes again
 * (it would otherwise stay raised until the next one). Otherwise it asks for no timed update.
 *
 * <p>Owned by the broker's actor: single-threaded, allocates nothing.
 */
final class OverloadMeter implements Meter
{
    /** The shortest re-check period while the alarm is raised. */
    static final long RECHECK_MIN_NS = 1_000_000L;

    private final long targetNs;
    private final long intervalNs;
    /** While raised, how often the meter asks to be updated, so that an idle broker clears the alarm on time. */
    private final long recheckNs;
    private final String alarmName;
    private boolean raised;
    private boolean pending;
    private long oppositeSinceNs;

    OverloadMeter(final long targetNs, final long intervalNs, final String alarmName)
    {
        this.targetNs = targetNs;
        this.intervalNs = intervalNs;
        this.recheckNs = Math.max(RECHECK_MIN_NS, Math.min(targetNs, intervalNs));
        this.alarmName = alarmName;
    }

    /**
     * Samples the message-queue sojourn and raises or clears the alarm when the opposite condition has held
     * for the interval.
     *
     * @param nowNs   the broker's clock.
     * @param metrics the broker's metrics; only the message-queue sojourn is read.
     * @param output  receives the alarm changes.
     * @return the time a pending change would take effect; while the alarm is raised and no change is pending, the
     *         next re-check (the target, at least 1 ms and at most the interval, from now); otherwise
     *         {@link Long#MAX_VALUE}.
     */
    @Override
    public long update(final long nowNs, final BrokerMetrics metrics, final MeterOutput output)
    {
        final boolean above = metrics.messageQueueSojournNs() > targetNs;
        if (above == raised)
        {
            pending = false;
            return raised ? nowNs + recheckNs : Long.MAX_VALUE;
        }
        if (!pending)
        {
            pending = true;
            oppositeSinceNs = nowNs;
        }
        if (nowNs - oppositeSinceNs >= intervalNs)
        {
            raised = above;
            pending = false;
            output.alarm(alarmName, raised, nowNs);
            return raised ? nowNs + recheckNs : Long.MAX_VALUE;
        }
        return oppositeSinceNs + intervalNs;
    }

    /**
     * Whether the alarm is raised.
     *
     * @return true between the update that raised it and the update that cleared it.
     */
    public boolean isRaised()
    {
        return raised;
    }

    /**
     * The alarm's name.
     *
     * @return the name given by the spec.
     */
    public String alarmName()
    {
        return alarmName;
    }

    @Override
    public String toString()
    {
        return "OverloadMeter{alarm=" + alarmName + ", raised=" + raised + '}';
    }
}
