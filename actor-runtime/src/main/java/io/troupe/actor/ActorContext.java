package io.troupe.actor;

import io.troupe.memquota.Account;

import java.time.Duration;

/**
 * What an actor may do while it handles an event. One instance per worker thread, rebound for every event:
 * use it only inside {@link Behavior#receive} and never keep it.
 */
public interface ActorContext
{
    /**
     * The id of the actor handling the event.
     *
     * @return its id.
     */
    ActorId self();

    /**
     * The system the actor lives in.
     *
     * @return the system.
     */
    ActorSystem system();

    /**
     * Sends a typed event, with no flags and cookie 0.
     *
     * @param recipient the recipient, local or remote.
     * @param event     the event; sent by reference within a node, so it should be immutable.
     * @param <T>       what the recipient accepts.
     */
    default <T> void send(final ActorRef<T> recipient, final T event)
    {
        send(recipient.id(), event, 0, 0, 0L);
    }

    /**
     * Spawns a typed actor on a new {@link MailboxType#SIMPLE} mailbox in this actor's pool; this actor is its parent
     * (the one, beside the system, that may {@link #stop} it).
     *
     * @param eventType what the new actor accepts.
     * @param behavior  its first behaviour.
     * @param <T>       its event type.
     * @return its ref.
     */
    <T> ActorRef<T> spawn(Class<T> eventType, TypedBehavior<T> behavior);

    /**
     * Stops an actor this actor registered or spawned: it passes away once the events queued for it before this
     * request are handled; later ones take the non-delivery path. Nobody else may stop it (besides its node's
     * {@link ActorSystem#stop}): a request for any other actor, by name or on another node, is refused and counted
     * ({@link SystemCounter#STOPS_REFUSED}). A {@link Poison} is only a request the actor may handle as it likes.
     *
     * @param child an actor this one registered.
     * @return true if the request is on its way; false if the actor is gone or the request was refused.
     */
    boolean stop(ActorId child);

    /**
     * Sends an event with type 0, no flags and cookie 0.
     *
     * @param recipient an actor or service id, local or remote.
     * @param event     the event; sent by reference within a node, so it should be immutable.
     */
    void send(ActorId recipient, Object event);

    /**
     * Sends an event.
     *
     * @param recipient an actor or service id.
     * @param event     the event.
     * @param type      the event's type id (see {@link EventTypes}).
     * @param flags     {@link Envelope} flags, e.g. {@link Envelope#FLAG_TRACK_DELIVERY}.
     * @param cookie    a value returned with any reply or {@link Undelivered} notice.
     */
    void send(ActorId recipient, Object event, int type, int flags, long cookie);

    /**
     * Sends an event charged to a given account with a given cost, rather than the defaults ({@link #account()}
     * and the type's cost).
     *
     * @param recipient an actor or service id.
     * @param event     the event.
     * @param type      the event's type id.
     * @param flags     {@link Envelope} flags.
     * @param cookie    a value returned with any reply or notice.
     * @param account   the account to charge, or null for {@link #account()}.
     * @param cost      the cost, 0 or more.
     * @throws IllegalArgumentException if the cost is negative.
     */
    void send(ActorId recipient, Object event, int type, int flags, long cookie, Chargeable account, int cost);

    /**
     * The account this handler's sends are charged to by default: the one given to {@link #chargeTo}, else the
     * account of the event being handled, else (the event was charged to nothing) the node's own account.
     *
     * @return the account.
     */
    Chargeable account();

    /**
     * Charges this handler's later sends to another account (until it returns), e.g. an ingress actor's
     * source account while it handles its own poll timer.
     *
     * @param account the account, or null for the default.
     */
    void chargeTo(Chargeable account);

    /**
     * Before an ingress actor reads its source: true if the account's debt is below its threshold; otherwise
     * false, and this actor receives a {@link FundsCleared} event once the debt falls below it. The actor should
     * stop reading until then. Never blocks; always true when flow control is off.
     *
     * @param account the source's account.
     * @return true if the source may be read now.
     */
    boolean ensureClearFunds(CreditAccount account);

    /**
     * Sends an event that is forwarded to another actor if the recipient does not exist.
     *
     * @param recipient an actor or service id.
     * @param event     the event.
     * @param type      the event's type id.
     * @param flags     {@link Envelope} flags; {@link Envelope#FLAG_FORWARD_ON_NONDELIVERY} is added.
     * @param cookie    a value returned with any reply or notice.
     * @param forwardTo where the event goes if the recipient does not exist.
     */
    void send(ActorId recipient, Object event, int type, int flags, long cookie, ActorId forwardTo);

    /**
     * Replies to the sender of the event being handled, with the same cookie: with the request's type if the reply
     * is of the request's class, otherwise typed by its own class ({@link EventTypes#BY_CLASS}), so that an answer of
     * another class than the question reaches a sender on another node (or a client) through its own codec.
     *
     * @param event the reply.
     */
    void reply(Object event);

    /**
     * Switches the actor's behaviour; takes effect from the next event.
     *
     * @param next the new behaviour.
     */
    void become(Behavior next);

    /**
     * Registers a new actor on a new {@link MailboxType#SIMPLE} mailbox in this actor's pool.
     *
     * @param behavior its first behaviour.
     * @return its id.
     */
    ActorId register(Behavior behavior);

    /**
     * Registers a new actor on a new mailbox.
     *
     * @param behavior its first behaviour.
     * @param poolId   the pool to pin it to.
     * @param type     the mailbox type.
     * @return its id.
     */
    ActorId register(Behavior behavior, int poolId, MailboxType type);

    /**
     * Registers a new actor on a new memory-tracked mailbox (see
     * {@link ActorSystem#register(Behavior, int, MailboxType, Account)}).
     *
     * @param behavior its first behaviour.
     * @param poolId   the pool to pin it to.
     * @param type     the mailbox type.
     * @param account  an account of the node's memory quota.
     * @return its id.
     */
    ActorId register(Behavior behavior, int poolId, MailboxType type, Account account);

    /**
     * Registers a new actor on this actor's own mailbox: the two never run at the same time, so they may
     * share state, while keeping separate addresses.
     *
     * @param behavior its first behaviour.
     * @return its id.
     */
    ActorId registerOnOwnMailbox(Behavior behavior);

    /**
     * Delivers an event to this actor after a delay, not cancellable (see {@link #timers()} for timers that are).
     *
     * @param delay the delay; timers fire on a wheel with about 1 ms resolution.
     * @param event the event.
     */
    void schedule(Duration delay, Object event);

    /**
     * Delivers an event to this actor after a delay unless the cookie was detached by then.
     *
     * @param delay  the delay.
     * @param event  the event.
     * @param type   the event's type id.
     * @param cookie detach it to make the timer stale; may be null.
     */
    void schedule(Duration delay, Object event, int type, SchedulerCookie cookie);

    /**
     * Sends an event to any recipient once after a delay, from this actor (it is the sender the recipient sees).
     * Unlike {@link #schedule(Duration, Object)} it can be called off, and it outlives this actor.
     *
     * @param delay     how long from now, 0 or more.
     * @param recipient an actor or service id, local or remote.
     * @param event     the event.
     * @param type      its type id.
     * @return its handle: {@link Cancellable#cancel()} before it fires stops it.
     */
    Cancellable scheduleOnce(Duration delay, ActorId recipient, Object event, int type);

    /**
     * Sends an event to any recipient at a fixed rate from this actor, until cancelled (see
     * {@link ActorSystem#scheduleAtFixedRate(Duration, Duration, ActorId, Object, int)}).
     *
     * @param initialDelay how long to the first, 0 or more.
     * @param interval     between two, more than 0.
     * @param recipient    an actor or service id, local or remote.
     * @param event        the event, the same object every time.
     * @param type         its type id.
     * @return its handle.
     */
    Cancellable scheduleAtFixedRate(Duration initialDelay, Duration interval, ActorId recipient, Object event,
        int type);

    /**
     * Watches an actor, here or on another node: this actor receives one {@link Terminated} when it is gone (it passed
     * away or was stopped, its node shut down, was downed or restarted), at once if it is gone already. Watching an
     * actor twice, or oneself, does nothing. Costs nothing on the send path: an entry with each actor, and a request.
     *
     * @param target an actor id (not a service id: a service outlives its actors).
     * @throws IllegalArgumentException for a service id.
     */
    void watch(ActorId target);

    /**
     * Stops watching an actor: no {@link Terminated} for it arrives after this, not even one already on its way.
     * Nothing if it is not watched.
     *
     * @param target the actor.
     */
    void unwatch(ActorId target);

    /**
     * This actor's keyed timers: events to itself under a key, where a new timer replaces the key's old one and an
     * event of a replaced or cancelled timer is never delivered. They end when the actor passes away.
     *
     * @return the timers.
     */
    Timers timers();

    /**
     * Ends this actor once the current event is handled. Later events to it take the non-delivery path.
     */
    void passAway();

    /**
     * Subscribes this actor to the session with another node: it receives {@link NodeConnected} when the
     * session is up (at once if it is up now) and {@link NodeDisconnected} when it goes down, once per change.
     * Without an interconnect the node is unreachable: {@link NodeDisconnected} arrives at once.
     *
     * @param nodeId the node.
     */
    void subscribeToNode(int nodeId);

    /**
     * Ends this actor's subscription to a node's session; no-op if there is none.
     *
     * @param nodeId the node.
     */
    void unsubscribeFromNode(int nodeId);
}
