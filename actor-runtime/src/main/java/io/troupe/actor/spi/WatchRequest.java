package io.troupe.actor.spi;

import io.troupe.actor.ActorId;
import io.troupe.actor.EventTypes;

/**
 * What a watcher sends the actor it watches (or stops watching): the runtime of the watched actor's node takes it on
 * the actor's own thread and keeps (or drops) the watcher beside the actor; it never reaches the actor's behaviour.
 * Sent tracked, so that a watch of an actor that is gone comes back as {@code Undelivered(ACTOR_UNKNOWN)}, which the
 * watcher's runtime turns into its {@link io.troupe.actor.Terminated}. A transport carries it like any event (its
 * codec is one of the runtime's own).
 *
 * @param watcher the watching actor.
 * @param watch   true to watch, false to stop watching.
 */
public record WatchRequest(ActorId watcher, boolean watch)
{
    /** Type id of the request, in the system space. */
    public static final int TYPE = EventTypes.typeId(EventTypes.SPACE_SYSTEM, 8);
}
