package io.troupe.broker;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ServiceId;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Starting regulators and talking to them. A regulator lets at most as many requests proceed at once as its
 * valve allows: ask ({@link Go} or {@link Drop}), then {@link Done} to release the slot, or {@link Continue}
 * to keep it ({@link Go} or {@link Stop}). Every call is a message, so the regulator may be on any node.
 */
public final class Regulators
{
    private Regulators()
    {
    }

    /**
     * Starts a regulator.
     *
     * @param system the actor system.
     * @param spec   its configuration.
     * @return its id.
     */
    public static ActorId start(final ActorSystem system, final RegulatorSpec spec)
    {
        return start(system, spec, SystemNanoClock.INSTANCE);
    }

    /**
     * Starts a regulator with a clock of its own choosing (tests).
     *
     * @param system the actor system.
     * @param spec   its configuration.
     * @param clock  its monotonic clock.
     * @return its id.
     */
    public static ActorId start(final ActorSystem system, final RegulatorSpec spec, final NanoClock clock)
    {
        return system.register(new RegulatorActor(spec, clock));
    }

    /**
     * Starts a regulator and registers it under a service id.
     *
     * @param system  the actor system.
     * @param service the service id.
     * @param spec    its configuration.
     * @return the regulator's actor id.
     */
    public static ActorId start(final ActorSystem system, final ServiceId service, final RegulatorSpec spec)
    {
        final ActorId regulator = start(system, spec);
        system.registerService(service, regulator);
        return regulator;
    }

    /**
     * Asks for a slot from a plain thread. The {@link Go}'s ref is what {@link #done} needs; the slot belongs
     * to the temporary asker, so release it with {@link #done(ActorSystem, ActorId, long)}.
     *
     * @param system  the actor system.
     * @param regulator the regulator.
     * @param timeout how long to wait.
     * @return a future of {@link Go} or {@link Drop}.
     */
    public static CompletableFuture<Object> ask(final ActorSystem system, final ActorId regulator,
        final Duration timeout)
    {
        return system.ask(regulator, new BrokerAsk(Side.ASK, Brokers.nextRef(), null, System.nanoTime(), false),
            BrokerAsk.TYPE, timeout);
    }

    /**
     * Asks for a slot from an actor: {@link Go} or {@link Drop} arrives with {@code cookie}.
     *
     * @param ctx       the actor's context.
     * @param regulator the regulator.
     * @param ref       the actor's reference for the request (and later the slot).
     * @param cookie    the cookie of the answer.
     */
    public static void ask(final ActorContext ctx, final ActorId regulator, final long ref, final long cookie)
    {
        ctx.send(regulator, new BrokerAsk(Side.ASK, ref, null, System.nanoTime(), false), BrokerAsk.TYPE, 0, cookie);
    }

    /**
     * Releases a slot held by the actor.
     *
     * @param ctx       the actor's context (the actor that asked).
     * @param regulator the regulator.
     * @param ref       the reference of the request that got {@link Go}.
     */
    public static void done(final ActorContext ctx, final ActorId regulator, final long ref)
    {
        ctx.send(regulator, new Done(ref), Done.TYPE, 0, ref);
    }

    /**
     * Releases a slot taken with {@link #ask(ActorSystem, ActorId, Duration)}. Slots of a plain thread's asks
     * are held by the system's temporary asker, so this releases by reference alone from the system's
     * external sender.
     *
     * @param system    the actor system.
     * @param regulator the regulator.
     * @param ref       the {@link Go}'s reference.
     */
    public static void done(final ActorSystem system, final ActorId regulator, final long ref)
    {
        system.send(regulator, new Done(ref), Done.TYPE, 0, ref);
    }

    /**
     * Asks to keep a slot: {@link Go} or {@link Stop} arrives with {@code cookie}.
     *
     * @param ctx       the actor's context.
     * @param regulator the regulator.
     * @param ref       the slot's reference.
     * @param cookie    the cookie of the answer.
     */
    public static void keep(final ActorContext ctx, final ActorId regulator, final long ref, final long cookie)
    {
        ctx.send(regulator, new Continue(ref), Continue.TYPE, 0, cookie);
    }
}
