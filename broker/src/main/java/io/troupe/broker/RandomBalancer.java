package io.troupe.broker;

import io.troupe.actor.ActorId;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import java.util.function.Supplier;

/** Picks a broker uniformly at random (the seed's {@code srand}); answers teach it nothing. */
public final class RandomBalancer implements Balancer
{
    private final ActorId[] brokers;
    private final Supplier<RandomGenerator> random;

    /**
     * A balancer over brokers, with the calling thread's random generator.
     *
     * @param brokers at least one broker (actor or service ids).
     */
    public RandomBalancer(final List<ActorId> brokers)
    {
        this(brokers, ThreadLocalRandom::current);
    }

    /**
     * A balancer with a random source of its own (tests: a seeded generator, used from one thread).
     *
     * @param brokers at least one broker.
     * @param random  the random source.
     */
    public RandomBalancer(final List<ActorId> brokers, final Supplier<RandomGenerator> random)
    {
        this.brokers = SojournBalancer.checked(brokers);
        this.random = random;
    }

    @Override
    public ActorId pick()
    {
        return brokers[random.get().nextInt(brokers.length)];
    }

    @Override
    public void onAnswer(final ActorId broker, final Object answer)
    {
        // a random choice learns nothing
    }
}
