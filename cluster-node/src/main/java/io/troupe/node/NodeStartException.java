package io.troupe.node;

import java.net.BindException;

/**
 * A node could not start for a reason its operator can fix, said in one line that names the config key at fault
 * (a port in use: {@code troupe.bind.port = 40100: 127.0.0.1:40100 is in use ...}); {@code troupe node} prints the
 * message alone, without a stack trace. Whatever the node had started is stopped again.
 */
public final class NodeStartException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * An exception.
     *
     * @param message what is wrong and which key to change.
     * @param cause   what failed underneath.
     */
    public NodeStartException(final String message, final Throwable cause)
    {
        super(message, cause);
    }

    /**
     * Whether an exception, or one of its causes, says an address is in use.
     *
     * @param error the exception.
     * @return true if a bind failed because the address is taken.
     */
    static boolean addressInUse(final Throwable error)
    {
        for (Throwable cause = error; cause != null; cause = cause.getCause())
        {
            if (cause instanceof BindException || String.valueOf(cause.getMessage()).contains("Address already in use"))
            {
                return true;
            }
        }
        return false;
    }
}
