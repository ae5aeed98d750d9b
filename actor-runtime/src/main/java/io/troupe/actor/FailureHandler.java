package io.troupe.actor;

/**
 * Receives exceptions thrown by actor handlers. The actor stays alive and the mailbox moves on. Called on the
 * worker thread that ran the handler; must not block.
 */
@FunctionalInterface
public interface FailureHandler
{
    /**
     * A handler threw.
     *
     * @param actor    the actor whose handler threw.
     * @param envelope the event it was handling.
     * @param error    what it threw.
     */
    void onFailure(ActorId actor, Envelope envelope, Throwable error);
}
