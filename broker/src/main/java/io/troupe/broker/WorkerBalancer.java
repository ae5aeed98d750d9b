package io.troupe.broker;

import io.troupe.actor.ActorId;
import io.troupe.actor.ExecutorWorkers;

import java.util.List;
import java.util.function.IntSupplier;

/**
 * Picks a broker by the caller's scheduler (the seed's {@code sscheduler}, which uses Erlang's scheduler id): every
 * request made on one executor worker goes to the same broker, so that requests of actors that share a worker share
 * a broker (and its cache lines), and the brokers split the load the way the workers do. A caller on a thread that
 * is no executor worker (a plain thread) is placed by its thread id. Learns nothing from answers; combine it with
 * several brokers of one pool per worker. Thread safe, allocation free.
 */
public final class WorkerBalancer implements Balancer
{
    private final ActorId[] brokers;
    private final IntSupplier worker;

    /**
     * A balancer over brokers by the calling thread's executor worker ({@link ExecutorWorkers#current()}).
     *
     * @param brokers at least one broker, each once.
     */
    public WorkerBalancer(final List<ActorId> brokers)
    {
        this(brokers, ExecutorWorkers::current);
    }

    /**
     * A balancer with the worker id from elsewhere (tests).
     *
     * @param brokers at least one broker, each once.
     * @param worker  the caller's worker id, or -1 for none.
     */
    public WorkerBalancer(final List<ActorId> brokers, final IntSupplier worker)
    {
        this.brokers = SojournBalancer.checked(brokers);
        this.worker = worker;
    }

    @Override
    public ActorId pick()
    {
        final int id = worker.getAsInt();
        final long key = id >= 0 ? ((id >>> 16) * 31L + (id & 0xFFFF)) : Thread.currentThread().getId();
        return brokers[(int)Math.floorMod(key, (long)brokers.length)];
    }

    @Override
    public void onAnswer(final ActorId broker, final Object answer)
    {
        // the caller's worker decides; answers change nothing
    }
}
