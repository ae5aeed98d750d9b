package io.troupe.bench.pekko;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One published count per actor, each in a cache line of its own: an actor counts the messages it handles in
 * its own field and publishes the running total here with an opaque store (no fence, no read-modify-write); the
 * driver sums the slots at the window's edges. Pekko has no system-wide handled counter such as Troupe's
 * {@code eventsHandled()}; this is the cheapest equivalent.
 *
 * <p>Thread safety: each slot has one writer, the actor that owns it; any thread may read.
 */
final class HandledCounters
{
    /** Longs between two slots: 128 bytes, so two actors on different threads never share a cache line. */
    private static final int STRIDE = 16;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] slots;
    private final int count;

    /**
     * Creates the counters, all 0.
     *
     * @param count the number of slots (actors).
     */
    HandledCounters(final int count)
    {
        this.count = count;
        this.slots = new long[(count + 1) * STRIDE];
    }

    /**
     * Publishes an actor's running total. Only the slot's owner calls this.
     *
     * @param slot  the actor's slot, 0..count-1.
     * @param total messages it has handled so far.
     */
    void publish(final int slot, final long total)
    {
        SLOT.setOpaque(slots, (slot + 1) * STRIDE, total);
    }

    /**
     * The sum of all published totals.
     *
     * @return messages handled so far by all actors, as far as published.
     */
    long sum()
    {
        long sum = 0;
        for (int i = 1; i <= count; i++)
        {
            sum += (long)SLOT.getOpaque(slots, i * STRIDE);
        }
        return sum;
    }
}
