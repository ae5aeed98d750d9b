package io.troupe.actor;

/**
 * What an {@link AgentErrorLog} hands its recorder: the error of an agent (or a handler), with a message naming
 * which one failed ("node 3: timer agent failed") and the error as its cause. It has no stack trace of its own, so
 * two failures of one agent with the same cause are the same to a distinct error log.
 */
public final class AgentFailure extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * A failure.
     *
     * @param message which agent failed.
     * @param cause   the error.
     */
    public AgentFailure(final String message, final Throwable cause)
    {
        super(message, cause, false, false);
    }
}
