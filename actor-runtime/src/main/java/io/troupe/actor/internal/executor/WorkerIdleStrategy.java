package io.troupe.actor.internal.executor;

import org.agrona.concurrent.IdleStrategy;

/**
 * A worker's idle strategy: spin (yielding) for the pool's spin time, then park until a sender wakes the worker
 * (or the pool's safety timeout passes). It is bound to one worker, because parking is part of the pool's
 * wake-up protocol (a parked worker is flagged so that senders know to unpark it), which Agrona's stateless
 * strategies do not know; and it ends the worker's runner once the pool stops.
 */
final class WorkerIdleStrategy implements IdleStrategy
{
    private final Worker worker;

    WorkerIdleStrategy(final Worker worker)
    {
        this.worker = worker;
    }

    @Override
    public void idle(final int workCount)
    {
        worker.idle(workCount);
    }

    @Override
    public void idle()
    {
        worker.idle(0);
    }

    @Override
    public void reset()
    {
        // the worker restarts its spin time itself whenever it goes idle
    }

    @Override
    public String alias()
    {
        return "troupe-worker";
    }
}
