package io.troupe.actor.internal.scheduler;

import io.troupe.actor.Envelope;
import io.troupe.actor.SchedulerCookie;
import org.agrona.DeadlineTimerWheel;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.NanoClock;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Delivers envelopes after a delay, and runs {@link TimerTask}s (scheduled sends, once or at a fixed rate), from a
 * hashed timer wheel owned by this agent's thread. Any thread may {@link #schedule}; requests reach the agent through
 * an MPSC queue. A timer whose {@link SchedulerCookie} was detached, or a task that was cancelled, fires into nothing
 * and is counted as stale (a cancelled task stays on the wheel until it is due).
 *
 * <p>Idle: with timers pending the agent parks until the next tick; with none it parks until a request
 * arrives (the requester unparks it) or {@link #wakeForClose()} is called, so an idle node costs no timer
 * wake-ups and still stops at once.
 */
public final class TimerAgent implements Agent
{
    /** Wheel tick: 2^20 ns, about 1 ms. */
    public static final long TICK_RESOLUTION_NS = 1L << 20;
    /** Ticks per wheel revolution. */
    public static final int TICKS_PER_WHEEL = 1024;
    private static final long IDLE_PARK_NS = TimeUnit.SECONDS.toNanos(1);

    private final NanoClock clock;
    private final Consumer<Envelope> delivery;
    private final DeadlineTimerWheel wheel;
    private final ManyToOneConcurrentLinkedQueue<Request> requests = new ManyToOneConcurrentLinkedQueue<>();
    private final Long2ObjectHashMap<Request> pending = new Long2ObjectHashMap<>();
    private final DeadlineTimerWheel.TimerHandler onExpiry = this::onExpiry;
    private final AtomicLong scheduled = new AtomicLong();
    private final AtomicLong fired = new AtomicLong();
    private final AtomicLong stale = new AtomicLong();
    private final AtomicLong discarded = new AtomicLong();
    private volatile boolean sleeping;
    private volatile boolean closed;
    private final AtomicInteger schedulersInFlight = new AtomicInteger();
    private volatile boolean stopping;
    private volatile Thread thread;

    /**
     * Creates the agent.
     *
     * @param clock    monotonic clock; tests inject one and drive {@link #doWork()} themselves.
     * @param delivery called on the agent's thread with each envelope that is due.
     */
    public TimerAgent(final NanoClock clock, final Consumer<Envelope> delivery)
    {
        this.clock = clock;
        this.delivery = delivery;
        this.wheel = new DeadlineTimerWheel(TimeUnit.NANOSECONDS, clock.nanoTime(), TICK_RESOLUTION_NS,
            TICKS_PER_WHEEL);
    }

    /**
     * Schedules an envelope. Safe from any thread; never blocks.
     *
     * @param delayNs  delay in nanoseconds; negative counts as 0.
     * @param envelope what to deliver.
     * @param cookie   detach it to make the timer stale; may be null.
     */
    public void schedule(final long delayNs, final Envelope envelope, final SchedulerCookie cookie)
    {
        schedulersInFlight.incrementAndGet();
        try
        {
            if (closed)
            {
                discarded.incrementAndGet();
                return;
            }
            requests.offer(new Request(clock.nanoTime() + Math.max(0, delayNs), envelope, cookie, null));
            scheduled.incrementAndGet();
        }
        finally
        {
            schedulersInFlight.decrementAndGet();
        }
        wakeIfSleeping();
    }

    /**
     * Schedules a task: it runs when due and again after the period it returns, until it returns a negative value.
     * Safe from any thread; never blocks.
     *
     * @param delayNs delay to its first run in nanoseconds; negative counts as 0.
     * @param task    what to run.
     * @return false if the agent has closed and the task will never run (counted as discarded).
     */
    public boolean schedule(final long delayNs, final TimerTask task)
    {
        schedulersInFlight.incrementAndGet();
        try
        {
            if (closed)
            {
                discarded.incrementAndGet();
                return false;
            }
            requests.offer(new Request(clock.nanoTime() + Math.max(0, delayNs), null, null, task));
            scheduled.incrementAndGet();
        }
        finally
        {
            schedulersInFlight.decrementAndGet();
        }
        wakeIfSleeping();
        return true;
    }

    private void wakeIfSleeping()
    {
        if (sleeping)
        {
            final Thread t = thread;
            if (t != null)
            {
                LockSupport.unpark(t);
            }
        }
    }

    /**
     * Wakes the agent and keeps it from parking for long again, so that its runner, which waits for the agent
     * to notice it should stop, can close it at once instead of after an idle park of up to a second. Safe
     * from any thread; call right before closing the runner.
     */
    public void wakeForClose()
    {
        stopping = true;
        final Thread t = thread;
        if (t != null)
        {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void onStart()
    {
        thread = Thread.currentThread();
    }

    @Override
    public int doWork()
    {
        final long nowNs = clock.nanoTime();
        if (wheel.timerCount() == 0)
        {
            wheel.currentTickTime(nowNs); // skip the ticks we slept through
        }
        int work = 0;
        Request request;
        while ((request = requests.poll()) != null)
        {
            pending.put(wheel.scheduleTimer(request.deadlineNs), request);
            work++;
        }
        while (true)
        {
            final long tickTime = wheel.currentTickTime();
            work += wheel.poll(nowNs, onExpiry, Integer.MAX_VALUE);
            if (wheel.currentTickTime() == tickTime)
            {
                break;
            }
        }
        return work;
    }

    @Override
    public void onClose()
    {
        closed = true;
        // a scheduler that got past the closed check before it was set must finish its offer before the drain
        while (schedulersInFlight.get() != 0)
        {
            Thread.onSpinWait();
        }
        long dropped = pending.size();
        while (requests.poll() != null)
        {
            dropped++;
        }
        discarded.addAndGet(dropped);
        pending.clear();
        wheel.clear();
    }

    @Override
    public String roleName()
    {
        return "troupe-timer";
    }

    /**
     * An idle strategy that parks until the next tick while timers are pending and until a request arrives
     * otherwise.
     *
     * @return the strategy, for the agent's runner.
     */
    public IdleStrategy idleStrategy()
    {
        return new TimerIdleStrategy();
    }

    /**
     * Timers requested so far.
     *
     * @return the count.
     */
    public long scheduledCount()
    {
        return scheduled.get();
    }

    /**
     * Timers delivered so far (each run of a repeating task counts).
     *
     * @return the count.
     */
    public long firedCount()
    {
        return fired.get();
    }

    /**
     * Timers that fired after their cookie was detached, or tasks that ran after they were cancelled, and delivered
     * nothing.
     *
     * @return the count.
     */
    public long staleCount()
    {
        return stale.get();
    }

    /**
     * Timers dropped because the agent closed first.
     *
     * @return the count.
     */
    public long discardedCount()
    {
        return discarded.get();
    }

    /**
     * Timers waiting in the wheel (agent thread only).
     *
     * @return the count.
     */
    public long pendingCount()
    {
        return wheel.timerCount();
    }

    private boolean onExpiry(final TimeUnit unit, final long nowNs, final long timerId)
    {
        final Request request = pending.remove(timerId);
        if (request != null)
        {
            if (request.task != null)
            {
                runTask(request, nowNs);
            }
            else if (request.cookie != null && !request.cookie.isAttached())
            {
                stale.incrementAndGet();
            }
            else
            {
                fired.incrementAndGet();
                delivery.accept(request.envelope);
            }
        }
        return true;
    }

    private void runTask(final Request request, final long nowNs)
    {
        final long next = request.task.fire();
        if (next == TimerTask.SKIPPED)
        {
            stale.incrementAndGet();
            return;
        }
        fired.incrementAndGet();
        if (next > 0)
        {
            // a fixed rate from the first deadline; a run late by more than a period is not repeated to catch up
            request.deadlineNs = Math.max(request.deadlineNs + next, nowNs);
            pending.put(wheel.scheduleTimer(request.deadlineNs), request);
        }
    }

    private final class TimerIdleStrategy implements IdleStrategy
    {
        @Override
        public void idle(final int workCount)
        {
            if (workCount <= 0)
            {
                idle();
            }
        }

        @Override
        public void idle()
        {
            if (wheel.timerCount() > 0)
            {
                LockSupport.parkNanos(TICK_RESOLUTION_NS);
                return;
            }
            sleeping = true;
            if (requests.isEmpty() && !stopping)
            {
                LockSupport.parkNanos(IDLE_PARK_NS);
            }
            sleeping = false;
        }

        @Override
        public void reset()
        {
        }
    }

    /** A timer: an envelope to deliver (with its cookie), or a task to run. */
    private static final class Request
    {
        long deadlineNs;
        final Envelope envelope;
        final SchedulerCookie cookie;
        final TimerTask task;

        Request(final long deadlineNs, final Envelope envelope, final SchedulerCookie cookie, final TimerTask task)
        {
            this.deadlineNs = deadlineNs;
            this.envelope = envelope;
            this.cookie = cookie;
            this.task = task;
        }
    }
}
