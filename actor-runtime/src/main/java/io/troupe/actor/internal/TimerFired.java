package io.troupe.actor.internal;

import io.troupe.actor.EventTypes;

/**
 * What a keyed timer sends its actor: the event under its key and the generation of the timer that sent it. The
 * dispatcher unwraps it for the behaviour only if that timer is still the key's ({@link ActorTimers#admit}); it never
 * leaves the node.
 *
 * @param key        the timer's key.
 * @param generation which start of the key sent it.
 * @param event      the actor's event.
 * @param type       the event's type id.
 */
record TimerFired(Object key, int generation, Object event, int type)
{
    /** The wrapper's type id, in the system space: the dispatcher looks for it. */
    static final int TYPE = EventTypes.typeId(EventTypes.SPACE_SYSTEM, 6);
}
