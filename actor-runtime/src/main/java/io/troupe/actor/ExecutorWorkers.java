package io.troupe.actor;

/**
 * Which executor worker the calling thread is, for choices that follow the caller's scheduler (as Erlang's scheduler
 * id does): a balancer that sends every worker's requests to one broker of several, say. Every executor pool runs its
 * workers on {@link Thread}s of this class's making ({@link #newThread}).
 */
public final class ExecutorWorkers
{
    private ExecutorWorkers()
    {
    }

    /** An executor worker's thread: carries the worker's pool id and index. */
    private static final class WorkerThread extends Thread
    {
        private final int workerId;

        WorkerThread(final Runnable runnable, final int workerId)
        {
            super(runnable);
            this.workerId = workerId;
        }
    }

    /**
     * The calling thread's executor worker: its pool id shifted left 16 bits, or'ed with its index in the pool.
     *
     * @return the id, or -1 if the thread runs no executor worker (a plain thread, a timer, the interconnect).
     */
    public static int current()
    {
        return Thread.currentThread() instanceof WorkerThread thread ? thread.workerId : -1;
    }

    /**
     * A thread for an executor pool's worker (the runtime's pools make theirs here).
     *
     * @param runnable what the thread runs.
     * @param poolId   the pool's id, 0 to 65535.
     * @param index    the worker's index in the pool, 0 to 65535.
     * @return a new, unstarted thread.
     */
    public static Thread newThread(final Runnable runnable, final int poolId, final int index)
    {
        if (poolId < 0 || poolId > 0xFFFF || index < 0 || index > 0xFFFF)
        {
            throw new IllegalArgumentException("pool id and worker index must be 0 to 65535, got " + poolId + ", " +
                index);
        }
        return new WorkerThread(runnable, poolId << 16 | index);
    }
}
