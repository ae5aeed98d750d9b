package io.troupe.actor.internal.queue;

import io.troupe.actor.QueueLink;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The handle on the link every element of an intrusive queue carries ({@link QueueLink}): envelopes are elements,
 * and so are mailboxes (a simple mailbox is its own stub node; run queues link mailboxes). The link is private to
 * {@link QueueLink}, an API class with no members, so the API exposes nothing of how the runtime queues.
 */
public final class QueueNode
{
    /** The link to the next element: mailboxes and run queues read and write it with the ordering they need. */
    public static final VarHandle NEXT;

    static
    {
        try
        {
            NEXT = MethodHandles.privateLookupIn(QueueLink.class, MethodHandles.lookup())
                .findVarHandle(QueueLink.class, "next", QueueLink.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private QueueNode()
    {
    }
}
