package io.troupe.actor.internal.executor;

import io.troupe.actor.internal.layout.LinePadding;
import io.troupe.actor.internal.mailbox.Mailbox;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/** A worker's mutable fields: written by its own thread on every activation (and by wakers: parked). */
abstract class WorkerState extends LinePadding
{
    Mailbox handoff;
    int handoffStreak;
    int ticks;
    volatile boolean idle = true;
    volatile boolean parked;
    long activations;
    long events;
    long busyNs;
    long idleNs;
    long lateWakeups;
    long steals;
    /** Owner-only duty-cycle state: where busy or idle time started counting, when idling began, activations. */
    long markNs;
    long spinStartNs;
    long idleCheckNs;
    long count;
    // read on every activation too, so inside the padding: the final class's own fields would come after it
    final ExecutorPool pool;
    final MailboxRunner runner;
    final int index;
    final LocalRunQueue local = new LocalRunQueue();
    Thread thread;
    String roleName;
    Object context;

    WorkerState(final ExecutorPool pool, final int index)
    {
        this.pool = pool;
        this.runner = pool.runner();
        this.index = index;
    }
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

    WorkerPadRight(final ExecutorPool pool, final int index)
    {
        super(pool, index);
    }
}

/**
 * One thread of an {@link ExecutorPool}, with its own run queue.
 *
 * <p>Where a worker looks for the next mailbox, in order: its hand-off slot (a mailbox one of its actors just
 * activated while the current one was about to finish: runs next, on a warm cache, and cannot be stolen);
 * every 61st time the pool's global queue first, so outside submissions are not starved; its local queue;
 * the global queue; the local queues of other workers (stealing). The hand-off chain gets a budget of
 * {@code eventsPerActivation} activations before queued mailboxes get a turn.
 *
 * <p>An Agrona {@link Agent}: the pool runs each worker on its own thread with an {@code AgentRunner}, which calls
 * {@link #doWork()} in a loop and hands its result to the worker's {@link WorkerIdleStrategy}: while there is
 * nothing to run, spin (yielding, and stealing) for the pool's spin time, then park until woken. A worker that
 * queues work others could take wakes a parked worker only when no worker is searching. A test drives
 * {@link #onStart()} and {@link #doWork()} itself, on a pool that never starts threads, with its own clock.
 * Counters are written with opaque stores by this thread only and read from anywhere.
 */
public final class Worker extends WorkerPadRight implements Agent
{
    private static final int BUSY_FLUSH_MASK = 1023;
    /** Every this many turns of its own queues, a worker looks at the global queue first (outside submissions). */
    static final int GLOBAL_CHECK_INTERVAL = 61;
    private static final VarHandle PARKED;
    private static final VarHandle ACTIVATIONS;
    private static final VarHandle EVENTS;
    private static final VarHandle BUSY_NS;
    private static final VarHandle IDLE_NS;
    private static final VarHandle LATE_WAKEUPS;
    private static final VarHandle STEALS;

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
            STEALS = lookup.findVarHandle(WorkerState.class, "steals", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    Worker(final ExecutorPool pool, final int index)
    {
        super(pool, index);
    }

    void attach(final Object context)
    {
        this.context = context;
    }

    void roleName(final String roleName)
    {
        this.roleName = roleName;
    }

    void bind(final Thread thread)
    {
        this.thread = thread;
    }

    /**
     * The worker's name, which is also its thread's: the system's thread prefix, the pool's name, the index.
     *
     * @return the name (pool name and index on a pool that never started).
     */
    @Override
    public String roleName()
    {
        return roleName != null ? roleName : pool.name() + '-' + index;
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
     * On this worker's thread: a mailbox of this pool that the caller moved to SCHEDULED while running an
     * actor. If the running mailbox is about to finish, the new one goes to the hand-off slot and runs next;
     * otherwise it is queued locally where idle workers can take it.
     *
     * @param mailbox          the mailbox.
     * @param currentFinishing whether the running mailbox has nothing else pending.
     */
    public void activate(final Mailbox mailbox, final boolean currentFinishing)
    {
        if (currentFinishing && handoff == null)
        {
            handoff = mailbox;
        }
        else
        {
            enqueueLocal(mailbox, true);
        }
    }

    /**
     * On this worker's thread, at the end of an activation: a mailbox that still has events (its quantum ran
     * out, or late arrivals). If mailboxes activated from outside are waiting it goes behind them in the
     * global queue; otherwise it stays on this worker, and runs again at once if nothing else waits.
     *
     * @param mailbox the mailbox, in state SCHEDULED.
     */
    public void reschedule(final Mailbox mailbox)
    {
        if (pool.hasGlobal())
        {
            pool.schedule(mailbox); // outside submissions are waiting: go behind them
        }
        else if (handoff == null && local.isEmpty())
        {
            handoff = mailbox;
        }
        else
        {
            enqueueLocal(mailbox, false);
        }
    }

    private void enqueueLocal(final Mailbox mailbox, final boolean othersMayHelp)
    {
        if (!local.offer(mailbox))
        {
            pool.schedule(mailbox); // local ring full: overflow to the global queue (wakes a worker)
            return;
        }
        if (othersMayHelp || local.size() > 1)
        {
            pool.wakeIfNobodySearching();
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
     * Times this worker woke from its safety timeout and found the global queue non-empty: a wake-up that
     * should have come from a sender. Expected to stay 0 (a rare benign race can count one).
     *
     * @return the count.
     */
    public long lateWakeups()
    {
        return (long)LATE_WAKEUPS.getOpaque(this);
    }

    /**
     * Mailboxes this worker took from other workers' queues.
     *
     * @return the count.
     */
    public long steals()
    {
        return (long)STEALS.getOpaque(this);
    }

    boolean isIdle()
    {
        return idle && handoff == null && local.isEmpty();
    }

    boolean hasQueued()
    {
        return !local.isEmpty();
    }

    Mailbox steal()
    {
        return local.poll();
    }

    /** Whether this worker is not parked (running, searching, or woken and on its way). */
    boolean isAwake()
    {
        return !parked;
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

    /**
     * What the worker's thread does after each duty cycle (its {@link WorkerIdleStrategy}): ends the thread once the
     * pool stops; after a cycle that found nothing, yields while within the pool's spin time, then parks.
     *
     * @param workCount what {@link #doWork()} returned.
     * @throws AgentTerminationException once the pool is stopping, which ends the worker's runner.
     */
    void idle(final int workCount)
    {
        if (!pool.isRunning())
        {
            throw new AgentTerminationException("pool " + pool.name() + " stopped");
        }
        if (workCount == 0)
        {
            if (idleCheckNs - spinStartNs < pool.spinBeforeSleepNs())
            {
                Thread.yield(); // not onSpinWait: a runnable thread of this node (or another) goes first
            }
            else
            {
                park();
                spinStartNs = pool.clock().nanoTime();
            }
        }
    }

    /** The thread is ending: a worker that was searching stops counting as searching. */
    @Override
    public void onClose()
    {
        if (idle)
        {
            pool.onSearchEnded();
        }
        idle = true;
    }

    /**
     * Starts counting busy and idle time, idle (searching) first; the worker's thread calls it before its first
     * duty cycle, and so does a test that runs {@link #doWork()} itself.
     */
    @Override
    public void onStart()
    {
        markNs = pool.clock().nanoTime();
        spinStartNs = markNs;
        pool.onSearching();
    }

    /**
     * One duty cycle: runs the next mailbox (its hand-off, its own queue, the pool's global queue, or one stolen
     * from another worker), or finds none. The worker's thread runs it in a loop and idles (spin, then park) while
     * it returns 0; a test calls it directly on a pool that was never started, with the pool's clock its own.
     *
     * @return 1 if a mailbox ran, 0 if there was none.
     */
    @Override
    public int doWork()
    {
        Mailbox mailbox = idle ? null : next();
        if (mailbox == null)
        {
            final long nowNs = pool.clock().nanoTime();
            idleCheckNs = nowNs;
            if (!idle)
            {
                BUSY_NS.setOpaque(this, (long)BUSY_NS.getOpaque(this) + (nowNs - markNs));
                markNs = nowNs;
                spinStartNs = nowNs;
                idle = true;
                pool.onSearching();
            }
            mailbox = search();
            if (mailbox == null)
            {
                return 0;
            }
            IDLE_NS.setOpaque(this, (long)IDLE_NS.getOpaque(this) + (nowNs - markNs));
            markNs = nowNs;
            idle = false;
            pool.onSearchEnded();
        }
        runner.run(mailbox, this);
        ACTIVATIONS.setOpaque(this, ++count);
        if ((count & BUSY_FLUSH_MASK) == 0)
        {
            final long nowNs = pool.clock().nanoTime();
            BUSY_NS.setOpaque(this, (long)BUSY_NS.getOpaque(this) + (nowNs - markNs));
            markNs = nowNs;
        }
        return 1;
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
            if (local.isEmpty() && !pool.hasGlobal())
            {
                return mine;
            }
            if (!local.offer(mine)) // budget spent and others are waiting: take turns
            {
                pool.schedule(mine);
            }
        }
        handoffStreak = 0;
        if (++ticks >= GLOBAL_CHECK_INTERVAL)
        {
            ticks = 0;
            final Mailbox global = pool.pollGlobal();
            if (global != null)
            {
                return global;
            }
        }
        final Mailbox queued = local.poll();
        return queued != null ? queued : pool.pollGlobal();
    }

    /** Idle: own hand-off and queue (a reschedule may have put work there), the global queue, then stealing. */
    private Mailbox search()
    {
        final Mailbox own = next();
        if (own != null)
        {
            return own;
        }
        final Worker[] workers = pool.workers();
        for (int i = 1; i < workers.length; i++)
        {
            final Mailbox stolen = workers[(index + i) % workers.length].steal();
            if (stolen != null)
            {
                STEALS.setOpaque(this, (long)STEALS.getOpaque(this) + 1);
                return stolen;
            }
        }
        return null;
    }

    private void park()
    {
        PARKED.setVolatile(this, true);
        pool.onParking();
        pool.onSearchEnded();
        if (pool.hasWorkForIdle() || !pool.isRunning())
        {
            pool.onSearching();
            if (PARKED.compareAndSet(this, true, false))
            {
                pool.onUnparked();
            }
            return;
        }
        LockSupport.parkNanos(this, ExecutorPool.PARK_SAFETY_NS);
        pool.onSearching();
        if (PARKED.compareAndSet(this, true, false))
        {
            // nobody woke us: a timeout or a spurious return. Work in the global queue always wakes someone
            // (local queues need not: their owners run them), so finding some there while every other worker is
            // parked means a missed wake-up; if another is awake, it was woken for this work (or will poll it)
            pool.onUnparked();
            if (pool.hasGlobal() && !pool.anotherAwake(this))
            {
                LATE_WAKEUPS.setOpaque(this, (long)LATE_WAKEUPS.getOpaque(this) + 1);
            }
        }
    }
}
