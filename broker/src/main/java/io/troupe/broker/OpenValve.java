package io.troupe.broker;

/**
 * A valve open while fewer than {@code max} slots are held (Erlang's {@code sregulator_open_valve}).
 *
 * <ul>
 *     <li>{@link #tryOpen}: true while {@code size < max}.</li>
 *     <li>{@link #keep}: true while {@code size <= max}; above it (after a reconfiguration to a smaller
 *     {@code max}) each holder that asks is released until the size fits.</li>
 *     <li>{@link #update} is ignored; {@link #nextOpenNs} is always {@link Long#MAX_VALUE}: only a close
 *     opens a full valve.</li>
 *     <li>A {@link #close} or {@link #keep} while no slot is held changes nothing (a keep answers false) and
 *     is counted by {@link #spuriousReleases()}.</li>
 * </ul>
 *
 * <p>Owned by the regulator's actor: not thread-safe. Created by {@link OpenValveSpec#newValve}.
 */
final class OpenValve extends SlotValve
{
    private final int max;

    /**
     * A valve holding {@code heldSlots} slots.
     *
     * @param spec      the configuration.
     * @param heldSlots slots already held, at least 0 (may exceed {@code max}).
     */
    OpenValve(final OpenValveSpec spec, final int heldSlots)
    {
        super(heldSlots);
        this.max = spec.max();
    }

    @Override
    public boolean tryOpen(final long nowNs)
    {
        if (size < max)
        {
            size++;
            return true;
        }
        return false;
    }

    @Override
    public boolean wouldOpen(final long nowNs)
    {
        return size < max;
    }

    @Override
    boolean releaseOnKeep(final long nowNs)
    {
        return size > max;
    }

    @Override
    public void update(final long relativeTimeNs, final long nowNs)
    {
        // the open valve does not regulate on relative time
    }

    @Override
    public long nextOpenNs(final long nowNs)
    {
        return Long.MAX_VALUE;
    }

    @Override
    public String toString()
    {
        return "OpenValve{size=" + size + ", max=" + max + '}';
    }
}
