package io.troupe.bench;

import com.sun.management.ThreadMXBean;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time and heap allocation of groups of threads (by name prefix) between two snapshots, so a driver can say how
 * many nanoseconds of CPU each side spent per event: a figure that does not depend on how the OS shared the cores
 * in a run, unlike the throughput, and so tells which side a change made dearer.
 */
final class ThreadCpu
{
    private static final java.lang.management.ThreadMXBean THREADS = ManagementFactory.getThreadMXBean(); // name clash

    private final Map<Long, Long> startNs = new HashMap<>();
    private final Map<Long, Long> startBytes = new HashMap<>();

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
            cpu.startBytes.put(id, allocatedBytes(id));
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

    /**
     * Bytes the live threads whose names start with {@code prefix} allocated on the heap since {@link #start}.
     *
     * @param prefix the thread name prefix.
     * @return the bytes, or -1 if this JVM does not measure allocation per thread.
     */
    long allocatedBytes(final String prefix)
    {
        if (!(THREADS instanceof ThreadMXBean))
        {
            return -1;
        }
        long allocated = 0;
        for (final ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds()))
        {
            if (info != null && info.getThreadName().startsWith(prefix))
            {
                allocated += allocatedBytes(info.getThreadId()) - startBytes.getOrDefault(info.getThreadId(), 0L);
            }
        }
        return allocated;
    }

    private static long allocatedBytes(final long threadId)
    {
        return THREADS instanceof ThreadMXBean ? ((ThreadMXBean)THREADS).getThreadAllocatedBytes(threadId) : 0;
    }

    /**
     * CPU milliseconds per live thread whose name starts with {@code prefix}, since {@link #start}, as
     * {@code name=ms} pairs: shows how the work spread over a pool's workers.
     *
     * @param prefix the thread name prefix.
     * @return the pairs, space separated.
     */
    String perThreadMs(final String prefix)
    {
        final StringBuilder out = new StringBuilder();
        for (final ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds()))
        {
            if (info != null && info.getThreadName().startsWith(prefix))
            {
                final long used = THREADS.getThreadCpuTime(info.getThreadId()) -
                    startNs.getOrDefault(info.getThreadId(), 0L);
                out.append(out.length() == 0 ? "" : " ").append(info.getThreadName()).append('=')
                    .append(used / 1_000_000);
            }
        }
        return out.toString();
    }
}
