package io.troupe.client;

/**
 * {@link TroupeClient#connect} failed: the message says why, endpoint by endpoint (refused, and the node's reason; or
 * no answer).
 */
public final class ClientConnectException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * A failure to connect.
     *
     * @param message why, naming each endpoint tried.
     */
    public ClientConnectException(final String message)
    {
        super(message);
    }
}
