package io.troupe.actor;

import java.time.Duration;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * What a typed actor may do while it handles an event. One instance per actor, rebound for each event: use it
 * only inside {@link TypedBehavior#receive} or {@link TypedBehavior#receiveSignal}, and never keep it.
 *
 * @param <T> the type of events the actor accepts.
 */
public interface TypedContext<T>
{
    /**
     * This actor's ref.
     *
     * @return the ref.
     */
    ActorRef<T> self();

    /**
     * The system the actor lives in.
     *
     * @return the system.
     */
    ActorSystem system();

    /**
     * The envelope being handled: its sender, flags and cookie.
     *
     * @return the envelope.
     */
    Envelope envelope();

    /**
     * Sends an event. Charged to the account of the event being handled, like every send of a handler.
     *
     * @param recipient the recipient, local or remote.
     * @param event     the event; sent by reference within a node, so it should be immutable.
     * @param <U>       what the recipient accepts.
     */
    <U> void send(ActorRef<U> recipient, U event);

    /**
     * Sends an event whose non-delivery is reported back: if the recipient does not exist, or its node goes away
     * before it confirms the event, this actor receives an {@link Undelivered} signal with the cookie.
     *
     * @param recipient the recipient.
     * @param event     the event.
     * @param cookie    returned in the {@link Undelivered} notice.
     * @param <U>       what the recipient accepts.
     */
    <U> void sendTracked(ActorRef<U> recipient, U event, long cookie);

    /**
     * Asks another actor and receives the outcome as an event of this actor's own type: {@code adapt} turns the
     * reply, or the failure, into a {@code T}, which arrives like any other event, in this actor's turn (no
     * future, no blocking, no other thread). Exactly one outcome arrives: the first reply of type
     * {@code replyType}; or a {@link java.util.concurrent.TimeoutException} when {@code timeout} passes first;
     * or an {@link UndeliveredException} when the request cannot be delivered; or a {@link ClassCastException}
     * when the reply is of another type. The reply slot is freed with the outcome; a reply arriving later is
     * dropped and counted ({@link SystemCounters#lateReplies()}). A request that cannot be sent at all (e.g. no
     * codec for it to reach another node) throws here, like a send, and frees the slot with no outcome.
     *
     * <pre>{@code
     * ctx.ask(counter, GetCount::new, Count.class, Duration.ofSeconds(1),
     *     (count, failure) -> failure == null ? new Total(count.value()) : new CountFailed(failure));
     * }</pre>
     *
     * @param target    the actor asked.
     * @param request   builds the request from the ref the reply must be sent to.
     * @param replyType the reply's class.
     * @param timeout   how long to wait for the reply; positive.
     * @param adapt     turns (reply, null) or (null, failure) into an event for this actor; runs on this actor's
     *                  turn; a null result sends nothing.
     * @param <Q>       what the target accepts.
     * @param <R>       the reply type.
     * @throws IllegalArgumentException if the timeout is not positive.
     */
    <Q, R> void ask(
        ActorRef<Q> target,
        Function<ActorRef<R>, ? extends Q> request,
        Class<R> replyType,
        Duration timeout,
        BiFunction<? super R, Throwable, ? extends T> adapt);

    /**
     * Switches the actor's behaviour; takes effect from the next event.
     *
     * @param next the new behaviour.
     */
    void become(TypedBehavior<T> next);

    /**
     * Spawns a typed actor on a new {@link MailboxType#SIMPLE} mailbox in this actor's pool.
     *
     * @param eventType what the new actor accepts.
     * @param behavior  its first behaviour.
     * @param <U>       its event type.
     * @return its ref.
     */
    <U> ActorRef<U> spawn(Class<U> eventType, TypedBehavior<U> behavior);

    /**
     * Delivers an event to this actor after a delay, not cancellable (see {@link #timers()} for timers that are).
     *
     * @param delay the delay; timers fire on a wheel with about 1 ms resolution.
     * @param event the event.
     */
    void schedule(Duration delay, T event);

    /**
     * Watches an actor (see {@link ActorContext#watch}): a {@link Terminated} comes to {@link
     * TypedBehavior#receiveSignal} when it is gone.
     *
     * @param target the actor.
     */
    void watch(ActorRef<?> target);

    /**
     * Stops watching an actor: no {@link Terminated} for it arrives after this.
     *
     * @param target the actor.
     */
    void unwatch(ActorRef<?> target);

    /**
     * Stops an actor this actor spawned (see {@link ActorContext#stop}); nobody else may.
     *
     * @param child an actor this one spawned.
     * @return true if the request is on its way; false if the actor is gone or the request was refused (counted).
     */
    boolean stop(ActorRef<?> child);

    /**
     * This actor's keyed timers: events to itself under a key, where a new timer replaces the key's old one and an
     * event of a replaced or cancelled timer is never delivered. They end when the actor passes away.
     *
     * @return the timers.
     */
    TypedTimers<T> timers();

    /**
     * Sends an event to any typed recipient once after a delay, from this actor; it can be called off.
     *
     * @param delay     how long from now, 0 or more.
     * @param recipient the recipient, local or remote.
     * @param event     the event.
     * @param <U>       what the recipient accepts.
     * @return its handle: {@link Cancellable#cancel()} before it fires stops it.
     */
    <U> Cancellable scheduleOnce(Duration delay, ActorRef<U> recipient, U event);

    /**
     * Sends an event to any typed recipient at a fixed rate from this actor, until cancelled.
     *
     * @param initialDelay how long to the first, 0 or more.
     * @param interval     between two, more than 0.
     * @param recipient    the recipient, local or remote.
     * @param event        the event, the same object every time.
     * @param <U>          what the recipient accepts.
     * @return its handle.
     */
    <U> Cancellable scheduleAtFixedRate(Duration initialDelay, Duration interval, ActorRef<U> recipient, U event);

    /**
     * Ends this actor once the current event is handled. Later events to it take the non-delivery path.
     */
    void passAway();

    /**
     * The untyped context of the event being handled, for what only the runtime's own API offers: credit
     * accounts ({@link ActorContext#ensureClearFunds}), node subscriptions, replies with the request's type and
     * cookie, sends with explicit type ids.
     *
     * @return the context; valid only during this call.
     */
    ActorContext untyped();
}
