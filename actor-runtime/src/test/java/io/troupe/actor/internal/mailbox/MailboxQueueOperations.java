package io.troupe.actor.internal.mailbox;

import io.troupe.actor.LincheckBudget;
import io.troupe.actor.QueueLink;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;

import java.util.ArrayDeque;

/**
 * The queue side of a mailbox as Lincheck operations: any thread pushes; one thread at a time (the worker running
 * the mailbox) polls and asks {@link Mailbox#hasPending()}, which the {@code "reader"} non-parallel group
 * enforces. Checked for linearizability against {@link Spec}, a plain FIFO queue.
 *
 * <p>What the reader operation does on a null poll is the contract, not a test convenience. Both mailboxes
 * are lock-free, not wait-free: a sender preempted between claiming its place (the tail exchange, the slot
 * index) and publishing its node hides itself and everything queued behind it, so {@link Mailbox#poll()}
 * returns null while {@link Mailbox#hasPending()} is true. The runtime treats that as "not yet" (the worker
 * re-checks {@code hasPending} after marking the mailbox idle and runs it again), so {@link #poll()} here
 * retries while {@code hasPending} says a send is in flight, and is marked {@code blocking}: it may wait for a
 * preempted sender. A null result means the reader saw nothing pending, a linearizable "empty".
 *
 * <p>Public, as are its subclasses' constructors: Lincheck builds a fresh instance per run by reflection and
 * calls the operations from generated code.
 */
public abstract class MailboxQueueOperations
{
    private final Mailbox mailbox;

    /**
     * Wraps a mailbox; a subclass may move it to an interesting start state first.
     *
     * @param mailbox the mailbox under test, empty.
     */
    protected MailboxQueueOperations(final Mailbox mailbox)
    {
        this.mailbox = mailbox;
    }

    /**
     * The model checker's settings for a mailbox: twenty scenarios of three threads with two operations each (the
     * reader's all in one thread), fifty interleavings of each, checked against {@link Spec}. A budget this small
     * still catches seeded bugs: a tail exchange split into a read and a write, {@code hasPending} blind to a
     * sender between its exchange and its link, a slot claim split into a read and a write, a sender overtaken by
     * the segment hint that does not fall back to the reader's segment.
     *
     * @return the options.
     */
    static ModelCheckingOptions modelChecking()
    {
        return LincheckBudget.modelChecking(3)
            .sequentialSpecification(Spec.class);
    }

    /**
     * The same scenarios run on real threads, without the model checker: the only run that exercises the
     * hardware's memory ordering rather than sequentially consistent interleavings.
     *
     * @return the options.
     */
    static StressOptions stress()
    {
        return LincheckBudget.stress(3)
            .sequentialSpecification(Spec.class);
    }

    /**
     * Pushes and polls {@code count} nodes on one thread, before any operation runs, so that the operations
     * start from an empty queue whose indices (for a revolving mailbox: its segment) are {@code count} along.
     *
     * @param mailbox the mailbox.
     * @param count   nodes to push and poll.
     * @return the mailbox, empty again.
     */
    protected static Mailbox advanced(final Mailbox mailbox, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            mailbox.push(new TestNode(-1, i));
            if (mailbox.poll() == null)
            {
                throw new IllegalStateException("lost node " + i + " while advancing the mailbox");
            }
        }
        return mailbox;
    }

    /**
     * A send: enqueues a fresh node carrying the value.
     *
     * @param value what the node carries.
     */
    @Operation
    public void push(@Param(gen = IntGen.class, conf = "1:99") final int value)
    {
        mailbox.push(new TestNode(0, value));
    }

    /**
     * The reader takes the oldest node, retrying while a send is in flight.
     *
     * @return its value, or null if nothing was pending.
     */
    @Operation(nonParallelGroup = "reader", blocking = true)
    public Integer poll()
    {
        QueueLink node;
        while ((node = mailbox.poll()) == null && mailbox.hasPending())
        {
            Thread.onSpinWait();
        }
        return node == null ? null : ((TestNode)node).sequence;
    }

    /**
     * The reader's "anything left?" (its re-check after marking the mailbox idle).
     *
     * @return whether something was pushed and not polled.
     */
    @Operation(nonParallelGroup = "reader")
    public boolean hasPending()
    {
        return mailbox.hasPending();
    }

    /** The sequential specification: a FIFO queue of values. */
    public static final class Spec
    {
        private final ArrayDeque<Integer> queue = new ArrayDeque<>();

        /**
         * Enqueues.
         *
         * @param value the value.
         */
        public void push(final int value)
        {
            queue.addLast(value);
        }

        /**
         * Dequeues.
         *
         * @return the oldest value, or null if empty.
         */
        public Integer poll()
        {
            return queue.pollFirst();
        }

        /**
         * Non-empty check.
         *
         * @return true if something is queued.
         */
        public boolean hasPending()
        {
            return !queue.isEmpty();
        }
    }
}
