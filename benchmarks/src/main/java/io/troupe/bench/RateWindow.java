package io.troupe.bench;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Measures how fast a growing counter advances: it lets the load run for the warm-up, reads the counter and
 * the clock, lets it run for the window, reads both again, and divides the counter's delta by the exact
 * elapsed nanoseconds. The load runs on other threads; this one only sleeps.
 */
final class RateWindow
{
    private static final double NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);

    private RateWindow()
    {
    }

    /**
     * Waits out the warm-up, then measures the counter's rate over the window.
     *
     * @param counter   a counter that only grows, readable from this thread.
     * @param warmupNs  how long to wait before the window opens.
     * @param measureNs how long the window stays open.
     * @return counter increments per second within the window.
     * @throws InterruptedException if interrupted while waiting.
     */
    static double perSecond(final LongSupplier counter, final long warmupNs, final long measureNs)
        throws InterruptedException
    {
        TimeUnit.NANOSECONDS.sleep(warmupNs);
        final long startCount = counter.getAsLong();
        final long startNs = System.nanoTime();
        TimeUnit.NANOSECONDS.sleep(measureNs);
        final long endCount = counter.getAsLong();
        final long endNs = System.nanoTime();
        Report.progress("  window: %d increments in %.3f s", endCount - startCount,
            (endNs - startNs) / NANOS_PER_SECOND);
        return (endCount - startCount) * NANOS_PER_SECOND / (endNs - startNs);
    }
}
