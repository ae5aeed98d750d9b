package io.troupe.broker;

/**
 * Raises an alarm once a regulator's valve has been slow to get a match (waited for a request at least the target)
 * for an interval, and clears it once it has been fast for an interval. See {@link UnderloadMeterSpec}.
 *
 * <p>It reads the valve's side of the regulator's metrics ({@link BrokerMetrics#askR()}): the relative time of the
 * last match as the valve saw it (how long its capacity waited for that request) and, while the valve waits now,
 * since when (as the sent time of its side's oldest waiting request). A valve that waits now counts as slow
 * from the moment its wait reaches the target, so the meter asks to be updated then, and the alarm is raised an
 * interval later even if no request ever arrives. Owned by the regulator's actor; allocates nothing.
 */
final class UnderloadMeter implements Meter
{
    private final long targetNs;
    private final long intervalNs;
    private final String alarmName;
    private boolean raised;
    private boolean pending;
    private long oppositeSinceNs;

    UnderloadMeter(final long targetNs, final long intervalNs, final String alarmName)
    {
        this.targetNs = targetNs;
        this.intervalNs = intervalNs;
        this.alarmName = alarmName;
    }

    @Override
    public long update(final long nowNs, final BrokerMetrics metrics, final MeterOutput output)
    {
        final QueueMetrics valve = metrics.askR();
        final long waitingSinceNs = valve.headSentNs;
        final boolean waitingNow = waitingSinceNs != Long.MIN_VALUE;
        final long waitNs = waitingNow ? Math.max(valve.lastRelativeNs(), nowNs - waitingSinceNs) :
            valve.lastRelativeNs();
        final boolean slow = waitNs >= targetNs;
        if (slow == raised)
        {
            pending = false;
            // a valve that waits now and is not slow yet becomes slow at a known time
            return !raised && waitingNow ? waitingSinceNs + targetNs : Long.MAX_VALUE;
        }
        if (!pending)
        {
            pending = true;
            // a valve that has waited since long ago became slow when its wait reached the target
            oppositeSinceNs = slow && waitingNow ? Math.min(nowNs, waitingSinceNs + targetNs) : nowNs;
        }
        if (nowNs - oppositeSinceNs >= intervalNs)
        {
            raised = slow;
            pending = false;
            output.alarm(alarmName, raised, nowNs);
            return Long.MAX_VALUE;
        }
        return oppositeSinceNs + intervalNs;
    }

    boolean isRaised()
    {
        return raised;
    }

    @Override
    public String toString()
    {
        return "UnderloadMeter{alarm=" + alarmName + ", raised=" + raised + '}';
    }
}
