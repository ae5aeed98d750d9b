package io.troupe.broker;

/**
 * A valve that lets at most {@code limit} requests proceed in any window of {@code interval}, with at most
 * {@code max} slots held at once.
 *
 * <ul>
 *     <li>{@link #tryOpen} at {@code t}: true if {@code size < max} and fewer than {@code limit} opens
 *     happened in {@code (t - interval, t]}. The valve keeps the times of the last {@code limit} opens in a
 *     ring: an open at {@code t0} leaves the window at {@code t0 + interval} exactly, so {@code limit} opens
 *     at {@code t0} allow the next one at {@code t0 + interval}.</li>
 *     <li>{@link #nextOpenNs}: when the oldest remembered open leaves the window, if the limit is what keeps
 *     the valve closed; {@link Long#MAX_VALUE} if it is open, or full ({@code size >= max}: only a close
 *     opens it).</li>
 *     <li>{@link #keep}: true while {@code size <= max}; a continue does not count as an open. Above
 *     {@code max} (after a reconfiguration) each holder that asks is released until the size fits.</li>
 *     <li>{@link #close} frees a slot but not the open it used: the window still counts it.</li>
 *     <li>{@link #update} is ignored.</li>
 *     <li>A {@link #close} or {@link #keep} while no slot is held changes nothing (a keep answers false) and
 *     is counted by {@link #spuriousReleases()}.</li>
 * </ul>
 *
 * <p>A new valve remembers no opens, also after a reconfiguration: the held slots it starts with do not count
 * against the new limit. Times must not go backwards.
 *
 * <p>Owned by the regulator's actor: not thread-safe. Created by {@link RateValveSpec#newValve}.
 */
final class RateValve extends SlotValve
{
    private final long intervalNs;
    private final int max;
    /** Times of the last opens, oldest at {@code oldest}; a ring of {@code limit} entries. */
    private final long[] opensNs;
    private int remembered;
    private int oldest;

    /**
     * A valve holding {@code heldSlots} slots and remembering no opens.
     *
     * @param spec      the configuration.
     * @param heldSlots slots already held, at least 0 (may exceed {@code max}).
     */
    RateValve(final RateValveSpec spec, final int heldSlots)
    {
        super(heldSlots);
        this.intervalNs = spec.interval().toNanos();
        this.max = spec.max();
        this.opensNs = new long[spec.limit()];
    }

    @Override
    public boolean tryOpen(final long nowNs)
    {
        if (size >= max || limited(nowNs))
        {
            return false;
        }
        final int limit = opensNs.length;
        if (remembered < limit)
        {
            opensNs[(oldest + remembered) % limit] = nowNs;
            remembered++;
        }
        else
        {
            // the oldest open has left the window: its entry becomes the newest
            opensNs[oldest] = nowNs;
            oldest = (oldest + 1) % limit;
        }
        size++;
        return true;
    }

    @Override
    boolean releaseOnKeep(final long nowNs)
    {
        return size > max;
    }

    @Override
    public void update(final long relativeTimeNs, final long nowNs)
    {
        // the rate valve does not regulate on relative time
    }

    @Override
    public boolean wouldOpen(final long nowNs)
    {
        return size < max && !limited(nowNs);
    }

    @Override
    public long nextOpenNs(final long nowNs)
    {
        if (size >= max || !limited(nowNs))
        {
            return Long.MAX_VALUE;
        }
        return opensNs[oldest] + intervalNs;
    }

    /**
     * Opens remembered that are still in the window ending at {@code nowNs} (for tests and diagnostics).
     *
     * @param nowNs the regulator's clock.
     * @return the count, at most {@code limit}.
     */
    public int opensInWindow(final long nowNs)
    {
        int count = 0;
        for (int i = 0; i < remembered; i++)
        {
            if (nowNs - opensNs[(oldest + i) % opensNs.length] < intervalNs)
            {
                count++;
            }
        }
        return count;
    }

    private boolean limited(final long nowNs)
    {
        return remembered == opensNs.length && nowNs - opensNs[oldest] < intervalNs;
    }

    @Override
    public String toString()
    {
        return "RateValve{size=" + size + ", max=" + max + ", limit=" + opensNs.length + ", intervalNs=" +
            intervalNs + '}';
    }
}
