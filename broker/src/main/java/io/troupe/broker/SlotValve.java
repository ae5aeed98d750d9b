package io.troupe.broker;

/**
 * What every valve shares: the count of slots held, and the closes and keeps that found none held (ignored,
 * counted). A valve adds when a slot may open ({@link #tryOpen}) and when a holder must give one up
 * ({@link #releaseOnKeep}). Owned by the regulator's actor: not thread-safe.
 */
abstract class SlotValve implements Valve
{
    /** Slots held now; a valve's {@link #tryOpen} adds one for each slot it opens. */
    int size;
    private long spuriousReleases;

    SlotValve(final int heldSlots)
    {
        this.size = ValveChecks.heldSlots(heldSlots);
    }

    /**
     * Whether a holder that asks to keep its slot must give it up now. Called with at least one slot held; a
     * valve may record the decision (a CoDel step), the slot itself is released by the caller.
     *
     * @param nowNs the regulator's clock.
     * @return true to release the slot.
     */
    abstract boolean releaseOnKeep(long nowNs);

    @Override
    public final void close(final long nowNs)
    {
        if (size == 0)
        {
            spuriousReleases++;
            return;
        }
        size--;
    }

    @Override
    public final boolean keep(final long nowNs)
    {
        if (size == 0)
        {
            spuriousReleases++;
            return false;
        }
        if (releaseOnKeep(nowNs))
        {
            size--;
            return false;
        }
        return true;
    }

    @Override
    public final int size()
    {
        return size;
    }

    /**
     * Closes and keeps that arrived while no slot was held: ignored, counted (a regulator bug or a lost
     * holder's duplicate).
     *
     * @return the count.
     */
    public final long spuriousReleases()
    {
        return spuriousReleases;
    }
}
