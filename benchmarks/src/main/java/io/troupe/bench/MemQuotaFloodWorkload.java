package io.troupe.bench;

import io.troupe.memquota.Account;
import io.troupe.memquota.CoarseClock;
import io.troupe.memquota.CollapsedException;
import io.troupe.memquota.MemoryQueue;
import io.troupe.memquota.MemoryQuotaConfig;
import io.troupe.memquota.MemoryQuotaCounters;
import io.troupe.memquota.MemoryQuotaException;
import io.troupe.memquota.MemoryQuotaTracker;
import io.troupe.memquota.MemoryReclaimer;
import io.troupe.memquota.Participation;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code memquota.flood}: floods N memory-tracked queues that nobody reads and checks that the memory quota
 * keeps the heap bounded.
 *
 * <p>One {@link MemoryQuotaTracker} with max M MiB (low water 75%), clock {@code CoarseClock.cached(1 ms)},
 * and a {@link MemoryReclaimer} on its own thread ({@link AgentRunner}, {@link BackoffIdleStrategy}, woken by
 * unpark when a claim crosses max). N accounts, each with one unbounded {@link MemoryQueue}; nobody receives.
 * {@value #PRODUCERS} producer threads loop over all the queues, each starting at its own offset, sending
 * 1 KiB elements ({@link FloodChunk}, cost 1040 bytes). A queue found collapsed is replaced by a new queue on
 * a new account, as a user of a collapsed session would do. A monitor thread samples every millisecond the
 * tracked bytes, the used heap and the reclaim latency (from the first sample over max to the first sample
 * at or under low water).
 */
final class MemQuotaFloodWorkload implements Workload
{
    private static final String QUEUES = "queues";
    private static final String MAX_MB = "max-mb";
    private static final String HARD_CAP_PCT = "hard-cap-pct";
    private static final int DEFAULT_QUEUES = 1000;
    private static final int MAX_QUEUES = 1_000_000;
    private static final long DEFAULT_MAX_MB = 64;
    private static final long MAX_MAX_MB = 1L << 20;
    private static final int PRODUCERS = 2;
    /** Sends a producer counts locally before adding them to the shared count. */
    private static final int PUBLISH_BATCH = 1024;
    private static final long SAMPLE_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long CLOCK_RESOLUTION_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final double NANOS_PER_MILLI = TimeUnit.MILLISECONDS.toNanos(1);

    @Override
    public String name()
    {
        return "memquota.flood";
    }

    @Override
    public List<String> options()
    {
        return List.of(QUEUES, MAX_MB, HARD_CAP_PCT);
    }

    @Override
    public String usage()
    {
        return "  memquota.flood [--queues N] [--max-mb M] [--hard-cap-pct P]\n" +
            "                                 2 threads flood N unread memory queues (default 1000) under a\n" +
            "                                 quota of M MiB (default 64), claims refused past P% of it (default\n" +
            "                                 125); prints peak tracked bytes, peak heap,\n" +
            "                                 worst reclaim latency and whether an OutOfMemoryError occurred\n" +
            "                                 (--warmup defaults to 0 here; --threads is ignored)";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final int queueCount = (int)options.count(QUEUES, DEFAULT_QUEUES, 1, MAX_QUEUES);
        final long maxBytes = options.count(MAX_MB, DEFAULT_MAX_MB, 1, MAX_MAX_MB) << 20;
        final long warmupNs = options.has(Options.WARMUP) ? options.warmupNs() : 0;
        final long measureNs = options.measureNs();
        final long capPercent = options.count(HARD_CAP_PCT, 125, 100, 400);
        final MemoryQuotaConfig config = MemoryQuotaConfig.of(maxBytes).hardCap(maxBytes * capPercent / 100);
        final long capBytes = config.hardCapBytes();
        final long boundBytes = capBytes + queueCount * Participation.LOCAL_CACHE_MAX_BYTES + FloodChunk.COST_BYTES;
        Report.progress("memquota.flood: queues=%d max=%d lowWater=%d hardCap=%d producers=%d warmup=%.1fs " +
            "window=%.1fs", queueCount, maxBytes, config.lowWaterBytes(), capBytes, PRODUCERS, warmupNs / 1e9,
            measureNs / 1e9);
        Report.progress("  bound: hard cap + queues * LOCAL_CACHE_MAX_BYTES + one element = %d + %d * %d + %d = %d " +
            "bytes", capBytes, queueCount, Participation.LOCAL_CACHE_MAX_BYTES, FloodChunk.COST_BYTES, boundBytes);

        final MemoryQuotaTracker tracker = MemoryQuotaTracker.create(config, CoarseClock.cached(CLOCK_RESOLUTION_NS));
        final MemoryReclaimer reclaimer = new MemoryReclaimer(tracker);
        final TimedReclaimer timed = new TimedReclaimer(reclaimer, tracker);
        final AgentRunner runner = new AgentRunner(new BackoffIdleStrategy(),
            ex -> Report.progress("  reclaimer error: %s", ex), null, timed);
        final Thread runnerThread = AgentRunner.startOnThread(runner);
        reclaimer.wakeUpWith(() -> LockSupport.unpark(runnerThread));

        final Flood flood = new Flood(tracker, queueCount);
        final Monitor monitor = new Monitor(tracker, flood);
        final Thread monitorThread = new Thread(monitor, "memquota-flood-monitor");
        final Thread[] producers = new Thread[PRODUCERS];
        try
        {
            monitorThread.start();
            for (int p = 0; p < PRODUCERS; p++)
            {
                final int offset = p * queueCount / PRODUCERS;
                producers[p] = new Thread(() -> flood.produce(offset), "memquota-flood-producer-" + p);
                producers[p].start();
            }
            if (warmupNs > 0)
            {
                TimeUnit.NANOSECONDS.sleep(warmupNs);
            }
            monitor.reset();
            timed.reset();
            flood.windowStart();
            final long startNs = System.nanoTime();
            TimeUnit.NANOSECONDS.sleep(measureNs);
            final long elapsedNs = System.nanoTime() - startNs;
            flood.stop();
            for (final Thread producer : producers)
            {
                producer.join();
            }
            monitor.stop();
            monitorThread.join();
            final MemoryQuotaCounters counters = tracker.counters();
            runner.close(); // the episode latencies are complete from here on

            final long peakTracked = Math.max(monitor.peakTrackedBytes(), flood.peakTrackedBytes());
            Report.progress("  window: %.3f s, %d elements sent (%.0f/s), %d queues replaced, %d samples",
                elapsedNs / 1e9, flood.sentInWindow(), flood.sentInWindow() * 1e9 / elapsedNs,
                flood.replaced.get(), monitor.samples());
            Report.progress("  counters: reclamations=%d participantsCollapsed=%d bytesReclaimed=%d unresponsive=%d" +
                    " accounts=%d usedBytes=%d",
                counters.reclamations(), counters.participantsCollapsed(), counters.bytesReclaimed(),
                counters.unresponsive(), counters.accounts(), counters.usedBytes());
            Report.progress("  peak tracked %d bytes (monitor %d, producers %d) vs bound %d: %s (%+d bytes vs max)",
                peakTracked, monitor.peakTrackedBytes(), flood.peakTrackedBytes(), boundBytes,
                peakTracked <= boundBytes ? "within" : "OVER", peakTracked - maxBytes);
            Report.progress("  reclaim episodes %d (claim over max -> round ends at or under low water): mean %.3f " +
                    "ms, p50 %.3f ms, p99 %.3f ms, worst %.3f ms%s", timed.episodes(), timed.meanNs() / NANOS_PER_MILLI,
                timed.percentileNs(0.5) / NANOS_PER_MILLI, timed.percentileNs(0.99) / NANOS_PER_MILLI,
                timed.worstNs() / NANOS_PER_MILLI,
                counters.openReclaimNs() > 0 ?
                    String.format("; one still open at the end after %.3f ms, counted",
                        counters.openReclaimNs() / NANOS_PER_MILLI) : "");
            final Throwable oom = firstOom(flood, monitor);
            if (oom != null)
            {
                Report.progress("  OutOfMemoryError: %s", oom);
            }
            Report.result("memquota.flood.peak-tracked-bytes", peakTracked, "bytes");
            Report.result("memquota.flood.peak-over-max", (double)peakTracked / maxBytes, "ratio", 3);
            Report.result("memquota.flood.peak-heap-bytes", monitor.peakHeapBytes(), "bytes");
            Report.result("memquota.flood.reclaim-ms",
                Math.max(timed.worstNs(), counters.openReclaimNs()) / NANOS_PER_MILLI, "ms");
            Report.result("memquota.flood.oom", oom != null ? 1 : 0, "bool");
        }
        finally
        {
            flood.stop();
            monitor.stop();
            for (final Thread producer : producers)
            {
                if (producer != null)
                {
                    producer.join();
                }
            }
            monitorThread.join();
            runner.close();
            tracker.close();
        }
    }

    private static Throwable firstOom(final Flood flood, final Monitor monitor)
    {
        final Throwable fromProducers = flood.oom;
        return fromProducers != null ? fromProducers : monitor.oom;
    }

    /** One queue and the account it claims against; replaced together when the queue collapses. */
    private static final class Slot
    {
        final Account account;
        final MemoryQueue<FloodChunk> queue;

        Slot(final Account account, final MemoryQueue<FloodChunk> queue)
        {
            this.account = account;
            this.queue = queue;
        }

        static Slot open(final MemoryQuotaTracker tracker)
        {
            final Account account = tracker.newAccount();
            return new Slot(account, MemoryQueue.unbounded(account));
        }

        void close()
        {
            queue.close();
            account.close();
        }
    }

    /** The queues and the producers' loop. */
    private static final class Flood
    {
        final MemoryQuotaTracker tracker;
        final AtomicReferenceArray<Slot> slots;
        final AtomicLong sent = new AtomicLong();
        final AtomicLong replaced = new AtomicLong();
        final AtomicLong peakTracked = new AtomicLong();
        volatile boolean running = true;
        volatile Throwable oom;
        private long sentAtWindowStart;

        Flood(final MemoryQuotaTracker tracker, final int queueCount)
        {
            this.tracker = tracker;
            this.slots = new AtomicReferenceArray<>(queueCount);
            for (int i = 0; i < queueCount; i++)
            {
                slots.set(i, Slot.open(tracker));
            }
        }

        void produce(final int offset)
        {
            final int n = slots.length();
            long localPeak = 0;
            int unpublished = 0;
            int i = offset;
            FloodChunk next = null;
            try
            {
                while (running)
                {
                    if (next == null)
                    {
                        next = new FloodChunk();
                    }
                    final Slot slot = slots.get(i);
                    if (slot.queue.isCollapsed())
                    {
                        replace(i, slot);
                    }
                    else
                    {
                        try
                        {
                            if (slot.queue.send(next))
                            {
                                next = null;
                                unpublished++;
                            }
                            else
                            {
                                Thread.yield(); // back-pressure: the quota is at max; let the reclaimer run
                            }
                        }
                        catch (final CollapsedException ex)
                        {
                            replace(i, slot);
                        }
                        final long used = tracker.usedBytes();
                        if (used > localPeak)
                        {
                            localPeak = used;
                        }
                    }
                    if (++i == n)
                    {
                        i = 0;
                    }
                    if (unpublished == PUBLISH_BATCH)
                    {
                        sent.addAndGet(unpublished);
                        unpublished = 0;
                        publishPeak(localPeak);
                    }
                }
            }
            catch (final OutOfMemoryError error)
            {
                oom = error;
                running = false;
            }
            catch (final MemoryQuotaException ex)
            {
                if (running)
                {
                    Report.progress("  producer failed: %s", ex);
                }
            }
            sent.addAndGet(unpublished);
            publishPeak(localPeak);
        }

        private void replace(final int index, final Slot collapsed)
        {
            final Slot fresh = Slot.open(tracker);
            if (slots.compareAndSet(index, collapsed, fresh))
            {
                replaced.incrementAndGet();
                collapsed.account.close();
            }
            else
            {
                fresh.close(); // the other producer replaced it first
            }
        }

        private void publishPeak(final long localPeak)
        {
            peakTracked.accumulateAndGet(localPeak, Math::max);
        }

        void windowStart()
        {
            sentAtWindowStart = sent.get();
            peakTracked.set(0);
            replaced.set(0);
        }

        long sentInWindow()
        {
            return sent.get() - sentAtWindowStart;
        }

        long peakTrackedBytes()
        {
            return peakTracked.get();
        }

        void stop()
        {
            running = false;
        }
    }

    /** Samples tracked bytes and used heap every millisecond and times the reclamations. */
    private static final class Monitor implements Runnable
    {
        private final MemoryQuotaTracker tracker;
        private final Flood flood;
        private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        private volatile boolean running = true;
        private volatile boolean resetWanted;
        private volatile long peakTracked;
        private volatile long peakHeap;
        private volatile long samples;
        volatile Throwable oom;

        Monitor(final MemoryQuotaTracker tracker, final Flood flood)
        {
            this.tracker = tracker;
            this.flood = flood;
        }

        @Override
        public void run()
        {
            try
            {
                while (running)
                {
                    if (resetWanted)
                    {
                        resetWanted = false;
                        peakTracked = 0;
                        peakHeap = 0;
                        samples = 0;
                    }
                    final long used = tracker.usedBytes();
                    final long heap = memory.getHeapMemoryUsage().getUsed();
                    samples++;
                    if (used > peakTracked)
                    {
                        peakTracked = used;
                    }
                    if (heap > peakHeap)
                    {
                        peakHeap = heap;
                    }
                    LockSupport.parkNanos(SAMPLE_NS);
                }
            }
            catch (final OutOfMemoryError error)
            {
                oom = error;
                flood.stop();
            }
        }

        void reset()
        {
            resetWanted = true;
        }

        void stop()
        {
            running = false;
        }

        long peakTrackedBytes()
        {
            return peakTracked;
        }

        long peakHeapBytes()
        {
            return peakHeap;
        }

        long samples()
        {
            return samples;
        }
    }
}
