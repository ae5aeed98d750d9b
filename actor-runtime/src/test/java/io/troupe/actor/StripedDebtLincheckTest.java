package io.troupe.actor;

import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Model check of {@link StripedDebt}, the per-thread striped sum under a credit account's debt, for what it
 * promises rather than for linearizability, which it does not offer: {@link StripedDebt#sum} reads the cells one
 * by one, so while two threads add and a third sums it can count a later add of one thread and miss an earlier
 * add of the other, a total the debt never had (Lincheck shows this at once when asked for linearizability:
 * thread 2 adds 1, then thread 3 adds -1, and a sum that passed thread 2's cell before its add returns -1).
 *
 * <p>What is checked, on scenarios of three threads adding and summing, with threads racing to create the table
 * and claim their first cells:
 * <ul>
 *   <li>While adds are under way, a sum counts every add that finished before the sum began, none that began
 *   after it returned, and of each thread's adds a prefix (a cell is a running total written by its owner).
 *   Each add is a distinct bit, so a sum tells exactly which adds it counted; each thread publishes how many of
 *   its adds it has started and finished, which a sum reads before (finished) and after (started).</li>
 *   <li>Quiescent exactness (the validation, once all operations are over): the sum is exactly what was added,
 *   and nothing went through the overflow (every live thread finds a cell of its own).</li>
 * </ul>
 */
@Timeout(120)
class StripedDebtLincheckTest
{
    private static final int THREADS = 3;
    /** Logical threads as ThreadIdGen numbers them: 0 for the initial part, 1 to 3 the threads, 4 the post part. */
    private static final int THREAD_IDS = THREADS + 2;
    /** Adds a logical thread may make: each is its own bit. */
    private static final int BITS_PER_THREAD = 8;

    @Test
    void sumsDuringAddsCountWhatFinishedAndOnceQuietTheyAreExact()
    {
        LincheckBudget.modelChecking(THREADS)
            // the model checker switches threads after this many iterations of a loop, taking it for a spin;
            // a sum loops over all the slots, and must also be explored running through without a switch.
            // With this budget the check catches seeded bugs: a cell that publishes an intermediate value, a
            // claim that replaces the table (losing the cells of others).
            .loopIterationsBeforeThreadSwitch(StripedDebt.SLOTS + 8)
            .check(Operations.class);
    }

    /**
     * Adds and sums from every thread, checking each sum as it returns; the validation reports what a sum got
     * wrong and checks the final sum. Public, as is its constructor: Lincheck builds a fresh instance per run.
     */
    public static final class Operations
    {
        private final StripedDebt debt = new StripedDebt();
        /** Adds started and finished, by logical thread; each is written by its own thread only. */
        private final AtomicIntegerArray started = new AtomicIntegerArray(THREAD_IDS);
        private final AtomicIntegerArray finished = new AtomicIntegerArray(THREAD_IDS);
        /** What the operations added, kept apart from the structure under test. */
        private final AtomicLong added = new AtomicLong();
        /** The first wrong sum seen, or null. */
        private volatile String wrongSum;

        /** A fresh, empty sum. */
        public Operations()
        {
        }

        /**
         * Adds the thread's next bit: the k-th add of logical thread t adds {@code 1 << (t * 8 + k)}.
         *
         * @param thread the logical thread.
         */
        @Operation
        public void add(@Param(gen = ThreadIdGen.class) final int thread)
        {
            final int k = started.get(thread);
            final long bit = 1L << (thread * BITS_PER_THREAD + k);
            started.set(thread, k + 1);
            debt.add(bit);
            finished.set(thread, k + 1);
            added.addAndGet(bit);
        }

        /**
         * Sums, and checks the sum against the progress the adding threads published around it.
         *
         * @param thread the logical thread (unused: any thread may sum).
         */
        @Operation
        public void sum(@Param(gen = ThreadIdGen.class) final int thread)
        {
            final int[] finishedBefore = new int[THREAD_IDS];
            for (int t = 0; t < THREAD_IDS; t++)
            {
                finishedBefore[t] = finished.get(t);
            }
            final long sum = debt.sum();
            if (sum >>> (THREAD_IDS * BITS_PER_THREAD) != 0 && wrongSum == null)
            {
                wrongSum = "sum " + Long.toHexString(sum) + " counts bits no add set";
            }
            for (int t = 0; t < THREAD_IDS; t++)
            {
                final int startedAfter = started.get(t);
                final long part = (sum >>> (t * BITS_PER_THREAD)) & ((1L << BITS_PER_THREAD) - 1);
                final int counted = Long.bitCount(part);
                final boolean prefix = part == (1L << counted) - 1;
                if ((!prefix || counted < finishedBefore[t] || counted > startedAfter) && wrongSum == null)
                {
                    wrongSum = "sum " + Long.toHexString(sum) + " counts adds " + Long.toBinaryString(part) +
                        " of thread " + t + ", of which " + finishedBefore[t] + " had finished before it began and " +
                        startedAfter + " had begun when it returned";
                }
            }
        }

        /** Once all operations are over: no sum was wrong, and the sum is exact, none of it in the overflow. */
        @Validate
        public void sumsWereRightAndTheFinalOneIsExact()
        {
            if (wrongSum != null)
            {
                throw new AssertionError(wrongSum);
            }
            if (debt.sum() != added.get())
            {
                throw new AssertionError("sum " + debt.sum() + " after adds of " + added.get());
            }
            if (debt.overflowSum() != 0)
            {
                throw new AssertionError("a live thread added " + debt.overflowSum() + " through the overflow");
            }
        }
    }
}
