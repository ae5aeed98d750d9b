package io.troupe.actor;

/** Takes the pending deltas of shadow accounts during a flush (see {@link FlowControl#drainShadows}). */
@FunctionalInterface
public interface ShadowDeltaSink
{
    /**
     * One shadow's net delta for its owner.
     *
     * @param shadow the shadow (its owner and account id say where the delta goes).
     * @param delta  charges minus repayments since the last flush, not 0.
     * @return false if the delta could not be sent now: it is kept for the next flush.
     */
    boolean accept(ShadowAccount shadow, long delta);
}
