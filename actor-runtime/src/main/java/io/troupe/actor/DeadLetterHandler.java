package io.troupe.actor;

/**
 * Receives events that failed delivery and whose failure cannot be reported to an actor: the sender is
 * outside any actor, or the node is shutting down. Called from any runtime thread; must not block.
 */
@FunctionalInterface
public interface DeadLetterHandler
{
    /**
     * An event ended undelivered.
     *
     * @param envelope the event.
     * @param reason   why.
     */
    void onDeadLetter(Envelope envelope, UndeliveredReason reason);
}
