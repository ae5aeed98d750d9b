package io.troupe.broker;

import io.troupe.actor.ActorId;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Power of two choices by recent sojourn time (the seed's {@code sbetter}): each pick takes two different
 * brokers at random and chooses the one whose recent answers carried the shorter sojourn time. Recent sojourn
 * is a moving average (weight 1/4) of the sojourn times in the answers this balancer saw, so it works for
 * brokers on any node without extra traffic; a broker not heard from yet counts as 0, so each is tried.
 * Thread safe.
 */
public final class SojournBalancer implements Balancer
{
    private final ActorId[] brokers;
    private final AtomicLongArray recentSojournNs;
    private final Supplier<RandomGenerator> random;

    /**
     * A balancer over brokers, with the calling thread's random generator.
     *
     * @param brokers at least one broker (actor or service ids), each once.
     */
    public SojournBalancer(final List<ActorId> brokers)
    {
        this(brokers, ThreadLocalRandom::current);
    }

    /**
     * A balancer with a random source of its own (tests: a seeded generator, used from one thread).
     *
     * @param brokers at least one broker, each once.
     * @param random  the random source.
     */
    public SojournBalancer(final List<ActorId> brokers, final Supplier<RandomGenerator> random)
    {
        this.brokers = checked(brokers);
        this.recentSojournNs = new AtomicLongArray(this.brokers.length);
        this.random = random;
    }

    static ActorId[] checked(final List<ActorId> brokers)
    {
        if (brokers == null || brokers.isEmpty())
        {
            throw new IllegalArgumentException("a balancer needs at least one broker, got " + brokers);
        }
        if (brokers.stream().distinct().count() != brokers.size())
        {
            throw new IllegalArgumentException("a balancer's brokers must differ, got " + brokers);
        }
        return brokers.toArray(new ActorId[0]);
    }

    @Override
    public ActorId pick()
    {
        if (brokers.length == 1)
        {
            return brokers[0];
        }
        final RandomGenerator generator = random.get();
        final int first = generator.nextInt(brokers.length);
        final int second = (first + 1 + generator.nextInt(brokers.length - 1)) % brokers.length;
        return recentSojournNs.get(second) < recentSojournNs.get(first) ? brokers[second] : brokers[first];
    }

    @Override
    public void onAnswer(final ActorId broker, final Object answer)
    {
        final long sojournNs;
        if (answer instanceof Go go)
        {
            sojournNs = go.sojournTimeNs();
        }
        else if (answer instanceof Drop drop)
        {
            sojournNs = drop.sojournTimeNs();
        }
        else
        {
            return;
        }
        for (int i = 0; i < brokers.length; i++)
        {
            if (brokers[i].equals(broker))
            {
                final int index = i;
                recentSojournNs.getAndUpdate(index,
                    recent -> recent == 0 ? sojournNs : recent + (sojournNs - recent) / 4);
                return;
            }
        }
    }

    /**
     * The recent sojourn time of a broker, as the balancer sees it.
     *
     * @param broker one of its brokers.
     * @return nanoseconds (0 if not heard from yet, or not one of its brokers).
     */
    public long recentSojournNs(final ActorId broker)
    {
        for (int i = 0; i < brokers.length; i++)
        {
            if (brokers[i].equals(broker))
            {
                return recentSojournNs.get(i);
            }
        }
        return 0;
    }
}
