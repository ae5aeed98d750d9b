package io.troupe.broker;

/**
 * A valve that grows from {@code min} towards {@code max} while the relative time of the regulated workers'
 * queue is below {@code target}, and shrinks back towards {@code min} when it is not (Erlang's
 * {@code sregulator_relative_valve}).
 *
 * <p>The relative time (see {@link BrokerRequest}) is when a client sent its request minus when the worker
 * it matched sent its own: below {@code target}, workers do not wait long enough for clients, so there are
 * too few of them.
 *
 * <ul>
 *     <li>{@link #tryOpen}: true while {@code size < min}. Between {@code min} and {@code max}, true only
 *     once per {@link #update} with a relative time below {@code target}: each such update grants one open,
 *     which the next successful {@code tryOpen} at or above {@code min} uses, and which any later update
 *     replaces (a grant is never carried over or accumulated). The valve thus creates one worker per
 *     measurement that asks for one, as the original design does ("creating a worker every time it is below
 *     a certain value"), and never lets a queue of waiting requests through on one stale measurement. Never
 *     above {@code max}.</li>
 *     <li>{@link #keep}: false (the slot is released) if {@code size > max}, or if {@code size > min} and the
 *     last relative time is at or above {@code target}: the valve shrinks back towards {@code min}, one
 *     holder per continue; true otherwise.</li>
 *     <li>Before the first update the relative time is unknown: the valve opens only up to {@code min} and
 *     {@code keep} releases only above {@code max} (nothing says the workers are too many). This holds also
 *     after a reconfiguration: the new valve starts with the held slots and no measurement.</li>
 *     <li>{@link #nextOpenNs} is always {@link Long#MAX_VALUE}: only events (an update, a close) open it.</li>
 *     <li>A {@link #close} or {@link #keep} while no slot is held changes nothing (a keep answers false) and
 *     is counted by {@link #spuriousReleases()}.</li>
 * </ul>
 *
 * <p>Owned by the regulator's actor: not thread-safe. Created by {@link RelativeValveSpec#newValve}.
 */
final class RelativeValve extends SlotValve
{
    private final long targetNs;
    private final int min;
    private final int max;
    private boolean measured;
    private long lastRelativeNs;
    private boolean openGranted;

    /**
     * A valve holding {@code heldSlots} slots, with no measurement yet.
     *
     * @param spec      the configuration.
     * @param heldSlots slots already held, at least 0 (may exceed {@code max}).
     */
    RelativeValve(final RelativeValveSpec spec, final int heldSlots)
    {
        super(heldSlots);
        this.targetNs = spec.target().toNanos();
        this.min = spec.min();
        this.max = spec.max();
    }

    @Override
    public boolean wouldOpen(final long nowNs)
    {
        return size < min || (size < max && openGranted);
    }

    @Override
    public boolean tryOpen(final long nowNs)
    {
        if (size < min)
        {
            size++;
            return true;
        }
        if (size < max && openGranted)
        {
            openGranted = false;
            size++;
            return true;
        }
        return false;
    }

    @Override
    boolean releaseOnKeep(final long nowNs)
    {
        return size > max || (size > min && measured && lastRelativeNs >= targetNs);
    }

    @Override
    public void update(final long relativeTimeNs, final long nowNs)
    {
        measured = true;
        lastRelativeNs = relativeTimeNs;
        openGranted = relativeTimeNs < targetNs;
    }

    @Override
    public long nextOpenNs(final long nowNs)
    {
        return Long.MAX_VALUE;
    }

    @Override
    public String toString()
    {
        return "RelativeValve{size=" + size + ", min=" + min + ", max=" + max + ", targetNs=" + targetNs +
            ", lastRelativeNs=" + (measured ? Long.toString(lastRelativeNs) : "unknown") + '}';
    }
}
