package io.troupe.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Reads the live heap: forces full collections until the used heap stops changing, then reports it. Relies on
 * {@link System#gc()} being honoured (no {@code -XX:+DisableExplicitGC}).
 */
final class HeapGauge
{
    private static final int MIN_ROUNDS = 2;
    private static final int MAX_ROUNDS = 10;
    /** Two readings this close count as settled: 0.06 bytes per actor at a million actors. */
    private static final long SETTLED_BYTES = 64 * 1024;
    private static final long PAUSE_MS = 20;

    private HeapGauge()
    {
    }

    /**
     * Collects until two consecutive readings differ by at most {@value #SETTLED_BYTES} bytes (at most
     * {@value #MAX_ROUNDS} collections).
     *
     * @return used heap bytes after the last collection.
     * @throws InterruptedException if interrupted between collections.
     */
    static long settledUsedBytes() throws InterruptedException
    {
        final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long previousBytes = Long.MIN_VALUE;
        long usedBytes = 0;
        for (int round = 1; round <= MAX_ROUNDS; round++)
        {
            System.gc();
            Thread.sleep(PAUSE_MS); // lets reference processing and cleaners finish between collections
            usedBytes = memory.getHeapMemoryUsage().getUsed();
            if (round >= MIN_ROUNDS && Math.abs(usedBytes - previousBytes) <= SETTLED_BYTES)
            {
                return usedBytes;
            }
            previousBytes = usedBytes;
        }
        Report.progress("  heap did not settle within %d collections; last reading %d bytes", MAX_ROUNDS, usedBytes);
        return usedBytes;
    }
}
