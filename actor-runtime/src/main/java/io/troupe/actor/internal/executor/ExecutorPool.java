package io.troupe.actor.internal.executor;

import io.troupe.actor.ExecutorWorkers;
import io.troupe.actor.internal.layout.LinePadding;
import io.troupe.actor.internal.mailbox.Mailbox;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;
import org.agrona.concurrent.NanoClock;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/** The pool's fields, behind {@link LinePadding}: every worker reads them on every activation. */
abstract class PoolFields extends LinePadding
{
    final int poolId;
    final String name;
    final int eventsPerActivation;
    final long timePerActivationNs;
    final long spinBeforeSleepNs;
    final MailboxRunner runner;
    final NanoClock clock;
    final Worker[] workers;
    /**
     * The global queue: mailboxes activated from outside the pool, or overflowing a local queue, each at most once
     * at a time (it is SCHEDULED while queued). A bounded array, so that an activation allocates nothing, and a
     * linked overflow for the rare moment when more than {@link #GLOBAL_CAPACITY} wait, so none is ever refused.
     */
    final ManyToManyConcurrentArrayQueue<Mailbox> activations =
        new ManyToManyConcurrentArrayQueue<>(ExecutorPool.GLOBAL_CAPACITY);
    final ConcurrentLinkedQueue<Mailbox> overflow = new ConcurrentLinkedQueue<>();
    /**
     * Mailboxes put in {@link #overflow} and not taken yet, counted before each is put there (so never fewer than
     * it holds): the busy path asks this padded field whether the list is empty instead of reading the list, a small
     * shared object that a collection may put beside a busy mailbox.
     */
    volatile int overflowCount;
    final AtomicInteger parkedWorkers = new AtomicInteger();
    final AtomicInteger searchingWorkers = new AtomicInteger();
    volatile boolean running;

    PoolFields(
        final int poolId,
        final String name,
        final int threads,
        final int eventsPerActivation,
        final long timePerActivationNs,
        final long spinBeforeSleepNs,
        final MailboxRunner runner,
        final NanoClock clock)
    {
        this.clock = clock;
        this.poolId = poolId;
        this.name = name;
        this.eventsPerActivation = eventsPerActivation;
        this.timePerActivationNs = timePerActivationNs;
        this.spinBeforeSleepNs = spinBeforeSleepNs;
        this.runner = runner;
        this.workers = new Worker[threads];
    }
}

/**
 * A named pool of worker threads that run mailboxes pinned to it, roughly in activation order.
 *
 * <p>Each worker has a hand-off slot and a local queue (see {@link Worker}); mailboxes activated from outside
 * the pool go to a global queue. Idle workers search (global queue, other workers' queues), yielding between
 * searches, for {@code spinBeforeSleepNs}, then park. Whoever queues work that an idle worker could take wakes one
 * parked worker, unless a worker is already searching; a searcher that finds work wakes the next one if more is
 * waiting. Every wake-up decision follows a sequentially consistent write of the queue, and every park
 * follows a re-check of all queues, so no wake-up is lost; a parked worker also re-checks after
 * {@link #PARK_SAFETY_NS} and counts it if that found work.
 */
public final class ExecutorPool extends PoolFields
{
    /** A parked worker re-checks on its own after this long, so a lost wake-up cannot hang the pool. */
    static final long PARK_SAFETY_NS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Slots of the global queue's array; more mailboxes waiting at once go to its overflow list. */
    static final int GLOBAL_CAPACITY = 4096;
    private static final VarHandle OVERFLOW_COUNT;

    static
    {
        try
        {
            OVERFLOW_COUNT = MethodHandles.lookup().findVarHandle(PoolFields.class, "overflowCount", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** Padding behind the fields (see {@link LinePadding}). */
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

    /**
     * Creates a pool; threads start with {@link #start}.
     *
     * @param poolId              index of the pool on its node.
     * @param name                name, used for threads and counters.
     * @param threads             number of worker threads.
     * @param eventsPerActivation most events one activation handles before the mailbox is queued again.
     * @param timePerActivationNs soft cap on the time of one activation.
     * @param spinBeforeSleepNs   how long an idle worker spins before it parks.
     * @param runner              runs activations.
     * @param contextFactory      creates the per-worker object handed to the runner (e.g. an actor context).
     * @param clock               what the workers time busy, idle and spinning periods with (the system's
     *                            monotonic clock; a test that runs {@link Worker#doWork()} itself passes its own).
     */
    public ExecutorPool(
        final int poolId,
        final String name,
        final int threads,
        final int eventsPerActivation,
        final long timePerActivationNs,
        final long spinBeforeSleepNs,
        final MailboxRunner runner,
        final Function<Worker, Object> contextFactory,
        final NanoClock clock)
    {
        super(poolId, name, threads, eventsPerActivation, timePerActivationNs, spinBeforeSleepNs, runner, clock);
        for (int i = 0; i < threads; i++)
        {
            workers[i] = new Worker(this, i);
            workers[i].attach(contextFactory.apply(workers[i]));
        }
    }

    /**
     * Starts the worker threads: each worker runs on its own daemon thread under an Agrona {@link AgentRunner}
     * with its {@link WorkerIdleStrategy}; an exception that escapes a duty cycle goes to {@code errorHandler} and
     * the worker goes on.
     *
     * @param threadNamePrefix prefix of the thread names; the pool name and index are appended.
     * @param errorHandler     told of every exception that escapes a worker's duty cycle.
     */
    public void start(final String threadNamePrefix, final ErrorHandler errorHandler)
    {
        running = true;
        final ErrorHandler onError = error ->
        {
            if (!(error instanceof AgentTerminationException)) // how a worker ends once the pool stops
            {
                errorHandler.onError(error);
            }
        };
        for (final Worker worker : workers)
        {
            worker.roleName(threadNamePrefix + name + '-' + worker.index());
            final AgentRunner agentRunner = new AgentRunner(new WorkerIdleStrategy(worker), onError, null, worker);
            AgentRunner.startOnThread(agentRunner, runnable ->
            {
                final Thread thread = ExecutorWorkers.newThread(runnable, poolId, worker.index());
                thread.setDaemon(true);
                worker.bind(thread); // before it starts: a sender may unpark it from the first schedule on
                return thread;
            });
        }
    }

    /**
     * Queues a mailbox the caller moved to SCHEDULED on the global queue and wakes a parked worker unless one
     * is searching. Safe from any thread.
     *
     * @param mailbox the mailbox.
     */
    public void schedule(final Mailbox mailbox)
    {
        if (!activations.offer(mailbox))
        {
            OVERFLOW_COUNT.getAndAdd(this, 1);
            overflow.offer(mailbox);
        }
        wakeIfNobodySearching();
    }

    /**
     * Index of this pool on its node.
     *
     * @return the pool id.
     */
    public int poolId()
    {
        return poolId;
    }

    /**
     * The pool's name.
     *
     * @return the name.
     */
    public String name()
    {
        return name;
    }

    /**
     * Most events per activation.
     *
     * @return the quantum in events.
     */
    public int eventsPerActivation()
    {
        return eventsPerActivation;
    }

    /**
     * Soft cap on activation time.
     *
     * @return the quantum in nanoseconds.
     */
    public long timePerActivationNs()
    {
        return timePerActivationNs;
    }

    /**
     * The workers, for counters.
     *
     * @return the workers; do not modify.
     */
    public Worker[] workers()
    {
        return workers;
    }

    /**
     * Whether no mailbox is queued or held and every worker is idle. Only meaningful once no new work can
     * arrive from outside (during shutdown).
     *
     * @return true if quiescent at the time of the call.
     */
    public boolean isQuiescent()
    {
        if (hasWorkForIdle())
        {
            return false;
        }
        for (final Worker worker : workers)
        {
            if (!worker.isIdle())
            {
                return false;
            }
        }
        return !hasWorkForIdle();
    }

    /**
     * Stops the workers after their current activation and waits for the threads to exit.
     *
     * @param timeoutNs how long to wait for each thread.
     * @return true if all threads exited.
     * @throws InterruptedException if interrupted while waiting.
     */
    public boolean stop(final long timeoutNs) throws InterruptedException
    {
        running = false;
        boolean allExited = true;
        for (final Worker worker : workers)
        {
            final Thread thread = worker.thread();
            if (thread != null)
            {
                LockSupport.unpark(thread);
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNs)));
                allExited &= !thread.isAlive();
            }
        }
        return allExited;
    }

    boolean isRunning()
    {
        return running;
    }

    long spinBeforeSleepNs()
    {
        return spinBeforeSleepNs;
    }

    MailboxRunner runner()
    {
        return runner;
    }

    /** The clock workers time their busy, idle and spinning periods with. */
    NanoClock clock()
    {
        return clock;
    }

    /** The next mailbox of the global queue: the overflow first, when it has any, so that it cannot starve. */
    Mailbox pollGlobal()
    {
        if (overflowCount > 0)
        {
            final Mailbox overflowed = overflow.poll();
            if (overflowed != null)
            {
                OVERFLOW_COUNT.getAndAdd(this, -1);
                return overflowed;
            }
        }
        return activations.poll();
    }

    boolean hasGlobal()
    {
        return !activations.isEmpty() || overflowCount > 0;
    }

    /** Whether a searching worker would find something: the global queue or any worker's local queue. */
    boolean hasWorkForIdle()
    {
        if (hasGlobal())
        {
            return true;
        }
        for (final Worker worker : workers)
        {
            if (worker.hasQueued())
            {
                return true;
            }
        }
        return false;
    }

    /** Whether a worker other than the given one is awake: one that will take global work without a wake-up. */
    boolean anotherAwake(final Worker self)
    {
        for (final Worker worker : workers)
        {
            if (worker != self && worker.isAwake())
            {
                return true;
            }
        }
        return false;
    }

    void onParking()
    {
        parkedWorkers.incrementAndGet();
    }

    void onUnparked()
    {
        parkedWorkers.decrementAndGet();
    }

    void onSearching()
    {
        searchingWorkers.incrementAndGet();
    }

    /** A searching worker found work or parks; the last searcher to find work passes the baton. */
    void onSearchEnded()
    {
        if (searchingWorkers.decrementAndGet() == 0 && parkedWorkers.get() > 0 && hasWorkForIdle())
        {
            wakeOne();
        }
    }

    /** Called after queueing work: the queue write must be visible before the searcher count is read. */
    void wakeIfNobodySearching()
    {
        VarHandle.fullFence();
        if (searchingWorkers.get() == 0 && parkedWorkers.get() > 0)
        {
            wakeOne();
        }
    }

    private void wakeOne()
    {
        for (final Worker worker : workers)
        {
            if (worker.tryWake())
            {
                return;
            }
        }
    }
}
