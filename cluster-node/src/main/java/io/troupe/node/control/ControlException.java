package io.troupe.node.control;

/** A control request that could not be made: the node is not reachable, or the caller may not control it. */
public final class ControlException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final boolean refused;

    /**
     * An exception.
     *
     * @param refused whether the caller was refused (rather than the node unreachable).
     * @param message what happened.
     */
    public ControlException(final boolean refused, final String message)
    {
        super(message);
        this.refused = refused;
    }

    /**
     * Whether the caller was refused: not the node's user.
     *
     * @return true if refused; false if the node could not be reached.
     */
    public boolean refused()
    {
        return refused;
    }
}
