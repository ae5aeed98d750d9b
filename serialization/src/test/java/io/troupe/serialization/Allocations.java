package io.troupe.serialization;

import com.sun.management.ThreadMXBean;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Bytes the current thread allocates while running something, where the JVM can tell.
 */
final class Allocations
{
    private Allocations()
    {
    }

    /** Calls each allocation test makes: any per-call allocation (16 bytes at least) would show many times over. */
    static final int CALLS = 100_000;

    /**
     * Runs the task {@link #CALLS} times, after as many warm-up calls, and returns the bytes the measured calls
     * allocated on this thread. Fewer bytes than calls means nothing is allocated per call (what remains is the
     * JVM's own noise: compilation, safepoints). Skips the calling test on JVMs that cannot measure.
     *
     * @param task one call of what to measure.
     * @return bytes allocated by {@link #CALLS} calls.
     */
    static long allocatedBy(final Runnable task)
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean(); // name clash
        assumeTrue(bean instanceof ThreadMXBean, "no per-thread allocation counter");
        final ThreadMXBean threads = (ThreadMXBean)bean;
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
            "per-thread allocation counter disabled");
        for (int i = 0; i < CALLS; i++)
        {
            task.run();
        }
        final long threadId = Thread.currentThread().getId();
        final long before = threads.getThreadAllocatedBytes(threadId);
        for (int i = 0; i < CALLS; i++)
        {
            task.run();
        }
        return threads.getThreadAllocatedBytes(threadId) - before;
    }
}
