package io.troupe.actor.internal.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An element of an intrusive queue: the link lives in the element, so enqueueing allocates nothing.
 * Envelopes are nodes, and so are mailboxes (a simple mailbox is its own stub node; run queues link mailboxes).
 */
public abstract class QueueNode
{
    /** The link to the next node: mailboxes and run queues read and write it with the ordering they need. */
    public static final VarHandle NEXT;

    static
    {
        try
        {
            NEXT = MethodHandles.lookup().findVarHandle(QueueNode.class, "next", QueueNode.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    @SuppressWarnings("unused") // accessed through NEXT
    private QueueNode next;

    /**
     * Creates an unlinked node.
     */
    protected QueueNode()
    {
    }
}
