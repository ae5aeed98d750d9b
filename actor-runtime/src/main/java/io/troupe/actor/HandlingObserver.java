package io.troupe.actor;

/**
 * Sees every handled event: the actor's type and how long its handler took ({@link ActorSystemConfig#handlingObserver},
 * off by default). The actor type is the behaviour's class, or for a typed actor ({@link TypedBehavior}) the class of
 * its behaviour at the time. A node gives one when per-actor-type metrics are on ({@code troupe.metrics}). Called on
 * the worker thread after each event, so it must be cheap, thread safe and never block.
 */
@FunctionalInterface
public interface HandlingObserver
{
    /**
     * An event was handled (or its handler threw).
     *
     * @param actorType the behaviour's class.
     * @param nanos     how long the handler ran.
     */
    void handled(Class<?> actorType, long nanos);
}
