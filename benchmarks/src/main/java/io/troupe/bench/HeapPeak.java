package io.troupe.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The most heap this process has used, sampled every {@value #SAMPLE_MS} ms by a daemon thread started on first
 * use. The figure includes garbage not yet collected, so it is what the heap had to hold at its fullest; a
 * peak near {@link Runtime#maxMemory()} means the heap was (or nearly was) exhausted.
 */
final class HeapPeak
{
    private static final long SAMPLE_MS = 10;
    private static final AtomicLong PEAK = new AtomicLong();
    private static boolean started; // guarded by the class lock

    private HeapPeak()
    {
    }

    /**
     * Starts sampling if it has not started yet, and starts the peak again from the heap in use now.
     */
    static void reset()
    {
        start();
        PEAK.set(usedBytes());
    }

    /**
     * The peak since the last {@link #reset()}, including the heap in use now.
     *
     * @return bytes.
     */
    static long peakBytes()
    {
        start();
        return PEAK.accumulateAndGet(usedBytes(), Math::max);
    }

    private static long usedBytes()
    {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static synchronized void start()
    {
        if (started)
        {
            return;
        }
        started = true;
        final Thread sampler = new Thread(HeapPeak::sample, "heap-peak-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    private static void sample()
    {
        final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        try
        {
            while (true)
            {
                PEAK.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                TimeUnit.MILLISECONDS.sleep(SAMPLE_MS);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
