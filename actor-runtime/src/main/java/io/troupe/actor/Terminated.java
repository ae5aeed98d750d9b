package io.troupe.actor;

/**
 * Tells a watcher ({@link ActorContext#watch}) that the actor it watches is gone, once: when it passes away, when its
 * node shuts down, is downed or restarts, and at once if it was already gone when watched. It comes from the watched
 * actor (the envelope's sender), after every event that actor sent the watcher before it went. An actor that
 * {@link ActorContext#unwatch unwatches} first never receives it, even one already on its way.
 *
 * @param actor  the watched actor.
 * @param reason why it is gone.
 */
public record Terminated(ActorId actor, TerminationReason reason)
{
    /** Type id of the notice, in the system space. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_SYSTEM, 9);
}
