package io.troupe.bench;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.Envelope;
import io.troupe.broker.BrokerAsk;
import io.troupe.broker.Side;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code broker.overload}'s open-loop arrivals, on a plain thread: Poisson arrivals at a fixed mean rate, each
 * a {@link BrokerAsk} on {@link Side#ASK} sent to the broker on behalf of the next client actor in turn (the
 * envelope's sender is the client, so the answer goes to it). Arrival times are drawn in advance from
 * {@code startNs} (exponential gaps from a seeded {@link SplittableRandom}, so a run is repeatable); the thread
 * parks until the next one is due and, if it woke late, sends every arrival already due at once, so the mean
 * rate holds whatever the scheduling. Nothing waits for answers: the rate does not depend on the broker. Each
 * request is stamped with {@link System#nanoTime()} as it is sent.
 *
 * <p>Thread safety: {@link #run} on its own thread; {@link #sent} from any thread.
 */
final class ArrivalGenerator implements Runnable
{
    private final ActorSystem system;
    private final ActorId broker;
    private final ActorId[] clients;
    private final double meanGapNs;
    private final long startNs;
    private final long seed;
    private final AtomicBoolean running;
    private final AtomicLong sent = new AtomicLong();

    /**
     * Creates the generator.
     *
     * @param system    the actor system.
     * @param broker    the broker.
     * @param clients   the client actors the answers go to, in turn.
     * @param perSecond the mean arrival rate.
     * @param startNs   when the first arrival may be due, on {@link System#nanoTime()}.
     * @param seed      the seed of the gaps.
     * @param running   cleared to stop the loop.
     */
    ArrivalGenerator(
        final ActorSystem system,
        final ActorId broker,
        final ActorId[] clients,
        final double perSecond,
        final long startNs,
        final long seed,
        final AtomicBoolean running)
    {
        this.system = system;
        this.broker = broker;
        this.clients = clients.clone();
        this.meanGapNs = 1e9 / perSecond;
        this.startNs = startNs;
        this.seed = seed;
        this.running = running;
    }

    @Override
    public void run()
    {
        final SplittableRandom random = new SplittableRandom(seed);
        // the offset of the next arrival from startNs, kept as a double so truncating the gaps adds no bias
        double nextOffsetNs = exponentialGapNs(random);
        long ref = 0;
        int client = 0;
        while (running.get())
        {
            final long nowNs = System.nanoTime();
            long dueNs = startNs + (long)nextOffsetNs;
            while (dueNs - nowNs <= 0)
            {
                ref++;
                final BrokerAsk ask = new BrokerAsk(Side.ASK, ref, null, System.nanoTime(), false);
                ActorSystemSpi.of(system).send(
                    new Envelope(broker, clients[client], BrokerAsk.TYPE, 0, ref, ask, null));
                sent.lazySet(ref);
                client = client + 1 == clients.length ? 0 : client + 1;
                nextOffsetNs += exponentialGapNs(random);
                dueNs = startNs + (long)nextOffsetNs;
            }
            LockSupport.parkNanos(dueNs - nowNs);
        }
    }

    /**
     * Requests sent so far; any thread.
     *
     * @return the count.
     */
    long sent()
    {
        return sent.get();
    }

    private double exponentialGapNs(final SplittableRandom random)
    {
        // 1 - u is in (0, 1]: the logarithm is finite
        return -Math.log(1.0 - random.nextDouble()) * meanGapNs;
    }
}
