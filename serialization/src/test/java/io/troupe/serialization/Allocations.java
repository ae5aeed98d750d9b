package io.troupe.serialization;

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

    /**
     * Runs the task, after a warm-up run, and returns what the measured run allocated on this thread. Skips the
     * calling test on JVMs that cannot measure.
     *
     * @param task what to measure.
     * @return bytes allocated.
     */
    static long allocatedBy(final Runnable task)
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "no per-thread allocation counter");
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)bean;
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
            "per-thread allocation counter disabled");
        task.run();
        final long threadId = Thread.currentThread().getId();
        final long before = threads.getThreadAllocatedBytes(threadId);
        task.run();
        return threads.getThreadAllocatedBytes(threadId) - before;
    }
}
