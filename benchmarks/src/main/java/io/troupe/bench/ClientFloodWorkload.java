package io.troupe.bench;

import io.troupe.actor.ServiceId;
import io.troupe.client.SendStatus;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code client.flood}: a client process offers ten times what a slow consumer on a node can handle, and the node
 * pushes it back. The node is a child process ({@code client.node}); its {@link FloodConsumer} spends
 * {@code 1 s / --capacity} busy on each {@link Chunk}. The client offers {@code 10 × capacity} chunks a second
 * (paced by the clock, in bursts about every millisecond) through the warm-up and the window, counting what its
 * sends took and what they refused. Then it waits until the consumer has handled every chunk taken. Figures:
 * {@code client.flood.offered-rate} and {@code accepted-rate} (per second of the window),
 * {@code consumer-utilisation} (the consumer's busy time over the window, on its clock), {@code peak-heap-bytes}
 * (the node's heap at its fullest, from the warm-up on) and {@code lost} (taken, never handled: must be 0).
 */
final class ClientFloodWorkload implements Workload
{
    private static final String CAPACITY = "capacity";
    private static final long DEFAULT_CAPACITY = 50_000;

    @Override
    public String name()
    {
        return "client.flood";
    }

    @Override
    public List<String> options()
    {
        return List.of(RemoteNodes.IDLE, CAPACITY);
    }

    @Override
    public String usage()
    {
        return "  client.flood [--capacity N] [--idle backoff|spin]\n" +
            "                                 a client process offers 10x what a consumer on a node in a child\n" +
            "                                 process handles (N events/s, default 50000); prints offered and\n" +
            "                                 accepted rates, consumer utilisation, the node's peak heap, and lost";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final long capacity = options.count(CAPACITY, DEFAULT_CAPACITY, 1, 10_000_000);
        final long warmupNs = options.warmupNs();
        final long measureNs = options.measureNs();
        final long offeredRate = 10 * capacity;
        Report.progress("client.flood: capacity=%d/s offered=%d/s warmup=%.1fs window=%.1fs", capacity, offeredRate,
            warmupNs / 1e9, measureNs / 1e9);
        try (ClientBench bench = ClientBench.start(options, 16_384))
        {
            final ServiceId consumer = ServiceId.of(0, RemotePeerWorkload.FLOOD);
            final ServiceId monitor = ServiceId.of(0, RemotePeerWorkload.FLOOD_MONITOR);
            bench.ask(monitor, new FloodPace(1_000_000_000L / capacity));
            final long[] warm = offer(bench, consumer, offeredRate, warmupNs);
            final FloodTally before = (FloodTally)bench.ask(monitor, FloodTally.REQUEST);
            final long[] window = offer(bench, consumer, offeredRate, measureNs);
            final FloodTally after = (FloodTally)bench.ask(monitor, FloodTally.REQUEST);
            final long accepted = warm[0] + window[0];
            FloodTally last = after;
            final long drainDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (last.received() < accepted && System.nanoTime() - drainDeadline < 0)
            {
                TimeUnit.MILLISECONDS.sleep(50);
                last = (FloodTally)bench.ask(monitor, FloodTally.REQUEST);
            }
            final double seconds = measureNs / 1e9;
            Report.progress("client.flood: window: %d offered, %d taken, %d pushed back; %d handled in all",
                window[0] + window[1], window[0], window[1], last.received());
            Report.result("client.flood.offered-rate", (window[0] + window[1]) / seconds, "msgs/s");
            Report.result("client.flood.accepted-rate", window[0] / seconds, "msgs/s");
            Report.result("client.flood.consumer-utilisation",
                (double)(after.busyNs() - before.busyNs()) / (after.atNs() - before.atNs()), "ratio", 3);
            Report.result("client.flood.peak-heap-bytes", last.peakHeapBytes(), "bytes");
            Report.result("client.flood.lost", accepted - last.received(), "msgs");
        }
    }

    /** Offers chunks at the rate for a while; returns {taken, pushed back}. */
    private static long[] offer(final ClientBench bench, final ServiceId consumer, final long rate, final long forNs)
    {
        final byte[] data = new byte[Chunk.DATA_BYTES];
        final long startNs = System.nanoTime();
        final long endNs = startNs + forNs;
        long taken = 0;
        long refused = 0;
        long now;
        while ((now = System.nanoTime()) - endNs < 0)
        {
            final long due = (now - startNs) * rate / 1_000_000_000L;
            while (taken + refused < due)
            {
                if (bench.client.send(consumer, new Chunk(taken, data)) == SendStatus.OK)
                {
                    taken++;
                }
                else
                {
                    refused++;
                }
            }
            LockSupport.parkNanos(1_000_000);
        }
        return new long[] {taken, refused};
    }
}
