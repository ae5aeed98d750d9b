package io.troupe.broker;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ServiceId;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Starting brokers and talking to them. A broker is an actor: it is reached by its {@link ActorId} or a
 * {@link ServiceId}, on this node or another, and every call here is a message, so nothing assumes the broker
 * is local.
 *
 * <ul>
 *   <li>From a plain thread: {@link #ask} and {@link #askNow} return a future of {@link Go} or {@link Drop}.</li>
 *   <li>From an actor: {@link #ask(ActorContext, ActorId, Side, long, Object, long)} sends the request; the
 *       {@link Go} or {@link Drop} arrives later as an event with the cookie given. {@link #cancel} removes a
 *       queued request ({@link Cancelled} comes back).</li>
 *   <li>{@link #lengths} and {@link #reconfigure} from anywhere.</li>
 * </ul>
 */
public final class Brokers
{
    /** References of plain threads' asks: a random start, so two nodes' plain threads do not collide. */
    private static final AtomicLong REFS = new AtomicLong(new SecureRandom().nextLong() >>> 1);

    private Brokers()
    {
    }

    /** A reference for a plain thread's ask (to brokers and regulators alike). */
    static long nextRef()
    {
        return REFS.incrementAndGet();
    }

    /**
     * Starts a broker on its own mailbox.
     *
     * @param system the actor system.
     * @param spec   its configuration.
     * @return its id.
     */
    public static ActorId start(final ActorSystem system, final BrokerSpec spec)
    {
        return start(system, spec, SystemNanoClock.INSTANCE);
    }

    /**
     * Starts a broker with a clock of its own choosing (tests).
     *
     * @param system the actor system.
     * @param spec   its configuration.
     * @param clock  its monotonic clock; requesters on its node stamp requests with {@code System.nanoTime()}, so
     *               other clocks are for tests whose requesters stamp with the same clock.
     * @return its id.
     */
    public static ActorId start(final ActorSystem system, final BrokerSpec spec, final NanoClock clock)
    {
        return system.register(new BrokerActor(spec, clock));
    }

    /**
     * Starts a broker and registers it under a service id, so other nodes can reach it by name.
     *
     * @param system  the actor system.
     * @param service the service id (this node's id, or 0 for this node only).
     * @param spec    its configuration.
     * @return the broker's actor id.
     */
    public static ActorId start(final ActorSystem system, final ServiceId service, final BrokerSpec spec)
    {
        final ActorId broker = start(system, spec);
        system.registerService(service, broker);
        return broker;
    }

    /**
     * Asks from a plain thread: waits in the queue of {@code side} for a counterparty.
     *
     * @param system       the actor system.
     * @param broker       the broker (actor or service id).
     * @param side         which queue to join.
     * @param counterparty what the counterparty receives; null for the asker's id.
     * @param timeout      how long to wait for an answer; choose it above the longest time the queue's policy
     *                     keeps a request (a request whose asker timed out stays queued until matched or
     *                     dropped, and a match then goes to nobody).
     * @return a future of {@link Go} or {@link Drop}.
     */
    public static CompletableFuture<Object> ask(final ActorSystem system, final ActorId broker, final Side side,
        final Object counterparty, final Duration timeout)
    {
        return system.ask(broker, new BrokerAsk(side, nextRef(), counterparty, System.nanoTime(), false),
            BrokerAsk.TYPE, timeout);
    }

    /**
     * Asks from a plain thread through a balancer: the balancer picks the broker and learns from the answer.
     *
     * @param system       the actor system.
     * @param balancer     chooses among brokers (e.g. {@link SojournBalancer}).
     * @param side         which queue to join.
     * @param counterparty what the counterparty receives; null for the asker's id.
     * @param timeout      how long to wait (see {@link #ask(ActorSystem, ActorId, Side, Object, Duration)}).
     * @return a future of {@link Go} or {@link Drop}.
     */
    public static CompletableFuture<Object> ask(final ActorSystem system, final Balancer balancer, final Side side,
        final Object counterparty, final Duration timeout)
    {
        final ActorId broker = balancer.pick();
        return ask(system, broker, side, counterparty, timeout).whenComplete((answer, failure) ->
        {
            if (answer != null)
            {
                balancer.onAnswer(broker, answer);
            }
        });
    }

    /**
     * Asks from a plain thread unless a PIE protector says the request would not find a match in time: then it
     * is short-circuited, never sent, and answered {@link Drop} with a sojourn time of 0 at once.
     *
     * @param system       the actor system.
     * @param broker       the broker (actor or service id) whose {@link PieProtectorSpec} meter feeds
     *                     {@code protection}.
     * @param protection   the protector's drop probabilities.
     * @param side         which queue to join.
     * @param counterparty what the counterparty receives; null for the asker's id.
     * @param timeout      how long to wait for an answer.
     * @return a future of {@link Go} or {@link Drop}.
     */
    public static CompletableFuture<Object> ask(final ActorSystem system, final ActorId broker,
        final Protection protection, final Side side, final Object counterparty, final Duration timeout)
    {
        if (protection.shouldShortCircuit(side))
        {
            return CompletableFuture.completedFuture(new Drop(nextRef(), 0));
        }
        return ask(system, broker, side, counterparty, timeout);
    }

    /**
     * Asks without waiting in the queue: a match with a counterparty already waiting, or {@link Drop} at once.
     *
     * @param system       the actor system.
     * @param broker       the broker (actor or service id).
     * @param side         which side asks.
     * @param counterparty what the counterparty receives; null for the asker's id.
     * @param timeout      how long to wait for the answer.
     * @return a future of {@link Go} or {@link Drop}.
     */
    public static CompletableFuture<Object> askNow(final ActorSystem system, final ActorId broker, final Side side,
        final Object counterparty, final Duration timeout)
    {
        return system.ask(broker, new BrokerAsk(side, nextRef(), counterparty, System.nanoTime(), true),
            BrokerAsk.TYPE, timeout);
    }

    /**
     * A dynamic ask from a plain thread (the seed's {@code dynamic_ask}): returns at once with a handle whose
     * {@link BrokerAwait#first()} says whether a counterparty was waiting ({@link Go}) or the request waits
     * ({@link Queued}), whose {@link BrokerAwait#answer()} is the outcome, and which can be cancelled from this or any
     * thread ({@link BrokerAwait#cancel()}).
     *
     * @param system       the actor system.
     * @param broker       the broker (actor or service id).
     * @param side         which queue to join.
     * @param counterparty what the counterparty receives; null for the requester's id.
     * @param timeout      after this the request is cancelled ({@link BrokerAwait#answer()} then completes with
     *                     {@link Cancelled}, or with the answer that was already on its way).
     * @return the handle.
     */
    public static BrokerAwait dynamicAsk(final ActorSystem system, final ActorId broker, final Side side,
        final Object counterparty, final Duration timeout)
    {
        return new BrokerAwait(system, broker, side, counterparty, timeout, nextRef());
    }

    /**
     * A dynamic ask from an actor: the broker answers {@link Go} at once if a counterparty waits, otherwise
     * {@link Queued} at once and {@link Go} or {@link Drop} later, each an event carrying {@code cookie}; the actor
     * handles other events meanwhile and may {@link #cancel(ActorContext, ActorId, Side, long)} the request.
     *
     * @param ctx          the asking actor's context.
     * @param broker       the broker.
     * @param side         which queue to join.
     * @param ref          the actor's reference for the request.
     * @param counterparty what the counterparty receives; null for the actor's id.
     * @param cookie       the cookie of the answers.
     */
    public static void dynamicAsk(final ActorContext ctx, final ActorId broker, final Side side, final long ref,
        final Object counterparty, final long cookie)
    {
        ctx.send(broker, new DynamicAsk(side, ref, counterparty, System.nanoTime()), DynamicAsk.TYPE, 0, cookie);
    }

    /**
     * Asks from an actor: the answer ({@link Go} or {@link Drop}) arrives as an event carrying {@code cookie}.
     *
     * @param ctx          the asking actor's context.
     * @param broker       the broker (actor or service id).
     * @param side         which queue to join.
     * @param ref          the actor's reference for the request (to cancel it; also in the answer).
     * @param counterparty what the counterparty receives; null for the actor's id.
     * @param cookie       the cookie of the answer.
     */
    public static void ask(final ActorContext ctx, final ActorId broker, final Side side, final long ref,
        final Object counterparty, final long cookie)
    {
        ctx.send(broker, new BrokerAsk(side, ref, counterparty, System.nanoTime(), false), BrokerAsk.TYPE, 0, cookie);
    }

    /**
     * Asks from an actor without waiting in the queue: a match now, or {@link Drop} at once.
     *
     * @param ctx          the asking actor's context.
     * @param broker       the broker.
     * @param side         which side asks.
     * @param ref          the actor's reference for the request.
     * @param counterparty what the counterparty receives; null for the actor's id.
     * @param cookie       the cookie of the answer.
     */
    public static void askNow(final ActorContext ctx, final ActorId broker, final Side side, final long ref,
        final Object counterparty, final long cookie)
    {
        ctx.send(broker, new BrokerAsk(side, ref, counterparty, System.nanoTime(), true), BrokerAsk.TYPE, 0, cookie);
    }

    /**
     * Cancels a request the actor queued; {@link Cancelled} comes back.
     *
     * @param ctx    the actor's context (the same actor that asked).
     * @param broker the broker.
     * @param side   the request's side.
     * @param ref    the request's reference.
     */
    public static void cancel(final ActorContext ctx, final ActorId broker, final Side side, final long ref)
    {
        ctx.send(broker, new BrokerCancel(side, ref), BrokerCancel.TYPE, 0, ref);
    }

    /**
     * The broker's queue lengths.
     *
     * @param system  the actor system.
     * @param broker  the broker.
     * @param timeout how long to wait.
     * @return a future of {@link Lengths}.
     */
    public static CompletableFuture<Lengths> lengths(final ActorSystem system, final ActorId broker,
        final Duration timeout)
    {
        return system.ask(broker, new LengthsQuery(0), LengthsQuery.TYPE, timeout).thenApply(Lengths.class::cast);
    }

    /**
     * The broker's counters: matches, drops, cancels, alarm changes.
     *
     * @param system  the actor system.
     * @param broker  the broker.
     * @param timeout how long to wait.
     * @return a future of {@link BrokerStats}.
     */
    public static CompletableFuture<BrokerStats> stats(final ActorSystem system, final ActorId broker,
        final Duration timeout)
    {
        return system.ask(broker, new StatsQuery(0), StatsQuery.TYPE, timeout).thenApply(BrokerStats.class::cast);
    }

    /**
     * Replaces a broker's policies and meters; queued requests are kept. The broker must be on this node (a
     * spec holds code).
     *
     * @param system the actor system.
     * @param broker the broker.
     * @param spec   the new configuration.
     */
    public static void reconfigure(final ActorSystem system, final ActorId broker, final BrokerSpec spec)
    {
        system.send(broker, new Reconfigure(spec), Reconfigure.TYPE, 0, 0L);
    }
}
