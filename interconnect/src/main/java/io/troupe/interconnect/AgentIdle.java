package io.troupe.interconnect;

import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.locks.LockSupport;

/**
 * The interconnect agent's idle strategy in back-off mode, by time rather than by count: after the last duty
 * cycle that did work it spins for {@code spinNs}, then yields for {@code yieldNs} (on a small machine this
 * hands the core to a thread that has work, such as the pool worker an envelope was just handed to), then
 * parks for pauses that double from {@code minParkNs} up to {@code maxParkNs}. A sender that
 * {@link #signal signals} new outbound work wakes a parked agent at once; inbound datagrams are seen at the
 * next duty cycle, so {@code maxParkNs} bounds the inbound latency of an idle node, and the spin and yield
 * windows decide whether a reply that comes back within them is seen without a wake-up.
 *
 * <p>Counting spins instead (as Agrona's back-off does) ties the windows to the cost of a duty cycle, which
 * with the media driver on this thread varies from tens of nanoseconds to microseconds.
 *
 * <p>Public so that other agents of Troupe's that share a small machine with nodes (the node's client ingress, the
 * {@code cluster-client}'s agent) idle the same way.
 */
public final class AgentIdle implements IdleStrategy
{
    /**
     * Spin after the last work, briefly: a sender's next envelope in a burst. Longer spins cost more than they
     * save on a small machine: a spinning agent holds the core the pool workers and the other node need
     * (measured on 2 cores, two nodes: remote RTT p50 30 us with 2 us of spinning, 47 us with 20 us, 98 us with
     * 60 us).
     */
    static final long DEFAULT_SPIN_NS = 2_000;
    /**
     * Then yield: threads with work (the pool worker that handles what just arrived) run first, and the agent is
     * back within microseconds to see a reply from a peer on the same host; parking instead would add a
     * wake-up of 50 us or more to each such reply.
     */
    static final long DEFAULT_YIELD_NS = 100_000;
    static final long DEFAULT_MIN_PARK_NS = 20_000;
    /** The longest park: about 2,000 duty cycles a second per idle node. */
    static final long DEFAULT_MAX_PARK_NS = 500_000;

    private final long spinNs;
    private final long yieldUntilNs;
    private final long minParkNs;
    private final long maxParkNs;
    private volatile Thread thread;
    private volatile boolean parked;
    private volatile boolean signalled;
    /** When the idle period began (0: working). */
    private long idleSinceNs;
    private long parkNs;

    /** The default windows: spin 2 us, yield 100 us, then park 20 us doubling to 500 us. */
    public AgentIdle()
    {
        this(DEFAULT_MAX_PARK_NS);
    }

    /**
     * The default spin and yield windows, then parks from 20 us doubling up to {@code maxParkNs}.
     *
     * @param maxParkNs the longest park ({@code troupe.transport.max-idle-park}), at least 20 us.
     */
    public AgentIdle(final long maxParkNs)
    {
        this(DEFAULT_SPIN_NS, DEFAULT_YIELD_NS, DEFAULT_MIN_PARK_NS, Math.max(DEFAULT_MIN_PARK_NS, maxParkNs));
    }

    AgentIdle(final long spinNs, final long yieldNs, final long minParkNs, final long maxParkNs)
    {
        this.spinNs = spinNs;
        this.yieldUntilNs = spinNs + yieldNs;
        this.minParkNs = minParkNs;
        this.maxParkNs = maxParkNs;
        this.parkNs = minParkNs;
    }

    /** A sender queued work: make sure the agent runs soon. Any thread. */
    public void signal()
    {
        if (!signalled)
        {
            signalled = true;
        }
        // Dekker with the agent: it sets parked then reads signalled; we set signalled then read parked
        if (parked)
        {
            final Thread agentThread = thread;
            if (agentThread != null)
            {
                LockSupport.unpark(agentThread);
            }
        }
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            reset();
        }
        else
        {
            idle();
        }
    }

    @Override
    public void idle()
    {
        if (signalled)
        {
            signalled = false;
            idleSinceNs = 0;
            return;
        }
        final long nowNs = System.nanoTime();
        if (idleSinceNs == 0)
        {
            idleSinceNs = nowNs;
        }
        final long idleNs = nowNs - idleSinceNs;
        if (idleNs < spinNs)
        {
            Thread.onSpinWait();
            return;
        }
        if (idleNs < yieldUntilNs)
        {
            Thread.yield();
            return;
        }
        if (thread == null)
        {
            thread = Thread.currentThread();
        }
        parked = true;
        if (!signalled)
        {
            LockSupport.parkNanos(parkNs);
        }
        parked = false;
        if (signalled)
        {
            signalled = false;
            reset(); // woken for work: the next pause starts short again
            return;
        }
        parkNs = Math.min(parkNs * 2, maxParkNs);
    }

    @Override
    public void reset()
    {
        idleSinceNs = 0;
        parkNs = minParkNs;
    }

    /** The next park's length, if the agent stays idle (tests). */
    long nextParkNs()
    {
        return parkNs;
    }

    @Override
    public String alias()
    {
        return "troupe-backoff";
    }
}
