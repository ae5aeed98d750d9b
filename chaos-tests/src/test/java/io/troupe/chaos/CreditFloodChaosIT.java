package io.troupe.chaos;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Scenario 5 of the chaos suite: node 1 floods node 2 through a credit account ({@code FloodProducer}, threshold
 * {@value #THRESHOLD}, {@value #BATCH} events a read) beside the tracked ticks, and node 2 is cut off for 8 s. What
 * waits for node 2 stays within the account's credit while it is away, the debt it held is written off when the
 * session ends so the producer's account clears, the flood resumes after the heal, node 1's heap (after GC) stays
 * bounded, and the ticks' ledger is clean.
 */
@Timeout(value = 180)
class CreditFloodChaosIT
{
    private static final int RATE = 100;
    private static final int THRESHOLD = 2_000;
    private static final int BATCH = 100;
    /** Node 1's heap after GC may not pass this (its -Xmx is 192 MiB). */
    private static final long HEAP_BOUND = 96L << 20;
    private static final Duration QUIET = Duration.ofSeconds(20);

    @TempDir
    Path ledgers;

    @Test
    void aFloodIntoAPartitionedNodeWaitsOnItsCreditIsWrittenOffAndResumesAfterTheHeal()
    {
        try (Scenario run = new Scenario("credit", 88, 3, ledgers, RATE))
        {
            run.cluster().env(1, "CHAOS_FLOOD_TO", "2");
            run.cluster().env(1, "CHAOS_FLOOD_THRESHOLD", Integer.toString(THRESHOLD));
            run.cluster().env(1, "CHAOS_FLOOD_BATCH", Integer.toString(BATCH));
            run.startAndAwaitMesh();
            run.awaitUntil(() -> received(run.ledger(), System.currentTimeMillis()) > 10_000, Duration.ofSeconds(20),
                "the flood reaching node 2");
            Scenario.sleep(Scenario.STEADY_MS);
            final long cut = run.faults().partition(2);
            Scenario.sleep(5_000); // the cut: more than three failure timeouts
            final long healed = run.faults().heal(2);
            run.awaitUntil(() -> run.reconnectedSince(healed, 2, 1, 3), Duration.ofSeconds(20),
                "the mesh back after the heal");
            run.awaitUntil(() -> receivedSince(run.ledger(), healed) > 10_000, Duration.ofSeconds(20),
                "the flood reaching node 2 again after the heal");
            Scenario.sleep(Scenario.STEADY_MS);

            final Ledger ledger = run.ledger();
            final long detected = Timing.first(ledger, 1, "X", 2, cut);
            final List<Ledger.Line> samples = producerLines(ledger, "P");
            long maxQueue = 0;
            long maxDebt = 0;
            long maxHeap = 0;
            for (final Ledger.Line sample : samples)
            {
                maxHeap = Math.max(maxHeap, sample.longField(4));
                if (sample.epochMs() >= cut && sample.epochMs() <= healed)
                {
                    maxDebt = Math.max(maxDebt, sample.longField(1));
                    maxQueue = Math.max(maxQueue, sample.longField(3));
                }
            }
            // the flood waits for its credit all the time (W, then R when repayments clear it): the wait the cut left
            // standing is the last one before the session ended. It may have begun after the cut command (repayments
            // already on their way still clear the waits before it) or just before it (then no repayment came at all)
            final long stoppedFor = lastWaitBefore(ledger, detected);
            final long waitCleared = firstClearAfter(ledger, stoppedFor);
            // the write-off comes as the session ends, just before the NodeDisconnected notices
            long cleared = -1;
            long writtenOff = 0;
            for (final Ledger.Line line : producerLines(ledger, "R"))
            {
                if (stoppedFor > 0 && line.epochMs() >= stoppedFor && cleared < 0)
                {
                    cleared = line.epochMs();
                    writtenOff = line.longField(1);
                }
            }
            final long rateBefore = (received(ledger, cut) - received(ledger, cut - 2_000)) / 2;
            final long resumed = firstReceivedAfter(ledger, healed);
            run.result("flood_rate_before_cut", rateBefore, "events/s");
            run.result("failure_detection_ms", detected - cut, "ms");
            run.result("producer_stopped_after_cut_ms", stoppedFor - cut, "ms");
            run.result("max_debt_while_cut", maxDebt, "cost");
            run.result("max_queue_while_cut", maxQueue, "events");
            run.result("written_off", writtenOff, "cost");
            run.result("cleared_after_cut_ms", cleared - cut, "ms");
            run.result("flood_resumed_after_heal_ms", resumed - healed, "ms");
            run.result("max_heap_after_gc", maxHeap >> 20, "MiB");
            run.finish(QUIET);

            run.check(detected > 0, "node 1 saw node 2 go");
            run.check(stoppedFor > 0 && stoppedFor < detected && (waitCleared < 0 || waitCleared >= cut),
                "the producer stopped for debt while node 2 was cut off: its last wait before the session ended at " +
                (stoppedFor - cut) + " ms from the cut, cleared at " + (waitCleared - cut) + " ms; the " +
                "producer from the cut:\n" + producerTimeline(ledger, cut - 200, healed));
            // a read sends a batch once the account is below its threshold: it may end one batch above it
            run.check(maxDebt <= THRESHOLD + BATCH, "debt within the credit while cut off: " + maxDebt);
            // and the ticks node 1 sent node 2 until the session ended
            run.check(maxQueue <= THRESHOLD + BATCH + 2 * RATE, "waiting for node 2 within the credit: " + maxQueue);
            run.check(writtenOff > 0 && cleared >= 0 && Math.abs(cleared - detected) <= 500,
                "node 2's debt written off and the account cleared as the session ended: written off " + writtenOff +
                ", cleared " + (cleared - cut) + " ms after the cut, the session ended " + (detected - cut) +
                " ms after it; the producer from the cut:\n" + producerTimeline(ledger, cut - 200, healed));
            run.check(resumed > 0, "the flood resumed after the heal");
            run.check(maxHeap > 0 && maxHeap <= HEAP_BOUND, "node 1's heap after GC within " + (HEAP_BOUND >> 20) +
                " MiB: " + (maxHeap >> 20) + " MiB");
        }
    }

    private static List<Ledger.Line> producerLines(final Ledger ledger, final String kind)
    {
        return ledger.floodLines().stream().filter(line -> line.node() == 1 && kind.equals(line.kind())).toList();
    }

    /** Node 1's producer's lines between two times, one per line, times relative to {@code fromMs}. */
    private static String producerTimeline(final Ledger ledger, final long fromMs, final long toMs)
    {
        final StringBuilder text = new StringBuilder();
        for (final Ledger.Line line : ledger.floodLines())
        {
            if (line.node() == 1 && line.epochMs() >= fromMs && line.epochMs() <= toMs)
            {
                text.append(String.format("  %+6d ms %s %s%n", line.epochMs() - fromMs, line.kind(),
                    String.join(",", line.fields())));
            }
        }
        return text.toString();
    }

    /** The last time at or before {@code untilMs} node 1's producer stopped for debt, or -1. */
    private static long lastWaitBefore(final Ledger ledger, final long untilMs)
    {
        long last = -1;
        for (final Ledger.Line line : producerLines(ledger, "W"))
        {
            if (line.epochMs() <= untilMs)
            {
                last = line.epochMs();
            }
        }
        return last;
    }

    /** The first time at or after {@code sinceMs} node 1's producer's debt cleared, or -1 (or -1 if none since). */
    private static long firstClearAfter(final Ledger ledger, final long sinceMs)
    {
        if (sinceMs < 0)
        {
            return -1;
        }
        for (final Ledger.Line line : producerLines(ledger, "R"))
        {
            if (line.epochMs() >= sinceMs)
            {
                return line.epochMs();
            }
        }
        return -1;
    }

    /** What node 2's sink counted by {@code atMs}, over its incarnations (one here). */
    private static long received(final Ledger ledger, final long atMs)
    {
        long count = 0;
        for (final Ledger.Line line : ledger.floodLines())
        {
            if (line.node() == 2 && "K".equals(line.kind()) && line.epochMs() <= atMs)
            {
                count = Math.max(count, line.longField(0));
            }
        }
        return count;
    }

    private static long receivedSince(final Ledger ledger, final long sinceMs)
    {
        return received(ledger, Long.MAX_VALUE) - received(ledger, sinceMs);
    }

    /** The first time after {@code sinceMs} node 2's sink counted more than it had then, or -1. */
    private static long firstReceivedAfter(final Ledger ledger, final long sinceMs)
    {
        final long then = received(ledger, sinceMs);
        for (final Ledger.Line line : ledger.floodLines())
        {
            if (line.node() == 2 && "K".equals(line.kind()) && line.epochMs() > sinceMs && line.longField(0) > then)
            {
                return line.epochMs();
            }
        }
        return -1;
    }
}
