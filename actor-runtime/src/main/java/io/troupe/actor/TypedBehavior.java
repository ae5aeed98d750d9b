package io.troupe.actor;

/**
 * What a typed actor does with an event of its type {@code T}. The runtime calls {@link #receive} for one event
 * at a time, in order per sender; state lives in the behaviour object and {@link TypedContext#become} switches
 * to another. Spawn one with {@link ActorSystem#spawn(Class, TypedBehavior)} or
 * {@link TypedContext#spawn(Class, TypedBehavior)}.
 *
 * <pre>{@code
 * sealed interface CounterCommand permits Increment, GetCount {}
 * record Increment(int by) implements CounterCommand {}
 * record GetCount(ActorRef<Count> replyTo) implements CounterCommand {}
 * record Count(long value) {}
 *
 * final class Counter implements TypedBehavior<CounterCommand>
 * {
 *     private long count;
 *
 *     public void receive(TypedContext<CounterCommand> ctx, CounterCommand command)
 *     {
 *         if (command instanceof Increment increment)
 *         {
 *             count += increment.by();
 *         }
 *         else if (command instanceof GetCount get)
 *         {
 *             ctx.send(get.replyTo(), new Count(count));
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>An event that is not a {@code T} (a runtime notice such as {@link Undelivered}, {@link FundsCleared},
 * {@link NodeConnected}, {@link MailboxCollapsed} or {@link Poison}, or an event sent through an untyped id by
 * mistake) never reaches {@link #receive}: it goes to {@link #receiveSignal}. An unhandled signal is dropped and
 * counted ({@link SystemCounters#unhandledEvents()}), a {@link Poison} too: only the actor decides to die
 * ({@link TypedContext#passAway()}), or the actor that spawned it ({@link TypedContext#stop}) or its node's system
 * ({@link ActorSystem#stop}) stops it.
 *
 * @param <T> the type of events the actor accepts: a class, or an interface (sealed, typically) its events
 *            implement.
 */
@FunctionalInterface
public interface TypedBehavior<T>
{
    /**
     * Handles one event. Must not block; an exception is counted and reported to the system's failure handler,
     * and the actor stays alive.
     *
     * @param ctx   what the actor may do while handling; valid only during this call.
     * @param event the event.
     */
    void receive(TypedContext<T> ctx, T event);

    /**
     * Handles an event that is not a {@code T}. The default handles nothing.
     *
     * @param ctx    what the actor may do while handling; {@link TypedContext#envelope()} has the signal's
     *               addressing.
     * @param signal the event.
     * @return true if handled; false to let the runtime count the event as unhandled.
     */
    default boolean receiveSignal(final TypedContext<T> ctx, final Object signal)
    {
        return false;
    }
}
