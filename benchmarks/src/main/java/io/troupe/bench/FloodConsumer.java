package io.troupe.bench;

import io.troupe.actor.ActorContext;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.MailboxCollapsed;

import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code flow.flood}'s slow consumer, on the child's node: spends the current service time busy on every
 * {@link Chunk} (spinning on {@link System#nanoTime()}, as a CPU-bound handler would), and counts chunks,
 * busy time and collapses of its mailbox. The counts are published for the {@link FloodMonitor}, which answers
 * the driver from another mailbox, so that a question never waits behind a deep queue of chunks.
 */
final class FloodConsumer implements Behavior
{
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong busyNs = new AtomicLong();
    private final AtomicLong collapses = new AtomicLong();
    private final AtomicLong collapsedEvents = new AtomicLong();
    private volatile long serviceNs;

    @Override
    public void receive(final ActorContext ctx, final Envelope envelope)
    {
        if (envelope.type() == RemoteCodecs.CHUNK_TYPE)
        {
            final long startNs = System.nanoTime();
            final long untilNs = startNs + serviceNs;
            long nowNs = startNs;
            while (nowNs - untilNs < 0)
            {
                Thread.onSpinWait();
                nowNs = System.nanoTime();
            }
            busyNs.lazySet(busyNs.get() + nowNs - startNs);
            received.lazySet(received.get() + 1);
        }
        else if (envelope.event() instanceof MailboxCollapsed collapsed)
        {
            collapses.lazySet(collapses.get() + 1);
            collapsedEvents.lazySet(collapsedEvents.get() + collapsed.dropped());
        }
    }

    /**
     * Sets the busy time per chunk, from any thread.
     *
     * @param ns 0 or more.
     */
    void serviceNs(final long ns)
    {
        serviceNs = ns;
    }

    /**
     * The counts so far, from any thread.
     *
     * @param peakHeapBytes the node's heap peak, to pass along.
     * @return the tally, stamped now.
     */
    FloodTally tally(final long peakHeapBytes)
    {
        return new FloodTally(received.get(), busyNs.get(), collapses.get(), collapsedEvents.get(), peakHeapBytes,
            System.nanoTime());
    }
}
