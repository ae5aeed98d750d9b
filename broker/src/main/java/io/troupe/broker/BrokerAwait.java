package io.troupe.broker;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A plain thread's {@link DynamicAsk} ({@link Brokers#dynamicAsk(ActorSystem, ActorId, Side, Object, Duration)}): a
 * handle the caller can look at, wait on or cancel, from any thread, without blocking anything.
 * <ul>
 *   <li>{@link #first()}: the broker's first answer, {@link Go} if a counterparty was waiting (a match at once),
 *       {@link Queued} if the request waits, or {@link Drop} if its queue refused it;</li>
 *   <li>{@link #answer()}: the outcome, {@link Go} or {@link Drop}, or {@link Cancelled} (found) if it was cancelled
 *       before either;</li>
 *   <li>{@link #cancel()}: takes the request out of the queue from outside any actor. If its {@link Go} or
 *       {@link Drop} was already on its way, the cancel finds nothing ({@code Cancelled(ref, false)}) and
 *       {@link #answer()} completes with that answer: a match is never lost.</li>
 * </ul>
 * After the timeout the request is cancelled the same way. The request's requester is a short-lived actor of the
 * handle's own, which passes away once the outcome and every cancel's answer are in.
 */
public final class BrokerAwait
{
    private final ActorSystem system;
    private final long ref;
    private final CompletableFuture<Object> first = new CompletableFuture<>();
    private final CompletableFuture<Object> answer = new CompletableFuture<>();
    private final ActorId requester;

    /** A cancel asked for by the caller or the timeout. */
    private record CancelRequest(CompletableFuture<Cancelled> done)
    {
    }

    private static final Object START = new Object();

    BrokerAwait(final ActorSystem system, final ActorId broker, final Side side, final Object counterparty,
        final Duration timeout, final long ref)
    {
        this.system = system;
        this.ref = ref;
        this.requester = system.register(new Requester(broker, side, counterparty));
        system.send(requester, START);
        // the timeout cancels like a caller would; a timer of the requester's own would outlive it as a dead letter
        CompletableFuture.delayedExecutor(timeout.toNanos(), TimeUnit.NANOSECONDS)
            .execute(this::cancel);
    }

    /**
     * The request's reference (in every answer).
     *
     * @return the ref.
     */
    public long ref()
    {
        return ref;
    }

    /**
     * The broker's first answer.
     *
     * @return a future of {@link Go} (matched at once), {@link Queued} (waiting) or {@link Drop}.
     */
    public CompletableFuture<Object> first()
    {
        return first;
    }

    /**
     * The outcome.
     *
     * @return a future of {@link Go}, {@link Drop}, or {@link Cancelled} with {@code found} true.
     */
    public CompletableFuture<Object> answer()
    {
        return answer;
    }

    /**
     * Takes the request out of the broker's queue.
     *
     * @return a future of the broker's {@link Cancelled}: found (the request will get no {@link Go} or {@link Drop};
     *         {@link #answer()} completes with this {@code Cancelled}) or not (it had its answer already).
     */
    public CompletableFuture<Cancelled> cancel()
    {
        final CompletableFuture<Cancelled> done = new CompletableFuture<>();
        if (answer.isDone())
        {
            done.complete(new Cancelled(ref, false));
        }
        else if (!system.send(requester, new CancelRequest(done)))
        {
            done.completeExceptionally(new IllegalStateException("the actor system is shutting down"));
        }
        return done;
    }

    /** The request's requester: sends the ask, takes the answers, sends the cancels. */
    private final class Requester implements Behavior
    {
        private final ActorId broker;
        private final Side side;
        private final Object counterparty;
        private final List<CompletableFuture<Cancelled>> cancels = new ArrayList<>();
        private int cancelsOut;

        Requester(final ActorId broker, final Side side, final Object counterparty)
        {
            this.broker = broker;
            this.side = side;
            this.counterparty = counterparty;
        }

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            final Object event = envelope.event();
            if (event == START)
            {
                ctx.send(broker, new DynamicAsk(side, ref, counterparty, System.nanoTime()), DynamicAsk.TYPE,
                    Envelope.FLAG_TRACK_DELIVERY, ref);
            }
            else if (event instanceof Queued)
            {
                first.complete(event);
            }
            else if (event instanceof Go || event instanceof Drop)
            {
                first.complete(event);
                answer.complete(event);
            }
            else if (event instanceof CancelRequest cancel)
            {
                onCancelRequest(ctx, cancel);
            }
            else if (event instanceof Cancelled cancelled)
            {
                cancelsOut--;
                if (cancelled.found())
                {
                    first.complete(cancelled);
                    answer.complete(cancelled);
                }
                for (final CompletableFuture<Cancelled> done : cancels)
                {
                    done.complete(cancelled);
                }
                cancels.clear();
            }
            else if (event instanceof Undelivered undelivered)
            {
                final UndeliveredException failure = new UndeliveredException(undelivered);
                first.completeExceptionally(failure);
                answer.completeExceptionally(failure);
                cancels.forEach(done -> done.completeExceptionally(failure));
                cancels.clear();
                cancelsOut = 0;
            }
            if (answer.isDone() && cancelsOut == 0)
            {
                cancels.forEach(done -> done.complete(new Cancelled(ref, false)));
                ctx.passAway();
            }
        }

        private void onCancelRequest(final ActorContext ctx, final CancelRequest cancel)
        {
            if (answer.isDone())
            {
                cancel.done().complete(new Cancelled(ref, false));
                return;
            }
            cancels.add(cancel.done());
            cancelsOut++;
            ctx.send(broker, new BrokerCancel(side, ref), BrokerCancel.TYPE, 0, ref);
        }
    }
}
