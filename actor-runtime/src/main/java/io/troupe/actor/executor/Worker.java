package io.troupe.actor.executor;

import io.troupe.actor.mailbox.Mailbox;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/** 128 bytes ahead of a worker's mutable fields, so that workers of one pool share no cache line. */
abstract class WorkerPadLeft
{
    long p00;
    long p01;
    long p02;
    long p03;
    long p04;
    long p05;
    long p06;
    long p07;
    long p08;
    long p09;
    long p10;
    long p11;
    long p12;
    long p13;
    long p14;
    long p15;
}

/** A worker's mutable fields: written by its own thread on every activation (and by wakers: parked). */
abstract class WorkerState extends WorkerPadLeft
{
    Mailbox handoff;
    int handoffStreak;
    volatile boolean idle = true;
    volatile boolean parked;
    long activations;
    long events;
    long busyNs;
    long idleNs;
    long lateWakeups;
}

/** 128 bytes behind a worker's mutable fields. */
abstract class WorkerPadRight extends WorkerState
{
    long q00;
    long q01;
    long q02;
    long q03;
    long q04;
    long q05;
    long q06;
    long q07;
    long q08;
    long q09;
    long q10;
    long q11;
    long q12;
    long q13;
    long q14;
    long q15;
}

/**
 * One thread of an {@link ExecutorPool}. Owns its hand-off slot and its counters; counters are written with
 * opaque stores by this thread only and read from anywhere.
 */
public final class Worker extends WorkerPadRight implements Runnable
{
    private static final int BUSY_FLUSH_MASK = 1023;
    private static final VarHandle PARKED;
    private static final VarHandle ACTIVATIONS;
    private static final VarHandle EVENTS;
    private static final VarHandle BUSY_NS;
    private static final VarHandle IDLE_NS;
    private static final VarHandle LATE_WAKEUPS;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            PARKED = lookup.findVarHandle(WorkerState.class, "parked", boolean.class);
            ACTIVATIONS = lookup.findVarHandle(WorkerState.class, "activations", long.class);
            EVENTS = lookup.findVarHandle(WorkerState.class, "events", long.class);
            BUSY_NS = lookup.findVarHandle(WorkerState.class, "busyNs", long.class);
            IDLE_NS = lookup.findVarHandle(WorkerState.class, "idleNs", long.class);
            LATE_WAKEUPS = lookup.findVarHandle(WorkerState.class, "lateWakeups", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final ExecutorPool pool;
    private final int index;
    private Thread thread;
    private Object context;

    Worker(final ExecutorPool pool, final int index)
    {
        this.pool = pool;
        this.index = index;
    }

    void attach(final Object context)
    {
        this.context = context;
    }

    void bind(final Thread thread)
    {
        this.thread = thread;
    }

    /**
     * The per-worker object created by the pool's context factory.
     *
     * @return the context.
     */
    public Object context()
    {
        return context;
    }

    /**
     * The pool this worker belongs to.
     *
     * @return the pool.
     */
    public ExecutorPool pool()
    {
        return pool;
    }

    /**
     * Index within the pool.
     *
     * @return the index.
     */
    public int index()
    {
        return index;
    }

    /**
     * The thread, once started.
     *
     * @return the thread or null.
     */
    public Thread thread()
    {
        return thread;
    }

    /**
     * Called on this worker's thread for a mailbox of this pool that the caller moved to SCHEDULED: the worker
     * runs it after the current activation, without the shared queue. A mailbox already in the slot goes to
     * the shared queue.
     *
     * @param mailbox the mailbox.
     */
    public void handOff(final Mailbox mailbox)
    {
        final Mailbox previous = handoff;
        handoff = mailbox;
        if (previous != null)
        {
            pool.schedule(previous);
        }
    }

    /**
     * Adds to the events-handled counter. Only this worker's thread.
     *
     * @param count events handled in one activation.
     */
    public void addEvents(final int count)
    {
        EVENTS.setOpaque(this, (long)EVENTS.getOpaque(this) + count);
    }

    /**
     * Activations run so far.
     *
     * @return the count.
     */
    public long activations()
    {
        return (long)ACTIVATIONS.getOpaque(this);
    }

    /**
     * Events handled so far.
     *
     * @return the count.
     */
    public long eventsHandled()
    {
        return (long)EVENTS.getOpaque(this);
    }

    /**
     * Time spent running activations, updated at least every 1024 activations and on going idle.
     *
     * @return nanoseconds.
     */
    public long busyNs()
    {
        return (long)BUSY_NS.getOpaque(this);
    }

    /**
     * Time spent spinning or parked, updated on waking.
     *
     * @return nanoseconds.
     */
    public long idleNs()
    {
        return (long)IDLE_NS.getOpaque(this);
    }

    /**
     * Times this worker woke from its safety timeout and found work queued: each is a wake-up that should have
     * come from a sender. Expected to stay 0.
     *
     * @return the count.
     */
    public long lateWakeups()
    {
        return (long)LATE_WAKEUPS.getOpaque(this);
    }

    boolean isIdle()
    {
        return idle && handoff == null;
    }

    boolean tryWake()
    {
        if (parked && PARKED.compareAndSet(this, true, false))
        {
            pool.onUnparked();
            LockSupport.unpark(thread);
            return true;
        }
        return false;
    }

    @Override
    public void run()
    {
        final MailboxRunner runner = pool.runner();
        long markNs = System.nanoTime();
        long spinStartNs = markNs;
        long count = 0;
        while (pool.isRunning())
        {
            final Mailbox mailbox = next();
            if (mailbox != null)
            {
                if (idle)
                {
                    final long nowNs = System.nanoTime();
                    IDLE_NS.setOpaque(this, (long)IDLE_NS.getOpaque(this) + (nowNs - markNs));
                    markNs = nowNs;
                    idle = false;
                }
                runner.run(mailbox, this);
                ACTIVATIONS.setOpaque(this, ++count);
                if ((count & BUSY_FLUSH_MASK) == 0)
                {
                    final long nowNs = System.nanoTime();
                    BUSY_NS.setOpaque(this, (long)BUSY_NS.getOpaque(this) + (nowNs - markNs));
                    markNs = nowNs;
                }
                continue;
            }
            final long nowNs = System.nanoTime();
            if (!idle)
            {
                BUSY_NS.setOpaque(this, (long)BUSY_NS.getOpaque(this) + (nowNs - markNs));
                markNs = nowNs;
                spinStartNs = nowNs;
                idle = true;
            }
            if (nowNs - spinStartNs < pool.spinBeforeSleepNs())
            {
                Thread.onSpinWait();
                continue;
            }
            park();
            spinStartNs = System.nanoTime();
        }
        idle = true;
    }

    private Mailbox next()
    {
        final Mailbox mine = handoff;
        if (mine != null)
        {
            handoff = null;
            if (++handoffStreak < pool.eventsPerActivation())
            {
                return mine;
            }
            handoffStreak = 0;
            if (!pool.hasShared())
            {
                return mine;
            }
            pool.requeue(mine); // budget spent and others are waiting: take turns
            return pool.pollShared();
        }
        handoffStreak = 0;
        return pool.pollShared();
    }

    private void park()
    {
        PARKED.setVolatile(this, true);
        pool.onParking();
        if (pool.hasShared() || !pool.isRunning())
        {
            if (PARKED.compareAndSet(this, true, false))
            {
                pool.onUnparked();
            }
            return;
        }
        LockSupport.parkNanos(this, ExecutorPool.PARK_SAFETY_NS);
        if (PARKED.compareAndSet(this, true, false))
        {
            // nobody woke us: a timeout or a spurious return
            pool.onUnparked();
            if (pool.hasShared())
            {
                LATE_WAKEUPS.setOpaque(this, (long)LATE_WAKEUPS.getOpaque(this) + 1);
            }
        }
    }
}
