package io.troupe.actor;

/**
 * What an actor does with an event. An actor is its current behaviour: the runtime calls {@link #receive}
 * for one event at a time, in order per sender, on whichever thread of the actor's pool runs its mailbox.
 * State lives in the behaviour object; {@link ActorContext#become} switches to another.
 */
@FunctionalInterface
public interface Behavior
{
    /**
     * Handles one event. Must not block; exceptions are counted and reported to the system's error handler,
     * and the actor stays alive.
     *
     * @param ctx      what the actor may do while handling: send, become, register, schedule, pass away. Valid
     *                 only during this call.
     * @param envelope the event and its addressing. Valid after the call; never modified by the runtime
     *                 afterwards.
     */
    void receive(ActorContext ctx, Envelope envelope);
}
