package io.troupe.interconnect;

import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.locks.LockSupport;

/**
 * The interconnect agent's idle strategy in back-off mode: spin, then yield, then park for growing pauses up
 * to a maximum, and wake at once when a sender {@link #signal signals} new outbound work. Inbound frames are
 * seen at the next duty cycle, so the maximum pause bounds inbound latency on an idle node.
 */
final class AgentIdle implements IdleStrategy
{
    private static final int MAX_SPINS = 200;
    private static final int MAX_YIELDS = 50;
    private static final long MIN_PARK_NS = 1_000;

    private final long maxParkNs;
    private volatile Thread thread;
    private volatile boolean parked;
    private volatile boolean signalled;
    private int spins;
    private int yields;
    private long parkNs = MIN_PARK_NS;

    AgentIdle(final long maxParkNs)
    {
        this.maxParkNs = maxParkNs;
    }

    /** A sender queued work: make sure the agent runs soon. Any thread. */
    void signal()
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
            return;
        }
        if (spins < MAX_SPINS)
        {
            spins++;
            Thread.onSpinWait();
            return;
        }
        if (yields < MAX_YIELDS)
        {
            yields++;
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
        signalled = false;
        parkNs = Math.min(parkNs * 2, maxParkNs);
    }

    @Override
    public void reset()
    {
        spins = 0;
        yields = 0;
        parkNs = MIN_PARK_NS;
    }

    @Override
    public String alias()
    {
        return "troupe-backoff";
    }
}
