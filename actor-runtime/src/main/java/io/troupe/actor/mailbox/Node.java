package io.troupe.actor.mailbox;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An element of an intrusive queue: the link lives in the element, so enqueueing allocates nothing.
 * Envelopes are nodes; a {@link SimpleMailbox} is its own stub node.
 */
public abstract class Node
{
    static final VarHandle NEXT;

    static
    {
        try
        {
            NEXT = MethodHandles.lookup().findVarHandle(Node.class, "next", Node.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    @SuppressWarnings("unused") // accessed through NEXT
    private Node next;

    /**
     * Creates an unlinked node.
     */
    protected Node()
    {
    }
}
