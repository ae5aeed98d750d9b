package io.troupe.actor.internal.executor;

import io.troupe.actor.LincheckBudget;
import io.troupe.actor.internal.mailbox.Mailbox;
import io.troupe.actor.internal.mailbox.SimpleMailbox;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayDeque;

import static org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt.forClasses;

/**
 * {@link LocalRunQueue} is a linearizable bounded FIFO queue for its single owner (the only thread that offers,
 * which the {@code "owner"} non-parallel group enforces) and any number of takers: the owner and thieves poll and
 * ask {@code isEmpty} from any thread. Checked against {@link Spec}, a bounded FIFO of
 * {@link LocalRunQueue#CAPACITY} entries, from an empty queue and from a queue one entry short of full, where
 * the owner's capacity check races with thieves freeing slots and the ring wraps (the owner reuses slot 0 right
 * after a thief took it).
 *
 * <p>{@code size()} is not checked: it reads head, then tail, so a poll and an offer between the two reads make it
 * report one more entry than the queue ever held; it is documented as approximate. {@code isEmpty()} is exact:
 * it returns true only if tail had not moved past the head it read, and false only if the queue held something
 * at some instant during the call.
 */
@Timeout(120)
class LocalRunQueueLincheckTest
{
    @Test
    void modelCheckingFromAnEmptyQueue()
    {
        modelChecking().sequentialSpecification(Spec.class).check(Empty.class);
    }

    @Test
    void modelCheckingNearlyFull()
    {
        modelChecking().sequentialSpecification(NearlyFullSpec.class).check(NearlyFull.class);
    }

    @Test
    void stressNearlyFull()
    {
        LincheckBudget.stress(3)
            .sequentialSpecification(NearlyFullSpec.class)
            .check(NearlyFull.class);
    }

    /**
     * Twenty scenarios of three threads with two operations each (the owner's offers all in one thread), fifty
     * interleavings of each. A budget this small still catches seeded bugs: a taker that advances head with a
     * plain store instead of a compare-and-set, an owner that fills one slot more than the capacity, a taker that
     * reads its slot after advancing head (when the owner may already have reused it).
     *
     * @return the options.
     */
    private static ModelCheckingOptions modelChecking()
    {
        return LincheckBudget.modelChecking(3)
            .addGuarantee(forClasses(LocalRunQueueLincheckTest.class.getName()).methods("prefill").ignore());
    }

    /** Entries a nearly full queue starts with: one short of its capacity. */
    static final int PREFILLED = LocalRunQueue.CAPACITY - 1;
    /** Value of the prefilled entries, above anything an operation offers. */
    static final int PREFILLED_VALUE = 1_000;

    /**
     * Offers {@code entries} copies of one mailbox (hint {@link #PREFILLED_VALUE}). Not explored by the model
     * checker (see {@link #modelChecking}): it runs on one thread before the operations, and tracking its
     * thousand memory accesses in each of thousands of runs would cost more than the runs.
     *
     * @param queue   the queue.
     * @param entries how many to offer.
     */
    static void prefill(final LocalRunQueue queue, final int entries)
    {
        // one mailbox for every entry: an entry read twice or lost shows as a wrong count of PREFILLED_VALUE results
        final Mailbox prefilled = entries == 0 ? null : new SimpleMailbox(PREFILLED_VALUE, 0);
        for (int i = 0; i < entries; i++)
        {
            if (!queue.offer(prefilled))
            {
                throw new IllegalStateException("prefill refused at " + i);
            }
        }
    }

    /**
     * The queue's operations; a mailbox stands for each entry, its hint for its value. Public, with public
     * subclass constructors: Lincheck builds a fresh instance per run by reflection.
     */
    public abstract static class Operations
    {
        private final LocalRunQueue queue = new LocalRunQueue();

        /**
         * Fills the queue, on the constructing thread, before any operation runs.
         *
         * @param entries how many to offer.
         */
        Operations(final int entries)
        {
            prefill(queue, entries);
        }

        /**
         * The owner queues a mailbox.
         *
         * @param value its hint.
         * @return false if the queue was full.
         */
        @Operation(nonParallelGroup = "owner")
        public boolean offer(@Param(gen = IntGen.class, conf = "1:99") final int value)
        {
            return queue.offer(new SimpleMailbox(value, 0));
        }

        /**
         * The owner or a thief takes the oldest mailbox.
         *
         * @return its hint, or null if the queue was empty.
         */
        @Operation
        public Integer poll()
        {
            final Mailbox mailbox = queue.poll();
            return mailbox == null ? null : mailbox.hint();
        }

        /**
         * Any thread asks whether the queue is empty.
         *
         * @return true if empty.
         */
        @Operation
        public boolean isEmpty()
        {
            return queue.isEmpty();
        }
    }

    /** From an empty queue. */
    public static final class Empty extends Operations
    {
        /** An empty queue. */
        public Empty()
        {
            super(0);
        }
    }

    /** From a queue one entry short of full. */
    public static final class NearlyFull extends Operations
    {
        /** A queue holding {@link #PREFILLED} entries. */
        public NearlyFull()
        {
            super(PREFILLED);
        }
    }

    /** The sequential specification: a FIFO that refuses offers at {@link LocalRunQueue#CAPACITY} entries. */
    public static class Spec
    {
        private final ArrayDeque<Integer> queue = new ArrayDeque<>();

        /** An empty queue. */
        public Spec()
        {
            this(0);
        }

        Spec(final int entries)
        {
            for (int i = 0; i < entries; i++)
            {
                queue.addLast(PREFILLED_VALUE);
            }
        }

        /**
         * Appends unless full.
         *
         * @param value the value.
         * @return false if full.
         */
        public boolean offer(final int value)
        {
            if (queue.size() >= LocalRunQueue.CAPACITY)
            {
                return false;
            }
            queue.addLast(value);
            return true;
        }

        /**
         * Takes the oldest.
         *
         * @return it, or null if empty.
         */
        public Integer poll()
        {
            return queue.pollFirst();
        }

        /**
         * Emptiness.
         *
         * @return true if empty.
         */
        public boolean isEmpty()
        {
            return queue.isEmpty();
        }
    }

    /** The specification from a queue holding {@link #PREFILLED} entries. */
    public static final class NearlyFullSpec extends Spec
    {
        /** A queue holding {@link #PREFILLED} entries. */
        public NearlyFullSpec()
        {
            super(PREFILLED);
        }
    }
}
