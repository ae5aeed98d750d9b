package io.troupe.actor.internal.scheduler;

/**
 * Work the {@link TimerAgent} runs on its thread when it is due: a scheduled send, once or at a fixed rate.
 */
public interface TimerTask
{
    /** {@link #fire()}: it delivered its event and is done. */
    long DONE = -1;
    /** {@link #fire()}: it delivered nothing (cancelled, or its cookie was detached) and is done. */
    long SKIPPED = -2;

    /**
     * Runs the task; on the timer's thread, never blocks.
     *
     * @return the period to its next run in nanoseconds (at least 1: it delivered and runs again), {@link #DONE} or
     *     {@link #SKIPPED}.
     */
    long fire();
}
