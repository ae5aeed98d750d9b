package io.troupe.broker;

/**
 * The {@code askR} side of a regulator: decides how many requests may proceed at once. A request that gets
 * {@code Go} holds a slot until its holder calls {@code done} ({@link #close}) or, asking to
 * {@code continue}, is told to keep it ({@link #keep}). Owned by the regulator's actor: single-threaded.
 * Time is passed in, as for {@link RequestQueue}.
 */
public interface Valve
{
    /**
     * A waiting request asks to proceed now.
     *
     * @param nowNs the regulator's clock.
     * @return true if a slot opened for it (the size grew by one).
     */
    boolean tryOpen(long nowNs);

    /**
     * Whether {@link #tryOpen} would succeed now, without opening anything (no state changes): how the regulator
     * knows its valve waits for requests, which an {@link UnderloadMeterSpec underload meter} watches. A valve of
     * one's own that does not say is never seen waiting.
     *
     * @param nowNs the regulator's clock.
     * @return true if a request arriving now would proceed at once.
     */
    default boolean wouldOpen(final long nowNs)
    {
        return false;
    }

    /**
     * A holder is done: its slot is released.
     *
     * @param nowNs the regulator's clock.
     */
    void close(long nowNs);

    /**
     * A holder asks to keep its slot ({@code continue}).
     *
     * @param nowNs the regulator's clock.
     * @return true if it keeps it; false if the slot is released (the valve shrinks) and the holder must stop.
     */
    boolean keep(long nowNs);

    /**
     * The relative time of the regulated queue, fed by an update meter or explicitly.
     *
     * @param relativeTimeNs the relative time (negative: the counterparty waited).
     * @param nowNs          the regulator's clock.
     */
    void update(long relativeTimeNs, long nowNs);

    /**
     * When {@link #tryOpen} may next succeed without a close or an update (a rate valve's next interval).
     *
     * @param nowNs the regulator's clock.
     * @return a time on the regulator's clock, or {@link Long#MAX_VALUE} if only events change anything.
     */
    long nextOpenNs(long nowNs);

    /**
     * Slots held now.
     *
     * @return the count.
     */
    int size();
}
