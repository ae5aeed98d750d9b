package io.troupe.actor.internal;

import io.troupe.actor.ActorSystem;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.SchedulerCookie;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredException;
import io.troupe.actor.UndeliveredReason;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * A short-lived actor that stands in for a non-actor caller of {@link ActorSystem#ask}: it completes the
 * future with the first event it receives (a reply, an {@link Undelivered} notice, or its own timeout) and
 * passes away.
 */
final class AskBehavior implements Behavior
{
    static final Object TIMEOUT = new Object()
    {
        @Override
        public String toString()
        {
            return "AskTimeout";
        }
    };

    private final CompletableFuture<Object> future = new CompletableFuture<>();
    private final SchedulerCookie timeoutCookie = new SchedulerCookie();
    private final ActorId target;
    private final int type;
    private final Duration timeout;
    private final Set<AskBehavior> pending;

    AskBehavior(final ActorId target, final int type, final Duration timeout, final Set<AskBehavior> pending)
    {
        this.target = target;
        this.type = type;
        this.timeout = timeout;
        this.pending = pending;
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
        if (event == TIMEOUT)
        {
            future.completeExceptionally(new TimeoutException("no reply from " + target + " within " + timeout));
        }
        else if (event instanceof Undelivered)
        {
            future.completeExceptionally(new UndeliveredException((Undelivered)event));
        }
        else
        {
            future.complete(event);
        }
        timeoutCookie.detach();
        pending.remove(this);
        ctx.passAway();
    }

    void failOnShutdown()
    {
        timeoutCookie.detach();
        future.completeExceptionally(
            new UndeliveredException(new Undelivered(target, type, 0, UndeliveredReason.SHUTDOWN, true)));
    }
}
