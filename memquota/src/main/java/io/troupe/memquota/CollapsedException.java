package io.troupe.memquota;

/** A {@link MemoryQueue} collapsed: its contents were dropped and it no longer sends or receives. */
public final class CollapsedException extends MemoryQuotaException
{
    private static final long serialVersionUID = 1L;

    private final CollapseReason reason;

    /**
     * Creates the exception.
     *
     * @param reason why the queue collapsed.
     */
    public CollapsedException(final CollapseReason reason)
    {
        super(reason == CollapseReason.MEMORY_RECLAIMED ?
            "queue collapsed: the memory quota reclaimed it (it held the oldest data while over quota); its " +
                "contents were dropped, create a new queue to continue" :
            "queue collapsed: its receiver was closed; its contents were dropped", false);
        this.reason = reason;
    }

    /**
     * Why the queue collapsed.
     *
     * @return the reason.
     */
    public CollapseReason reason()
    {
        return reason;
    }
}
