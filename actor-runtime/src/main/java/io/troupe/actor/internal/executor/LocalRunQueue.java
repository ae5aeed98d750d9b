package io.troupe.actor.internal.executor;

import io.troupe.actor.internal.layout.LinePadding;
import io.troupe.actor.internal.mailbox.Mailbox;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The queue's fields, behind {@link LinePadding}: its owner writes them, and other workers read them when they look for
 * work.
 */
abstract class RunQueueFields extends LinePadding
{
    /** Unused slots at both ends of {@link #slots}: 64 bytes (with compressed references) from its header and end. */
    static final int ARRAY_PAD = 16;

    final Mailbox[] slots = new Mailbox[LocalRunQueue.CAPACITY + 2 * ARRAY_PAD];
    @SuppressWarnings("unused") // accessed through HEAD
    volatile long head;
    @SuppressWarnings("unused") // accessed through TAIL
    volatile long tail;
}

/**
 * A worker's own queue of ready mailboxes: a bounded FIFO ring that only its owner offers to, and that the
 * owner and idle workers of the same pool (thieves) take from.
 *
 * <pre>
 *   head: CAS by any taker        tail: written by the owner only, with release
 *   slots [head, tail) are ready; the owner writes a slot only when tail - head &lt; capacity, so a slot is
 *   never overwritten while a taker may still read it.
 * </pre>
 */
final class LocalRunQueue extends RunQueueFields
{
    static final int CAPACITY = 256;
    private static final int MASK = CAPACITY - 1;
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Mailbox[].class);

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(RunQueueFields.class, "head", long.class);
            TAIL = lookup.findVarHandle(RunQueueFields.class, "tail", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** Padding behind the fields (see {@link LinePadding}). */
    long q00;
    long q01;
    long q02;
    long q03;
    long q04;
    long q05;
    long q06;
    long q07;
    long q08;
    long q09;
    long q10;
    long q11;
    long q12;
    long q13;
    long q14;
    long q15;

    /**
     * Owner only: appends a mailbox.
     *
     * @param mailbox the mailbox.
     * @return false if the queue is full.
     */
    boolean offer(final Mailbox mailbox)
    {
        final long t = (long)TAIL.getOpaque(this);
        if (t - (long)HEAD.getAcquire(this) >= CAPACITY)
        {
            return false;
        }
        SLOTS.setOpaque(slots, (int)(t & MASK) + ARRAY_PAD, mailbox);
        TAIL.setRelease(this, t + 1);
        return true;
    }

    /**
     * Owner or thief: takes the oldest mailbox.
     *
     * @return the mailbox, or null if empty.
     */
    Mailbox poll()
    {
        while (true)
        {
            final long h = (long)HEAD.getAcquire(this);
            final long t = (long)TAIL.getAcquire(this);
            if (h >= t)
            {
                return null;
            }
            final Mailbox mailbox = (Mailbox)SLOTS.getOpaque(slots, (int)(h & MASK) + ARRAY_PAD);
            if (HEAD.compareAndSet(this, h, h + 1))
            {
                return mailbox;
            }
        }
    }

    /**
     * Approximate number of queued mailboxes.
     *
     * @return the size, from any thread.
     */
    int size()
    {
        final long h = (long)HEAD.getAcquire(this);
        final long t = (long)TAIL.getAcquire(this);
        return (int)Math.max(0, t - h);
    }

    boolean isEmpty()
    {
        return size() == 0;
    }
}
