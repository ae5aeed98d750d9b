package io.troupe.actor;

import io.troupe.memquota.Account;
import io.troupe.memquota.MemoryQuotaTracker;
import org.agrona.ErrorHandler;

import java.time.Duration;
import java.util.Iterator;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The actors of one node: mailboxes, executor pools, the timer, and local services. Start one with
 * {@link #start}; register actors; send to them from anywhere; {@link #close()} drains and stops.
 *
 * <p>Thread safety: every method is safe from any thread. Sends never block.
 *
 * <p>This is the API; the runtime behind it lives in {@code io.troupe.actor.internal}, found through
 * {@link ActorSystemFactory} (so that this package, which the runtime uses, does not depend on it).
 */
public abstract class ActorSystem implements AutoCloseable
{
    /**
     * For the runtime's implementation only.
     */
    protected ActorSystem()
    {
    }

    /**
     * Starts an actor system: validates the config, starts the pool threads and the timer thread.
     *
     * @param config the settings; {@link ActorSystemConfig#conclude()} is called.
     * @return the running system.
     * @throws IllegalArgumentException if a setting is invalid.
     */
    public static ActorSystem start(final ActorSystemConfig config)
    {
        return Factory.INSTANCE.start(config);
    }

    /**
     * This node's id.
     *
     * @return the node id.
     */
    public abstract int nodeId();

    /**
     * The id of a pool by name.
     *
     * @param name the pool name.
     * @return its id.
     * @throws IllegalArgumentException if there is no such pool.
     */
    public abstract int poolId(String name);

    /**
     * Registers an actor on a new {@link MailboxType#SIMPLE} mailbox in pool 0.
     *
     * @param behavior its first behaviour.
     * @return its id.
     */
    public final ActorId register(final Behavior behavior)
    {
        return register(behavior, 0, MailboxType.SIMPLE);
    }

    /**
     * Registers an actor on a new mailbox.
     *
     * @param behavior its first behaviour.
     * @param poolId   the pool to pin it to.
     * @param type     the mailbox type.
     * @return its id.
     * @throws IllegalArgumentException if there is no such pool.
     * @throws IllegalStateException    if the system has stopped or the mailbox table is full.
     */
    public abstract ActorId register(Behavior behavior, int poolId, MailboxType type);

    /**
     * Registers an actor on a new memory-tracked mailbox: every event queued for it is claimed against the
     * account until handled. When the quota reclaims the mailbox, queued events are dropped (tracked ones
     * reported as {@link UndeliveredReason#COLLAPSED}) and the actor receives {@link MailboxCollapsed}.
     *
     * @param behavior its first behaviour.
     * @param poolId   the pool to pin it to.
     * @param type     the mailbox type.
     * @param account  an account of {@link #memoryQuota()}; the mailbox keeps its own handle until its last
     *                 actor passes away.
     * @return its id.
     */
    public abstract ActorId register(Behavior behavior, int poolId, MailboxType type, Account account);

    /**
     * The node's memory quota: open accounts here for memory-tracked mailboxes.
     *
     * @return the tracker.
     */
    public abstract MemoryQuotaTracker memoryQuota();

    /**
     * Sends an event from outside any actor, with type 0, no flags and cookie 0.
     *
     * @param recipient an actor or service id.
     * @param event     the event.
     * @return false if the system is shutting down and refused the event.
     */
    public final boolean send(final ActorId recipient, final Object event)
    {
        return send(recipient, event, 0, 0, 0L);
    }

    /**
     * Sends an event from outside any actor (the sender is {@link ActorId#NONE}). A tracked event that cannot
     * be delivered goes to the {@link DeadLetterHandler}, as there is no actor to notify.
     *
     * @param recipient an actor or service id.
     * @param event     the event.
     * @param type      its type id.
     * @param flags     envelope flags.
     * @param cookie    opaque value.
     * @return false if the system is shutting down and refused the event.
     */
    public abstract boolean send(ActorId recipient, Object event, int type, int flags, long cookie);

    /**
     * Sends an event from outside any actor, charged to a given account (an ingress source's) with a given
     * cost.
     *
     * @param recipient an actor or service id.
     * @param event     the event.
     * @param type      its type id.
     * @param flags     envelope flags.
     * @param cookie    opaque value.
     * @param account   the account to charge, or null for the node's own account.
     * @param cost      the cost, 0 or more.
     * @return false if the system is shutting down and refused the event (its cost is repaid).
     * @throws IllegalArgumentException if the cost is negative.
     */
    public abstract boolean send(
        ActorId recipient,
        Object event,
        int type,
        int flags,
        long cookie,
        Chargeable account,
        int cost);

    /**
     * This node's credit flow control: opens accounts, and holds the node's own account.
     *
     * @return the flow control.
     */
    public abstract FlowControl flow();

    /**
     * Whether a node id is this node (or 0, "this node").
     *
     * @param nodeId the node id.
     * @return true if local.
     */
    public abstract boolean isLocalNode(int nodeId);

    /**
     * Sends an event and returns the first event sent back to the asker.
     *
     * @param recipient an actor or service id.
     * @param event     the request.
     * @param timeout   how long to wait for the reply.
     * @return a future of the reply; it fails with {@link java.util.concurrent.TimeoutException} on timeout
     *     and with {@link UndeliveredException} when the request was not delivered. Dependent stages that are
     *     not {@code async} run on a runtime thread and must not block.
     */
    public final CompletableFuture<Object> ask(final ActorId recipient, final Object event, final Duration timeout)
    {
        return ask(recipient, event, 0, timeout);
    }

    /**
     * Sends an event with a type id and returns the first event sent back to the asker.
     *
     * @param recipient an actor or service id.
     * @param event     the request.
     * @param type      its type id.
     * @param timeout   how long to wait for the reply; positive.
     * @return a future of the reply (see {@link #ask(ActorId, Object, Duration)}).
     */
    public abstract CompletableFuture<Object> ask(ActorId recipient, Object event, int type, Duration timeout);

    /**
     * Asks an actor with a typed request and returns its typed reply. The request is built around the ref the
     * reply must be sent to, so the replier needs nothing but the request:
     *
     * <pre>{@code
     * CompletableFuture<Count> count = system.ask(counter, GetCount::new, Count.class, Duration.ofSeconds(1));
     * }</pre>
     *
     * <p>The reply slot lives until the first outcome and is freed with it: the reply; a timeout; an
     * {@link Undelivered} notice; or a send that throws (the slot is freed, and the exception thrown here). A reply
     * arriving later is dropped and counted ({@link SystemCounters#lateReplies()}).
     *
     * @param target    the actor asked.
     * @param request   builds the request from the ref to reply to.
     * @param replyType the reply's class.
     * @param timeout   how long to wait; positive.
     * @param <Q>       what the target accepts.
     * @param <R>       the reply type.
     * @return a future of the reply; it fails with {@link java.util.concurrent.TimeoutException} on timeout, with
     *     {@link UndeliveredException} when the request was not delivered, with {@link ClassCastException} when
     *     the reply is not a {@code R}. Dependent stages that are not {@code async} run on a runtime thread and
     *     must not block.
     * @throws IllegalArgumentException if the timeout is not positive, or the request cannot be sent (e.g. no
     *     codec for it to reach another node).
     */
    public abstract <Q, R> CompletableFuture<R> ask(
        ActorRef<Q> target, Function<ActorRef<R>, ? extends Q> request, Class<R> replyType, Duration timeout);

    /**
     * Spawns a typed actor on a new {@link MailboxType#SIMPLE} mailbox in pool 0.
     *
     * @param eventType what the actor accepts: events that are not instances of it go to
     *                  {@link TypedBehavior#receiveSignal}.
     * @param behavior  its first behaviour.
     * @param <T>       its event type.
     * @return its ref.
     * @throws IllegalStateException if the system has stopped or the mailbox table is full.
     */
    public final <T> ActorRef<T> spawn(final Class<T> eventType, final TypedBehavior<T> behavior)
    {
        return spawn(eventType, behavior, 0, MailboxType.SIMPLE);
    }

    /**
     * Spawns a typed actor on a new mailbox.
     *
     * @param eventType what the actor accepts.
     * @param behavior  its first behaviour.
     * @param poolId    the pool to pin it to.
     * @param type      the mailbox type.
     * @param <T>       its event type.
     * @return its ref.
     * @throws IllegalArgumentException if there is no such pool.
     * @throws IllegalStateException    if the system has stopped or the mailbox table is full.
     */
    public abstract <T> ActorRef<T> spawn(Class<T> eventType, TypedBehavior<T> behavior, int poolId, MailboxType type);

    /**
     * Sends a typed event from outside any actor.
     *
     * @param recipient the recipient, local or remote.
     * @param event     the event.
     * @param <T>       what the recipient accepts.
     * @return false if the system is shutting down and refused the event.
     */
    public final <T> boolean send(final ActorRef<T> recipient, final T event)
    {
        return send(recipient.id(), event, 0, 0, 0L);
    }

    /**
     * Sends an event to any recipient once, after a delay, from outside any actor (charged to the node's own
     * account when it fires). On the node's timer wheel: no thread per timer.
     *
     * @param delay     how long from now, 0 or more.
     * @param recipient an actor or service id, local or remote.
     * @param event     the event.
     * @param type      its type id.
     * @return its handle: {@link Cancellable#cancel()} before it fires stops it.
     */
    public final Cancellable scheduleOnce(final Duration delay, final ActorId recipient, final Object event,
        final int type)
    {
        return schedule(delay, null, recipient, event, type, 0, null);
    }

    /**
     * Sends an event to any recipient at a fixed rate, from outside any actor, until cancelled: the first after
     * {@code initialDelay}, then one every {@code interval} from that first deadline (a run late by more than an
     * interval is not repeated to catch up). The same event object is sent each time.
     *
     * @param initialDelay how long to the first, 0 or more.
     * @param interval     between two, more than 0.
     * @param recipient    an actor or service id, local or remote.
     * @param event        the event.
     * @param type         its type id.
     * @return its handle: {@link Cancellable#cancel()} stops it.
     */
    public final Cancellable scheduleAtFixedRate(final Duration initialDelay, final Duration interval,
        final ActorId recipient, final Object event, final int type)
    {
        return schedule(initialDelay, Objects.requireNonNull(interval, "interval"), recipient, event, type, 0, null);
    }

    /**
     * {@link #scheduleOnce(Duration, ActorId, Object, int)} to a typed recipient.
     *
     * @param delay     how long from now, 0 or more.
     * @param recipient the recipient, local or remote.
     * @param event     the event.
     * @param <T>       what the recipient accepts.
     * @return its handle.
     */
    public final <T> Cancellable scheduleOnce(final Duration delay, final ActorRef<T> recipient, final T event)
    {
        return scheduleOnce(delay, recipient.id(), event, 0);
    }

    /**
     * {@link #scheduleOnce(Duration, ActorId, Object, int)} to this node's instance of a typed service (resolved when
     * it fires; {@code key.on(node)} names another node's).
     *
     * @param delay how long from now, 0 or more.
     * @param key   the service.
     * @param event the event.
     * @param <T>   the service's event type.
     * @return its handle.
     */
    public final <T> Cancellable scheduleOnce(final Duration delay, final ServiceKey<T> key, final T event)
    {
        return scheduleOnce(delay, key.local(), event);
    }

    /**
     * {@link #scheduleAtFixedRate(Duration, Duration, ActorId, Object, int)} to a typed recipient.
     *
     * @param initialDelay how long to the first, 0 or more.
     * @param interval     between two, more than 0.
     * @param recipient    the recipient, local or remote.
     * @param event        the event.
     * @param <T>          what the recipient accepts.
     * @return its handle.
     */
    public final <T> Cancellable scheduleAtFixedRate(final Duration initialDelay, final Duration interval,
        final ActorRef<T> recipient, final T event)
    {
        return scheduleAtFixedRate(initialDelay, interval, recipient.id(), event, 0);
    }

    /**
     * {@link #scheduleAtFixedRate(Duration, Duration, ActorId, Object, int)} to this node's instance of a typed
     * service (resolved at each send).
     *
     * @param initialDelay how long to the first, 0 or more.
     * @param interval     between two, more than 0.
     * @param key          the service.
     * @param event        the event.
     * @param <T>          the service's event type.
     * @return its handle.
     */
    public final <T> Cancellable scheduleAtFixedRate(final Duration initialDelay, final Duration interval,
        final ServiceKey<T> key, final T event)
    {
        return scheduleAtFixedRate(initialDelay, interval, key.local(), event);
    }

    /**
     * The general form of a scheduled send from outside any actor.
     *
     * @param initialDelay how long to the first send, 0 or more.
     * @param interval     null for once, else the fixed rate's interval (more than 0).
     * @param recipient    an actor or service id.
     * @param event        the event.
     * @param type         its type id.
     * @param flags        envelope flags (e.g. {@link Envelope#FLAG_TRACK_DELIVERY}: the dead-letter handler hears of
     *                     one that cannot be delivered).
     * @param cookie       a cookie whose {@link SchedulerCookie#detach()} makes the send stale, or null.
     * @return its handle.
     * @throws IllegalArgumentException if a delay is negative or the interval is not positive.
     */
    public abstract Cancellable schedule(Duration initialDelay, Duration interval, ActorId recipient, Object event,
        int type, int flags, SchedulerCookie cookie);

    /**
     * Registers an actor as this node's instance of a typed service.
     *
     * @param key   the service.
     * @param actor a local actor that accepts the service's events.
     * @param <T>   the service's event type.
     * @return the previous instance, or null.
     * @throws IllegalArgumentException if the actor is not local.
     */
    public final <T> ActorRef<T> registerService(final ServiceKey<T> key, final ActorRef<T> actor)
    {
        final ActorId previous = registerService(key.id(), actor.id());
        return previous == null ? null : ActorRef.of(previous);
    }

    /**
     * This node's instance of a typed service.
     *
     * @param key the service.
     * @param <T> the service's event type.
     * @return its ref, or null if none is registered here.
     */
    public final <T> ActorRef<T> lookupService(final ServiceKey<T> key)
    {
        final ActorId actor = lookupService(key.id());
        return actor == null ? null : ActorRef.of(actor);
    }

    /**
     * Maps a service id to a local actor. Replaces an earlier mapping of the same name.
     *
     * @param service the service id, on node 0 or this node.
     * @param actor   a local actor id (not a service id).
     * @return the previous mapping, or null.
     * @throws IllegalArgumentException if the actor is a service id, or either id names another node.
     */
    public abstract ActorId registerService(ServiceId service, ActorId actor);

    /**
     * Removes a service mapping.
     *
     * @param service the service id.
     * @return the actor it mapped to, or null if it was not mapped.
     */
    public abstract ActorId unregisterService(ServiceId service);

    /**
     * The local actor a service id maps to.
     *
     * @param service the service id, on node 0 or this node.
     * @return the actor id, or null if not mapped here (always null for a service of another node).
     */
    public abstract ActorId lookupService(ServiceId service);

    /**
     * Calls {@code listener} with the id of every actor of this system that passes away from now on, on the worker
     * thread that ran its last event, after that event. For components that keep actor ids (the service
     * directory forgets an instance whose actor is gone). The listener must be quick and must not block; what it
     * throws is counted as a handler failure and ignored.
     *
     * @param listener what to call.
     * @return closing it stops the calls.
     */
    public abstract AutoCloseable onPassAway(Consumer<ActorId> listener);

    /**
     * Stops one of this node's actors, whoever registered it: it passes away once the events queued for it before
     * this request are handled; later ones take the non-delivery path. Actors of other nodes cannot be stopped from
     * here (nor by name): such a request is refused and counted ({@link SystemCounter#STOPS_REFUSED}).
     *
     * @param actor a local actor id.
     * @return true if the request is on its way; false if the actor is gone or not local.
     */
    public abstract boolean stop(ActorId actor);

    /**
     * Whether the system accepts sends from outside (false once shutdown began).
     *
     * @return true while running.
     */
    public abstract boolean isRunning();

    /**
     * Where the system's agents and handlers hand every error, whole ({@link ActorSystemConfig#errorRecorder}); the
     * node's other agents (interconnect, media driver, client ingress) give theirs to the same recorder through an
     * {@link AgentErrorLog}.
     *
     * @return the recorder, or null when none is configured.
     */
    public abstract ErrorHandler errorRecorder();

    /**
     * Reads the counters.
     *
     * @return a snapshot.
     */
    public abstract SystemCounters counters();

    /**
     * Shuts down with the configured drain deadline.
     */
    @Override
    public abstract void close();

    /**
     * Shuts down: refuses sends from outside, stops the timer (pending timers are discarded), lets the pools
     * drain until no actor has work or the deadline passes, stops the threads, then reports every tracked
     * event still queued as a dead letter with reason {@link UndeliveredReason#SHUTDOWN} and fails pending
     * asks. Idempotent; later calls return at once.
     *
     * @param drainTimeout how long the pools may drain.
     * @return true if the pools drained and every thread exited in time.
     */
    public abstract boolean shutdown(Duration drainTimeout);

    /** The runtime's factory, found once on the class path. */
    private static final class Factory
    {
        static final ActorSystemFactory INSTANCE = load();

        private static ActorSystemFactory load()
        {
            final Iterator<ActorSystemFactory> found = ServiceLoader.load(ActorSystemFactory.class,
                ActorSystem.class.getClassLoader()).iterator();
            if (!found.hasNext())
            {
                throw new IllegalStateException("no " + ActorSystemFactory.class.getName() + " on the class path: " +
                    "the actor-runtime jar's META-INF/services entry is missing (a shaded jar must merge service " +
                    "files)");
            }
            return found.next();
        }
    }
}
