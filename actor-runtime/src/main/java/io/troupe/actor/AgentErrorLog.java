package io.troupe.actor;

import org.agrona.ErrorHandler;
import org.slf4j.Logger;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

/**
 * The error handler of an agent (a pool worker, the timer, the interconnect, a media driver): logs an error with
 * its stack trace at most {@link #BURST} times per {@link #WINDOW_NS}, counts the rest, and says how many it
 * left out when it next logs. An agent that fails on every duty cycle thus writes a few lines a minute, not
 * thousands a second. Every error is counted ({@link #errors()}) and, when a recorder is given, handed to it whole
 * (a node's recorder is its distinct error log in the data directory, which keeps each distinct error once with
 * first and last time and count, readable by {@code troupe errors}). Thread safe.
 */
public final class AgentErrorLog implements ErrorHandler
{
    /** Errors logged in full per window. */
    public static final int BURST = 10;
    /** The window: one minute. */
    public static final long WINDOW_NS = 60_000_000_000L;

    private final BiConsumer<String, Throwable> sink;
    private final String what;
    private final LongSupplier clock;
    private final ErrorHandler recorder;
    private final AtomicLong errors = new AtomicLong();
    private long windowStartNs;
    private int loggedInWindow;
    private long suppressed;
    private boolean started;

    /**
     * A handler that logs to {@code log} as "{@code what} failed".
     *
     * @param log  where to log.
     * @param what the agent, e.g. "node 3: timer agent".
     */
    public AgentErrorLog(final Logger log, final String what)
    {
        this(log::error, what, System::nanoTime, null);
    }

    /**
     * A handler that logs to {@code log} as "{@code what} failed" and hands every error to {@code recorder} as an
     * {@link AgentFailure} naming {@code what}, caused by the error.
     *
     * @param log      where to log.
     * @param what     the agent, e.g. "node 3: timer agent".
     * @param recorder where every error goes, unthrottled (a node's distinct error log), or null for none; what it
     *                 throws is dropped.
     */
    public AgentErrorLog(final Logger log, final String what, final ErrorHandler recorder)
    {
        this(log::error, what, System::nanoTime, recorder);
    }

    AgentErrorLog(final BiConsumer<String, Throwable> sink, final String what, final LongSupplier clock,
        final ErrorHandler recorder)
    {
        this.sink = sink;
        this.what = what;
        this.clock = clock;
        this.recorder = recorder;
    }

    @Override
    public void onError(final Throwable error)
    {
        errors.incrementAndGet();
        if (recorder != null)
        {
            try
            {
                recorder.onError(new AgentFailure(what + " failed", error));
            }
            catch (final RuntimeException ignore)
            {
                // a failing recorder must not stop the agent; the error is counted and logged below
            }
        }
        final long left;
        synchronized (this) // errors are rare; the lock keeps the window's counts whole
        {
            final long nowNs = clock.getAsLong();
            if (!started || nowNs - windowStartNs >= WINDOW_NS)
            {
                started = true;
                windowStartNs = nowNs;
                loggedInWindow = 0;
            }
            if (loggedInWindow >= BURST)
            {
                suppressed++;
                return;
            }
            loggedInWindow++;
            left = suppressed;
            suppressed = 0;
        }
        sink.accept(left > 0 ? what + " failed (" + left + " more failures not logged since the last one)" :
            what + " failed", error);
    }

    /**
     * Errors seen so far, logged or not.
     *
     * @return the count.
     */
    public long errors()
    {
        return errors.get();
    }
}
