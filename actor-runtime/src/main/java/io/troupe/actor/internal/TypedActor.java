package io.troupe.actor.internal;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorRef;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.Behavior;
import io.troupe.actor.Cancellable;
import io.troupe.actor.Envelope;
import io.troupe.actor.SystemCounter;
import io.troupe.actor.TypedBehavior;
import io.troupe.actor.TypedContext;
import io.troupe.actor.TypedTimers;

import java.time.Duration;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A typed actor as the runtime sees it: an untyped {@link Behavior} that checks each event against the actor's
 * type and hands it to the current {@link TypedBehavior}, and the actor's {@link TypedContext}, rebound to the
 * worker's context for each event. One object per actor, so handling an event allocates nothing; it is used by
 * one thread at a time, the one running the actor's mailbox.
 *
 * @param <T> the actor's event type.
 */
final class TypedActor<T> implements Behavior, TypedContext<T>
{
    private final Class<T> eventType;
    private final LocalActorSystem system;
    private TypedBehavior<T> behavior;
    private ActorRef<T> self;
    private ContextImpl ctx;
    private TypedTimers<T> typedTimers;

    TypedActor(final Class<T> eventType, final TypedBehavior<T> behavior, final LocalActorSystem system)
    {
        this.eventType = Objects.requireNonNull(eventType, "eventType");
        this.behavior = Objects.requireNonNull(behavior, "behavior");
        this.system = system;
    }

    /** The class of the behaviour now in charge: the actor's type for per-type metrics. */
    Class<?> behaviorClass()
    {
        return behavior.getClass();
    }

    @Override
    @SuppressWarnings("unchecked") // checked by eventType.isInstance just before
    public void receive(final ActorContext context, final Envelope envelope)
    {
        ctx = (ContextImpl)context;
        final Object event = envelope.event();
        if (eventType.isInstance(event))
        {
            behavior.receive(this, (T)event);
        }
        else if (!behavior.receiveSignal(this, event))
        {
            // a Poison too: only the actor decides to die (its parent or its system may stop it)
            system.runtimeCounters().increment(SystemCounter.UNHANDLED_EVENTS);
        }
    }

    @Override
    public ActorRef<T> self()
    {
        ActorRef<T> ref = self;
        if (ref == null)
        {
            ref = ActorRef.of(ctx.self());
            self = ref;
        }
        return ref;
    }

    @Override
    public ActorSystem system()
    {
        return system;
    }

    @Override
    public Envelope envelope()
    {
        return ctx.envelope();
    }

    @Override
    public <U> void send(final ActorRef<U> recipient, final U event)
    {
        ctx.send(recipient.id(), event, 0, 0, 0L);
    }

    @Override
    public <U> void sendTracked(final ActorRef<U> recipient, final U event, final long cookie)
    {
        ctx.send(recipient.id(), event, 0, Envelope.FLAG_TRACK_DELIVERY, cookie);
    }

    @Override
    public <Q, R> void ask(
        final ActorRef<Q> target,
        final Function<ActorRef<R>, ? extends Q> request,
        final Class<R> replyType,
        final Duration timeout,
        final BiFunction<? super R, Throwable, ? extends T> adapt)
    {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(replyType, "replyType");
        Objects.requireNonNull(adapt, "adapt");
        Asks.checkTimeout(timeout);
        final ActorId asker = ctx.self();
        final ActorAsk<R> slot = new ActorAsk<>(asker, target.id(), replyType, timeout, adapt,
            system.runtimeCounters());
        final ActorId slotId = ctx.registerReplySlot(slot);
        system.scheduleTimer(timeout.toNanos(),
            new Envelope(slotId, slotId, 0, 0, 0L, ReplySlots.TIMEOUT, null), slot.timeoutCookie());
        try
        {
            ctx.sendAs(slotId, target.id(), request.apply(ActorRef.of(slotId)), Envelope.FLAG_TRACK_DELIVERY);
        }
        catch (final RuntimeException ex)
        {
            // the request never left: the slot passes away on its turn without an outcome (the asker hears of
            // the failure now, as from a send)
            slot.cancel();
            ctx.send(slotId, new ReplySlots.SendFailed(ex), 0, 0, 0L);
            throw ex;
        }
    }

    @Override
    public void become(final TypedBehavior<T> next)
    {
        behavior = Objects.requireNonNull(next, "behavior");
    }

    @Override
    public <U> ActorRef<U> spawn(final Class<U> type, final TypedBehavior<U> next)
    {
        return ctx.spawn(type, next);
    }

    @Override
    public void schedule(final Duration delay, final T event)
    {
        ctx.schedule(delay, event);
    }

    @Override
    public void watch(final ActorRef<?> target)
    {
        ctx.watch(target.id());
    }

    @Override
    public void unwatch(final ActorRef<?> target)
    {
        ctx.unwatch(target.id());
    }

    @Override
    public boolean stop(final ActorRef<?> child)
    {
        return ctx.stop(child.id());
    }

    @Override
    public TypedTimers<T> timers()
    {
        TypedTimers<T> timers = typedTimers;
        if (timers == null)
        {
            timers = new TypedTimersOf<>(ctx.timers());
            typedTimers = timers;
        }
        return timers;
    }

    @Override
    public <U> Cancellable scheduleOnce(final Duration delay, final ActorRef<U> recipient, final U event)
    {
        return ctx.scheduleOnce(delay, recipient.id(), event, 0);
    }

    @Override
    public <U> Cancellable scheduleAtFixedRate(final Duration initialDelay, final Duration interval,
        final ActorRef<U> recipient, final U event)
    {
        return ctx.scheduleAtFixedRate(initialDelay, interval, recipient.id(), event, 0);
    }

    @Override
    public void passAway()
    {
        ctx.passAway();
    }

    @Override
    public ActorContext untyped()
    {
        return ctx;
    }

    @Override
    public String toString()
    {
        return "TypedActor{" + eventType.getName() + ", " + behavior + '}';
    }
}
