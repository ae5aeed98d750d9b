package io.troupe.actor;

/**
 * A scheduled send that can be called off: {@link ActorSystem#scheduleOnce}, {@link ActorSystem#scheduleAtFixedRate}
 * and their {@link ActorContext} counterparts return one. Safe from any thread.
 */
public interface Cancellable
{
    /**
     * Calls the send off. Exact before it fires: when this returns true, no event of it is delivered any more (a
     * repeating send whose firing was under way as it was called delivers that one event and no other). Called after
     * a one-time send fired, or a second time, it does nothing.
     *
     * @return true if this call stopped events that would have been sent; false if it fired already (once), or was
     *     cancelled or stale before.
     */
    boolean cancel();

    /**
     * Whether {@link #cancel()} stopped it.
     *
     * @return true once cancelled.
     */
    boolean isCancelled();
}
