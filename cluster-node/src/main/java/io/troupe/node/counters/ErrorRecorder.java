package io.troupe.node.counters;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.errors.DistinctErrorLog;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The node's error recorder ({@code ActorSystemConfig.errorRecorder}): every agent error and handler failure goes to
 * the counters file's distinct error log, which keeps each distinct error once (stack trace, first and last time,
 * count), and is counted ({@link NodeCounter#AGENT_ERRORS}). Thread safe; never blocks for long (the log takes a lock
 * only for an error it has not seen).
 */
public final class ErrorRecorder implements ErrorHandler
{
    private final DistinctErrorLog log;
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong unrecorded = new AtomicLong();

    /**
     * A recorder into a log.
     *
     * @param log the counters file's error log.
     */
    public ErrorRecorder(final DistinctErrorLog log)
    {
        this.log = log;
    }

    @Override
    public void onError(final Throwable error)
    {
        errors.incrementAndGet();
        if (!log.record(error))
        {
            unrecorded.incrementAndGet(); // the log is full: counted, not recorded
        }
    }

    /**
     * Errors seen.
     *
     * @return the count.
     */
    public long errors()
    {
        return errors.get();
    }

    /**
     * Errors the log had no room for.
     *
     * @return the count.
     */
    public long unrecorded()
    {
        return unrecorded.get();
    }
}
