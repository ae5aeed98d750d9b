package io.troupe.actor.internal.executor;

import io.troupe.actor.internal.mailbox.Mailbox;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

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
final class LocalRunQueue
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
            HEAD = lookup.findVarHandle(LocalRunQueue.class, "head", long.class);
            TAIL = lookup.findVarHandle(LocalRunQueue.class, "tail", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final Mailbox[] slots = new Mailbox[CAPACITY];
    @SuppressWarnings("unused") // accessed through HEAD
    private volatile long head;
    @SuppressWarnings("unused") // accessed through TAIL
    private volatile long tail;

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
        SLOTS.setOpaque(slots, (int)(t & MASK), mailbox);
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
            final Mailbox mailbox = (Mailbox)SLOTS.getOpaque(slots, (int)(h & MASK));
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
