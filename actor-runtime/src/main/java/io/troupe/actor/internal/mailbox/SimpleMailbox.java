package io.troupe.actor.internal.mailbox;

import io.troupe.actor.MailboxType;
import io.troupe.actor.QueueLink;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A mailbox on an intrusive MPSC linked list (Vyukov's non-intrusive algorithm made intrusive): a send is one
 * atomic exchange of the tail and one release store; the mailbox itself is the stub node, so an empty mailbox
 * carries no extra objects.
 *
 * <p>Lock-free, not wait-free: if a sender is preempted between its exchange and its link, the reader sees
 * the queue as momentarily empty ({@link #poll()} returns null) while {@link #hasPending()} is true.
 */
public final class SimpleMailbox extends Mailbox
{
    private static final VarHandle TAIL;

    static
    {
        try
        {
            TAIL = MethodHandles.lookup().findVarHandle(SimpleMailbox.class, "tail", QueueLink.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** Reader side: the next node to hand out, or this (the stub). */
    private QueueLink head;
    /** Writer side: the last node linked; senders exchange it. */
    @SuppressWarnings("unused") // accessed through TAIL
    private volatile QueueLink tail;

    /**
     * Creates an empty mailbox.
     *
     * @param hint   index in the node's table.
     * @param poolId pool it is pinned to.
     */
    public SimpleMailbox(final int hint, final int poolId)
    {
        super(hint, poolId);
        head = this;
        TAIL.setRelease(this, this);
    }

    @Override
    public MailboxType type()
    {
        return MailboxType.SIMPLE;
    }

    @Override
    public void push(final QueueLink node)
    {
        clearNext(node);
        final QueueLink prev = (QueueLink)TAIL.getAndSet(this, node);
        link(prev, node);
    }

    @Override
    protected QueueLink pollQueue()
    {
        QueueLink first = head;
        QueueLink next = nextOf(first);
        if (first == this)
        {
            if (next == null)
            {
                return null;
            }
            head = next;
            first = next;
            next = nextOf(next);
        }
        if (next != null)
        {
            head = next;
            clearNext(first);
            return first;
        }
        if (first != (QueueLink)TAIL.getAcquire(this))
        {
            return null; // a sender swapped the tail but has not linked yet
        }
        // first is the last node: put the stub behind it so first can be handed out
        push(this);
        next = nextOf(first);
        if (next != null)
        {
            head = next;
            clearNext(first);
            return first;
        }
        return null;
    }

    @Override
    protected QueueLink peekQueue()
    {
        final QueueLink h = head;
        return h == this ? nextOf(this) : h;
    }

    @Override
    protected boolean queuePending()
    {
        final QueueLink first = head;
        return first != this || (QueueLink)TAIL.getVolatile(this) != this;
    }
}
