package io.troupe.bench.pekko;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * CPU time used by groups of threads (selected by name prefix) since a start snapshot, from the
 * {@link ThreadMXBean}: shows on stderr which side of a workload a run spent its cores on.
 */
final class ThreadCpu
{
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Map<Long, Long> startNs;

    private ThreadCpu(final Map<Long, Long> startNs)
    {
        this.startNs = startNs;
    }

    /**
     * Takes the start snapshot.
     *
     * @return the snapshot.
     */
    static ThreadCpu start()
    {
        final Map<Long, Long> start = new HashMap<>();
        for (final long id : THREADS.getAllThreadIds())
        {
            start.put(id, Math.max(0, THREADS.getThreadCpuTime(id)));
        }
        return new ThreadCpu(start);
    }

    /**
     * CPU time of the live threads whose name starts with {@code prefix}, since the snapshot.
     *
     * @param prefix the thread name prefix.
     * @return nanoseconds.
     */
    long usedNs(final String prefix)
    {
        long total = 0;
        for (final ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds()))
        {
            if (info != null && info.getThreadName().startsWith(prefix))
            {
                total += used(info.getThreadId());
            }
        }
        return total;
    }

    /**
     * CPU milliseconds of each live thread whose name starts with {@code prefix}, since the snapshot.
     *
     * @param prefix the thread name prefix.
     * @return e.g. {@code [3950, 3948]}.
     */
    String perThreadMs(final String prefix)
    {
        final StringJoiner text = new StringJoiner(", ", "[", "]");
        for (final ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds()))
        {
            if (info != null && info.getThreadName().startsWith(prefix))
            {
                text.add(Long.toString(used(info.getThreadId()) / 1_000_000));
            }
        }
        return text.toString();
    }

    private long used(final long id)
    {
        final long nowNs = THREADS.getThreadCpuTime(id);
        return nowNs < 0 ? 0 : nowNs - startNs.getOrDefault(id, 0L);
    }
}
