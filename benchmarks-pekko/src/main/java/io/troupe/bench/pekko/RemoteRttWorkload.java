package io.troupe.bench.pekko;

import org.HdrHistogram.Histogram;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.SpawnProtocol;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code remote.rtt}: request/response round-trip time between typed actors on two node processes on 127.0.0.1,
 * one request in flight, the Pekko side of Troupe's workload of the same name.
 *
 * <p>This process is node 1; it starts node 2 as a child process ({@link PeerProcess}, workload
 * {@code remote.peer}) and resolves the child's {@link Echo} once. A {@link Pinger} then sends a {@link Ping}
 * (its send time, 8 bytes) to the echo, which replies with it; each reply triggers the next ping. Round trips are
 * timed with {@link System#nanoTime()} on this node. For {@code --warmup} seconds nothing is recorded; then the
 * next {@code --samples} round trips (default {@value #DEFAULT_SAMPLES}) go into an HdrHistogram (3 significant
 * digits), and the figures are its 50th, 99th and 99.9th percentiles in µs. {@code --seconds} does not apply.
 */
final class RemoteRttWorkload implements Workload
{
    /** Chosen default executor (benchmarks-pekko/README.md). */
    static final String DEFAULT_EXECUTOR = PekkoSystems.FORK_JOIN;
    /** Chosen default dispatcher throughput (benchmarks-pekko/README.md). */
    static final int DEFAULT_THROUGHPUT = 5;
    /** Chosen default Aeron idle CPU level (benchmarks-pekko/README.md). */
    static final int DEFAULT_IDLE_CPU_LEVEL = 2;
    /** Chosen default number of inbound lanes (benchmarks-pekko/README.md). */
    static final int DEFAULT_INBOUND_LANES = 4;

    private static final String SAMPLES = "samples";
    private static final long DEFAULT_SAMPLES = 100_000;
    private static final long MAX_SAMPLES = 1_000_000_000;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(60);
    /** The run fails if no round trip completes for this long. */
    private static final long STALL_TIMEOUT_S = 10;
    /** A slow run says how far it got this often. */
    private static final long PROGRESS_INTERVAL_S = 30;

    @Override
    public String name()
    {
        return "remote.rtt";
    }

    @Override
    public List<String> options()
    {
        final List<String> options = new ArrayList<>(RemoteNodes.OPTIONS);
        options.add(SAMPLES);
        return options;
    }

    @Override
    public String usage()
    {
        return "  remote.rtt [--samples N] [--transport tcp|aeron] [--idle-cpu-level L] [--inbound-lanes K]\n" +
            "                                 request/response between an actor here and one in a child node " +
            "process,\n" +
            "                                 one in flight; N round trips after the warm-up (default 100000, " +
            "default\n" +
            "                                 tcp, --threads default 1 per node); prints p50/p99/p99.9 in us;\n" +
            "                                 --seconds is ignored";
    }

    @Override
    public void run(final Options options) throws Exception
    {
        final long samples = options.count(SAMPLES, DEFAULT_SAMPLES, 1, MAX_SAMPLES);
        final PekkoSystems.Dispatcher dispatcher =
            options.dispatcher(RemoteNodes.DEFAULT_THREADS, DEFAULT_EXECUTOR, DEFAULT_THROUGHPUT);
        final RemoteNodes.Transport transport =
            RemoteNodes.transport(options, DEFAULT_IDLE_CPU_LEVEL, DEFAULT_INBOUND_LANES);
        final long warmupNs = options.warmupNs();
        if (options.has(Options.SECONDS))
        {
            Report.progress("remote.rtt: --seconds does not apply to a sample count; ignored");
        }
        final int port = RemoteNodes.freePort(transport.transport(), 0);
        final int peerPort = RemoteNodes.freePort(transport.transport(), port);
        Report.progress("remote.rtt (pekko): %s; %s per node; warmup=%.1fs samples=%d; node 1 on %s:%d, " +
            "node 2 (child) on port %d", transport, dispatcher, warmupNs / 1e9, samples, RemoteNodes.HOST, port,
            peerPort);

        final ActorSystem<SpawnProtocol.Command> system =
            PekkoSystems.start(SpawnProtocol.create(), PekkoSystems.config(dispatcher, transport.hocon(port)));
        final Histogram histogram;
        PeerProcess peer = null;
        try
        {
            final DeadLetterWatch undelivered = DeadLetterWatch.start(system);
            peer = RemoteNodes.startPeer(peerPort, dispatcher, transport);
            peer.awaitReady(CONNECT_TIMEOUT);
            final ActorRef<EchoMessage> echo =
                RemoteNodes.resolve(system, peerPort, RemoteNodes.ECHO, peer, CONNECT_TIMEOUT);
            histogram = measure(system, echo, peer, warmupNs, samples);
            undelivered.report("node 1");
        }
        finally
        {
            RemoteNodes.stop(system, peer, port, peerPort);
        }
        Report.progress("  transport: %s (report it next to the figures)", transport.transport());
        Report.result("remote.rtt.p50", histogram.getValueAtPercentile(50) / 1e3, "us");
        Report.result("remote.rtt.p99", histogram.getValueAtPercentile(99) / 1e3, "us");
        Report.result("remote.rtt.p99.9", histogram.getValueAtPercentile(99.9) / 1e3, "us");
    }

    private static Histogram measure(final ActorSystem<SpawnProtocol.Command> system,
        final ActorRef<EchoMessage> echo, final PeerProcess peer, final long warmupNs, final long samples)
        throws InterruptedException
    {
        final Pinger.Results results = Pinger.Results.create();
        final long startNs = System.nanoTime();
        RemoteNodes.spawn(system, Pinger.create(echo, warmupNs, samples, results), "pinger")
            .tell(Pinger.Command.START);
        final Histogram histogram = await(results, peer);
        final long elapsedNs = System.nanoTime() - startNs;

        Report.progress("  %d round trips in %.1f s: %d warm-up, %d recorded", results.roundTrips().get(),
            elapsedNs / 1e9, results.warmup().get(), histogram.getTotalCount());
        Report.progress("  rtt us: min=%.1f mean=%.1f p50=%.1f p90=%.1f p99=%.1f p99.9=%.1f p99.99=%.1f max=%.1f",
            histogram.getMinValue() / 1e3, histogram.getMean() / 1e3, histogram.getValueAtPercentile(50) / 1e3,
            histogram.getValueAtPercentile(90) / 1e3, histogram.getValueAtPercentile(99) / 1e3,
            histogram.getValueAtPercentile(99.9) / 1e3, histogram.getValueAtPercentile(99.99) / 1e3,
            histogram.getMaxValue() / 1e3);
        return histogram;
    }

    /** Waits for the pinger's histogram, failing if the child dies or the round trips stall. */
    private static Histogram await(final Pinger.Results results, final PeerProcess peer) throws InterruptedException
    {
        long lastCount = -1;
        long lastProgressNs = System.nanoTime();
        long nextReportNs = lastProgressNs + TimeUnit.SECONDS.toNanos(PROGRESS_INTERVAL_S);
        while (true)
        {
            try
            {
                return results.done().get(1, TimeUnit.SECONDS);
            }
            catch (final TimeoutException ex)
            {
                peer.checkAlive();
                final long count = results.roundTrips().get();
                final long nowNs = System.nanoTime();
                if (nowNs - nextReportNs >= 0)
                {
                    nextReportNs = nowNs + TimeUnit.SECONDS.toNanos(PROGRESS_INTERVAL_S);
                    Report.progress("  %d round trips so far, warm-up included", count);
                }
                if (count != lastCount)
                {
                    lastCount = count;
                    lastProgressNs = nowNs;
                }
                else if (nowNs - lastProgressNs > TimeUnit.SECONDS.toNanos(STALL_TIMEOUT_S))
                {
                    throw new IllegalStateException("no round trip completed for " + STALL_TIMEOUT_S + " s (after " +
                        count + ")");
                }
            }
            catch (final ExecutionException ex)
            {
                throw new IllegalStateException("the pinger failed", ex.getCause());
            }
        }
    }
}
