package io.troupe.actor.internal;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.MailboxType;
import io.troupe.actor.SystemCounter;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredException;
import io.troupe.actor.UndeliveredReason;
import io.troupe.actor.internal.scheduler.TimerAgent;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Asks from outside any actor: each gets a reply slot (a short-lived actor, {@link AskBehavior}) and a timeout on
 * the timer, and is remembered until it ends so that shutdown can fail the ones still pending. Safe from any
 * thread.
 */
final class Asks
{
    private final ActorRegistry registry;
    private final Router router;
    private final TimerAgent timer;
    private final RuntimeCounters counters;
    private final Consumer<Envelope> chargeUncharged;
    private final Set<AskBehavior> pending = ConcurrentHashMap.newKeySet();

    /**
     * @param chargeUncharged charges a request from outside any actor as any such send is charged.
     */
    Asks(
        final ActorRegistry registry,
        final Router router,
        final TimerAgent timer,
        final RuntimeCounters counters,
        final Consumer<Envelope> chargeUncharged)
    {
        this.registry = registry;
        this.router = router;
        this.timer = timer;
        this.counters = counters;
        this.chargeUncharged = chargeUncharged;
    }

    /**
     * Sends the request made for a fresh reply slot, tracked, and returns the first event sent back to the slot.
     *
     * @param recipient an actor or service id.
     * @param request   makes the request from the reply slot's id.
     * @param type      the request's type id.
     * @param replyType the type a reply must have (else the future fails).
     * @param timeout   how long to wait; positive.
     * @return the future of the reply; failed at once if the system is not running.
     */
    CompletableFuture<Object> ask(
        final ActorId recipient,
        final Function<ActorId, Object> request,
        final int type,
        final Class<?> replyType,
        final Duration timeout)
    {
        if (router.phase() != Router.RUNNING)
        {
            counters.increment(SystemCounter.REJECTED_SENDS);
            return CompletableFuture.failedFuture(new UndeliveredException(
                new Undelivered(recipient, type, 0, UndeliveredReason.SHUTDOWN, false)));
        }
        final AskBehavior asker = new AskBehavior(recipient, type, replyType, timeout, pending, counters);
        final ActorId askerId;
        try
        {
            askerId = registry.register(asker, 0, MailboxType.SIMPLE, null, true, null);
        }
        catch (final RuntimeException ex)
        {
            asker.fail(ex);
            return asker.future();
        }
        timer.schedule(
            timeout.toNanos(), new Envelope(askerId, askerId, 0, 0, 0L, ReplySlots.TIMEOUT, null),
            asker.timeoutCookie());
        try
        {
            final Envelope envelope = new Envelope(
                recipient, askerId, type, Envelope.FLAG_TRACK_DELIVERY, 0L, request.apply(askerId), null);
            chargeUncharged.accept(envelope);
            router.route(envelope, null);
        }
        catch (final RuntimeException ex)
        {
            // the request never left: end the ask, let its slot pass away, and tell the caller as a send would
            asker.fail(ex);
            router.route(new Envelope(askerId, ActorId.NONE, 0, 0, 0L, new ReplySlots.SendFailed(ex), null), null);
            throw ex;
        }
        return asker.future();
    }

    /** Fails every ask still pending: the system has shut down. */
    void failPendingOnShutdown()
    {
        for (final AskBehavior asker : pending)
        {
            asker.failOnShutdown();
        }
        pending.clear();
    }

    static void checkTimeout(final Duration timeout)
    {
        if (timeout == null || timeout.isNegative() || timeout.isZero())
        {
            throw new IllegalArgumentException("ask timeout must be positive: " + timeout);
        }
    }
}
