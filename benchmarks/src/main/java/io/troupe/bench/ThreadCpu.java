package io.troupe.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time used by groups of threads (by name prefix) between two snapshots, so a driver can say how many
 * nanoseconds of CPU each side spent per event: a figure that does not depend on how the OS shared the cores
 * in a run, unlike the throughput, and so tells which side a change made dearer.
 */
final class ThreadCpu
{
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Map<Long, Long> startNs = new HashMap<>();

    private ThreadCpu()
    {
    }

    /**
     * Takes the first snapshot.
     *
     * @return the snapshot.
     */
    static ThreadCpu start()
    {
        final ThreadCpu cpu = new ThreadCpu();
        for (final long id : THREADS.getAllThreadIds())
        {
            cpu.startNs.put(id, THREADS.getThreadCpuTime(id));
        }
        return cpu;
    }

    /**
     * CPU nanoseconds the live threads whose names start with {@code prefix} used since {@link #start}.
     *
     * @param prefix the thread name prefix.
     * @return the CPU time, ns.
     */
    long usedNs(final String prefix)
    {
        long used = 0;
        for (final ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds()))
        {
            if (info != null && info.getThreadName().startsWith(prefix))
            {
                final long now = THREADS.getThreadCpuTime(info.getThreadId());
                used += now - startNs.getOrDefault(info.getThreadId(), 0L);
            }
        }
        return used;
    }
}
