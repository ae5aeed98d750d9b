package io.troupe.interconnect.scheduler;

/**
 * Something waiting for open channels to send messages on. Its callbacks run on the scheduler's thread, one at a
 * time; they should be short (hand long work to an actor).
 */
public interface Sender
{
    /**
     * Channels are open: send on up to {@link Offer#size()} of them (each send closes its channel). A sender that
     * sends nothing keeps its place in the queue and is offered a different set later; one that sent something
     * leaves the queue (schedule it again for more). The offer is void once this returns.
     *
     * @param offer the open channels, best first (lowest load, then lowest observed latency).
     */
    void onOffer(Offer offer);

    /** The scheduler stopped while this sender waited: it will never be offered anything. */
    default void onDiscard()
    {
    }
}
