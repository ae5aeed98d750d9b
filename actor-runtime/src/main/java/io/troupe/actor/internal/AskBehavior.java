package io.troupe.actor.internal;

import io.troupe.actor.ActorSystem;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.SchedulerCookie;
import io.troupe.actor.SystemCounter;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredException;
import io.troupe.actor.UndeliveredReason;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The reply slot of a non-actor caller of {@link ActorSystem#ask}: a short-lived actor that completes the future
 * with the first event it receives (a reply, an {@link Undelivered} notice, its own timeout, or word that the
 * request could not be sent) and passes away. Whoever completes the future (this actor, or the caller when the
 * send fails, or shutdown) frees the slot in the counters, exactly once.
 */
final class AskBehavior implements Behavior
{
    private final CompletableFuture<Object> future = new CompletableFuture<>();
    private final SchedulerCookie timeoutCookie = new SchedulerCookie();
    private final ActorId target;
    private final int type;
    private final Class<?> replyType;
    private final Duration timeout;
    private final Set<AskBehavior> pending;
    private final RuntimeCounters counters;
    private final AtomicBoolean ended = new AtomicBoolean();

    AskBehavior(
        final ActorId target,
        final int type,
        final Class<?> replyType,
        final Duration timeout,
        final Set<AskBehavior> pending,
        final RuntimeCounters counters)
    {
        this.target = target;
        this.type = type;
        this.replyType = replyType;
        this.timeout = timeout;
        this.pending = pending;
        this.counters = counters;
        pending.add(this);
        counters.increment(SystemCounter.ASKS_PENDING);
    }

    CompletableFuture<Object> future()
    {
        return future;
    }

    SchedulerCookie timeoutCookie()
    {
        return timeoutCookie;
    }

    @Override
    public void receive(final ActorContext ctx, final Envelope envelope)
    {
        final Object event = envelope.event();
        final Throwable failure = ReplySlots.failureOf(event, target, replyType, timeout);
        if (end())
        {
            if (failure == null)
            {
                future.complete(event);
            }
            else
            {
                if (event == ReplySlots.TIMEOUT)
                {
                    counters.increment(SystemCounter.ASKS_TIMED_OUT);
                }
                future.completeExceptionally(failure);
            }
        }
        ctx.passAway();
    }

    /**
     * Ends the ask with a failure, unless it has ended.
     *
     * @return true if this call ended it.
     */
    boolean fail(final Throwable failure)
    {
        if (end())
        {
            future.completeExceptionally(failure);
            return true;
        }
        return false;
    }

    void failOnShutdown()
    {
        fail(new UndeliveredException(new Undelivered(target, type, 0, UndeliveredReason.SHUTDOWN, true)));
    }

    /** Frees the slot in the counters before the future completes (so whoever the future wakes sees it freed);
     * true for the one caller that ends the ask. */
    private boolean end()
    {
        if (!ended.compareAndSet(false, true))
        {
            return false;
        }
        timeoutCookie.detach();
        pending.remove(this);
        counters.decrement(SystemCounter.ASKS_PENDING);
        return true;
    }
}
