package io.troupe.node;

import org.agrona.ErrorHandler;
import org.slf4j.Logger;

/**
 * An error handler for a part of the node that starts before the node's error log exists (the membership, which
 * must join before the node knows its id and so before its counters file is named): until {@link #relayTo} it
 * logs each error, from then on it hands them to the error log. Thread-safe.
 */
final class ErrorRelay implements ErrorHandler
{
    private final Logger log;
    private final String what;
    private volatile ErrorHandler target;

    ErrorRelay(final Logger log, final String what)
    {
        this.log = log;
        this.what = what;
    }

    /**
     * From now on errors go to this handler.
     *
     * @param handler the node's error log.
     */
    void relayTo(final ErrorHandler handler)
    {
        this.target = handler;
    }

    @Override
    public void onError(final Throwable error)
    {
        final ErrorHandler handler = target;
        if (handler == null)
        {
            log.error("{}: error before the node's error log exists", what, error);
        }
        else
        {
            handler.onError(error);
        }
    }
}
