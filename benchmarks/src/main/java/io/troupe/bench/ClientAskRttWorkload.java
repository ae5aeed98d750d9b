package io.troupe.bench;

import io.troupe.actor.ServiceId;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code client.ask.rtt}: the round trip of an ask from a client process to an actor on a node and back. The node
 * is a child process ({@code client.node}); this process asks its {@link Echo} (service
 * {@value RemotePeerWorkload#ECHO}) a {@link Ping}, waits for the reply ({@code join}), and asks again: one ask at
 * a time, through the warm-up and then the window. Figures: p50, p99 and max of the window's round trips.
 */
final class ClientAskRttWorkload implements Workload
{
    /** How the asking thread waits for each reply: {@code block} ({@code join}, the default) or {@code spin}. */
    static final String WAIT = "wait";

    @Override
    public String name()
    {
        return "client.ask.rtt";
    }

    @Override
    public List<String> options()
    {
        return List.of(RemoteNodes.IDLE, WAIT);
    }

    @Override
    public String usage()
    {
        return "  client.ask.rtt [--idle backoff|spin] [--wait block|spin]\n" +
            "                                 a client process asks an echo actor on a node in a child process, one\n" +
            "                                 ask at a time; prints p50/p99/max of the round trips in us";
    }

    @Override
    public void run(final Options options)
    {
        final long warmupNs = options.warmupNs();
        final long measureNs = options.measureNs();
        Report.progress("client.ask.rtt: warmup=%.1fs window=%.1fs", warmupNs / 1e9, measureNs / 1e9);
        try (ClientBench bench = ClientBench.start(options, 16_384))
        {
            final ServiceId echo = ServiceId.of(0, RemotePeerWorkload.ECHO);
            final Histogram histogram = new Histogram(3_600_000_000_000L, 3);
            final boolean spin = "spin".equals(options.choice(WAIT, "block", List.of("block", "spin")));
            ask(bench, echo, warmupNs, null, spin);
            final long asks = ask(bench, echo, measureNs, histogram, spin);
            Report.progress("client.ask.rtt: %d asks in the window", asks);
            Report.result("client.ask.rtt.p50", histogram.getValueAtPercentile(50) / 1e3, "us");
            Report.result("client.ask.rtt.p99", histogram.getValueAtPercentile(99) / 1e3, "us");
            Report.result("client.ask.rtt.max", histogram.getMaxValue() / 1e3, "us");
        }
    }

    private static long ask(final ClientBench bench, final ServiceId echo, final long forNs, final Histogram into,
        final boolean spin)
    {
        final long endNs = System.nanoTime() + forNs;
        long asks = 0;
        long now;
        while ((now = System.nanoTime()) - endNs < 0)
        {
            final CompletableFuture<Object> reply = bench.client.ask(echo, new Ping(now), Duration.ofSeconds(10));
            while (spin && !reply.isDone())
            {
                Thread.onSpinWait();
            }
            reply.join();
            if (into != null)
            {
                into.recordValue(System.nanoTime() - now);
            }
            asks++;
        }
        return asks;
    }
}
