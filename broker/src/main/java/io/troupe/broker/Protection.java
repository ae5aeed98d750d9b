package io.troupe.broker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * The short-circuit probabilities of one broker, one per {@link Side}: clients consult it <em>before</em>
 * sending a request, and give up at once (as if dropped, with a sojourn time of 0) instead of sending one the
 * broker would likely drop late. A {@link PieProtector} on the broker's thread writes them; any thread reads
 * them.
 *
 * <p>The caller creates the protection and passes it to {@link PieProtectorSpec}, then hands the same object
 * to the broker's clients: it outlives meters, so replacing the broker's meters keeps the clients' reference
 * valid (the new meter starts by publishing 0 for both sides). Use one protection per broker and one
 * protector meter per protection: two writers would overwrite each other.
 *
 * <p>Thread safety: single writer (the meter, which writes only when a value changes), any number of readers.
 * Each probability is a self-contained value that no other memory depends on, so it is written and read with
 * opaque access: a reader sees every new value eventually, without fences on either side.
 */
public final class Protection
{
    private static final VarHandle ASK_PROBABILITY;
    private static final VarHandle ASK_R_PROBABILITY;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            ASK_PROBABILITY = lookup.findVarHandle(Protection.class, "askProbability", double.class);
            ASK_R_PROBABILITY = lookup.findVarHandle(Protection.class, "askRProbability", double.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private double askProbability;
    private double askRProbability;
    private final LongAdder[] shortCircuited = {
        new LongAdder(), new LongAdder()};

    /**
     * A protection that short-circuits nothing until a meter publishes.
     */
    public Protection()
    {
    }

    /**
     * The probability that a request on a side is short-circuited now.
     *
     * @param side the queue the request would join.
     * @return a probability in [0, 1].
     */
    public double probability(final Side side)
    {
        return side == Side.ASK ? (double)ASK_PROBABILITY.getOpaque(this) : (double)ASK_R_PROBABILITY.getOpaque(this);
    }

    /**
     * Whether a request should give up before it is sent, given a random number the caller drew.
     *
     * @param side   the queue the request would join.
     * @param random uniformly distributed in [0, 1), e.g. {@code ThreadLocalRandom.current().nextDouble()}.
     * @return true to short-circuit: don't send, treat as dropped. Always true at probability 1, never at 0.
     */
    public boolean shouldShortCircuit(final Side side, final double random)
    {
        return random < probability(side);
    }

    /**
     * Whether a request should give up before it is sent, drawing from {@link ThreadLocalRandom} only when the
     * answer is not certain.
     *
     * @param side the queue the request would join.
     * @return true to short-circuit: don't send, treat as dropped.
     */
    public boolean shouldShortCircuit(final Side side)
    {
        final double probability = probability(side);
        final boolean shortCircuit = probability >= 1.0 ||
            (probability > 0.0 && ThreadLocalRandom.current().nextDouble() < probability);
        if (shortCircuit)
        {
            shortCircuited[side.ordinal()].increment();
        }
        return shortCircuit;
    }

    /**
     * Requests short-circuited so far by {@link #shouldShortCircuit(Side)} on a side.
     *
     * @param side the side.
     * @return the count.
     */
    public long shortCircuited(final Side side)
    {
        return shortCircuited[side.ordinal()].sum();
    }

    /**
     * Publishes a side's probability. Meter (broker thread) only.
     *
     * @param side        the side.
     * @param probability in [0, 1].
     */
    void publish(final Side side, final double probability)
    {
        if (side == Side.ASK)
        {
            ASK_PROBABILITY.setOpaque(this, probability);
        }
        else
        {
            ASK_R_PROBABILITY.setOpaque(this, probability);
        }
    }

    @Override
    public String toString()
    {
        return "Protection{ask=" + probability(Side.ASK) + ", askR=" + probability(Side.ASK_R) + '}';
    }
}
