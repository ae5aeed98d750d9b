package io.troupe.actor.internal;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.SchedulerCookie;
import io.troupe.actor.SystemCounter;
import io.troupe.actor.TypedContext;
import io.troupe.actor.Undelivered;

import java.time.Duration;
import java.util.function.BiFunction;

/**
 * The reply slot of an actor's {@link TypedContext#ask}: an actor on the asker's own mailbox (so it runs in the
 * asker's turns, never beside it) that takes the first outcome of the ask (a reply, an {@link Undelivered}
 * notice, or its timeout), adapts it into an event of the asker's type, sends that to the asker, and passes
 * away. When the request cannot be sent the asker hears of it from the exception, and the slot just passes away.
 *
 * @param <R> the reply type.
 */
final class ActorAsk<R> implements Behavior
{
    private final SchedulerCookie timeoutCookie = new SchedulerCookie();
    private final ActorId asker;
    private final ActorId target;
    private final Class<R> replyType;
    private final Duration timeout;
    private final BiFunction<? super R, Throwable, ?> adapt;
    private final RuntimeCounters counters;
    private boolean cancelled;

    ActorAsk(
        final ActorId asker,
        final ActorId target,
        final Class<R> replyType,
        final Duration timeout,
        final BiFunction<? super R, Throwable, ?> adapt,
        final RuntimeCounters counters)
    {
        this.asker = asker;
        this.target = target;
        this.replyType = replyType;
        this.timeout = timeout;
        this.adapt = adapt;
        this.counters = counters;
        counters.increment(SystemCounter.ASKS_PENDING);
    }

    SchedulerCookie timeoutCookie()
    {
        return timeoutCookie;
    }

    /** The request could not be sent, and the asker was told by the exception: free the slot, no outcome. */
    void cancel()
    {
        cancelled = true;
        timeoutCookie.detach();
        counters.decrement(SystemCounter.ASKS_PENDING);
    }

    @Override
    public void receive(final ActorContext ctx, final Envelope envelope)
    {
        ctx.passAway();
        if (cancelled)
        {
            return;
        }
        timeoutCookie.detach();
        counters.decrement(SystemCounter.ASKS_PENDING);
        final Object event = envelope.event();
        final Throwable failure = ReplySlots.failureOf(event, target, replyType, timeout);
        if (event == ReplySlots.TIMEOUT)
        {
            counters.increment(SystemCounter.ASKS_TIMED_OUT);
        }
        final Object outcome = failure == null ? adapt.apply(replyType.cast(event), null) : adapt.apply(null, failure);
        if (outcome != null)
        {
            ctx.send(asker, outcome);
        }
    }

    @Override
    public String toString()
    {
        return "ActorAsk{asker=" + asker + ", target=" + target + ", reply=" + replyType.getName() + '}';
    }
}
