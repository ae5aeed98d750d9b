package io.troupe.bench;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ServiceId;
import io.troupe.interconnect.IdleMode;
import io.troupe.interconnect.Interconnect;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code remote.rtt}: request/response round-trip time between actors on two node processes on 127.0.0.1,
 * one request in flight.
 *
 * <p>This process is node {@value RemoteNodes#DRIVER_NODE}; it starts node {@value RemoteNodes#PEER_NODE} as a
 * child process ({@link PeerProcess}, workload {@code remote.peer}) and waits until the child's echo answers. A
 * {@link Pinger} then sends a {@link Ping} (its send time, 8 bytes) to the child's {@link Echo}, which replies
 * with it; each reply triggers the next ping. Round trips are timed with {@link System#nanoTime()} on this
 * node. For {@code --warmup} seconds nothing is recorded; then the next {@code --samples} round trips (default
 * {@value #DEFAULT_SAMPLES}) go into an HdrHistogram (3 significant digits), and the figures are its 50th,
 * 99th and 99.9th percentiles in µs. {@code --seconds} does not apply: the window is a sample count.
 */
final class RemoteRttWorkload implements Workload
{
    private static final String SAMPLES = "samples";
    private static final long DEFAULT_SAMPLES = 100_000;
    private static final long MAX_SAMPLES = 1_000_000_000;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(60);
    /** The run fails if no round trip completes for this long. */
    private static final long STALL_TIMEOUT_S = 10;
    /** A slow run (an idle mode that starves the cores) says how far it got this often. */
    private static final long PROGRESS_INTERVAL_S = 30;

    @Override
    public String name()
    {
        return "remote.rtt";
    }

    @Override
    public List<String> options()
    {
        return List.of(SAMPLES, RemoteNodes.IDLE);
    }

    @Override
    public String usage()
    {
        return "  remote.rtt [--samples N] [--idle backoff|spin]\n" +
            "                                 request/response between an actor here and one in a child node " +
            "process,\n" +
            "                                 one in flight; N round trips after the warm-up (default 100000, " +
            "default\n" +
            "                                 idle backoff, --threads default 1 per node); prints p50/p99/p99.9 in " +
            "us;\n" +
            "                                 --seconds is ignored";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final long samples = options.count(SAMPLES, DEFAULT_SAMPLES, 1, MAX_SAMPLES);
        final IdleMode idle = RemoteNodes.idle(options);
        final int threads = options.threads(RemoteNodes.DEFAULT_THREADS);
        final long warmupNs = options.warmupNs();
        if (options.has(Options.SECONDS))
        {
            Report.progress("remote.rtt: --seconds does not apply to a sample count; ignored");
        }
        final int port = RemoteNodes.freeUdpPort(0);
        final int peerPort = RemoteNodes.freeUdpPort(port);
        Report.progress("remote.rtt: idle=%s frames=%s threads=%d per node warmup=%.1fs samples=%d; node %d on " +
            "%s:%d, node %d (child) on port %d", idle, RemoteNodes.frameProtection(), threads, warmupNs / 1e9, samples,
            RemoteNodes.DRIVER_NODE, RemoteNodes.HOST, port, RemoteNodes.PEER_NODE, peerPort);

        final ActorSystem system = BenchSystems.start(threads, RemoteNodes.DRIVER_NODE);
        RemoteNodes.runPair(system, port, peerPort, idle, threads, (interconnect, peer) ->
        {
            final ActorId echoService = ServiceId.of(RemoteNodes.PEER_NODE, RemotePeerWorkload.ECHO);
            RemoteNodes.awaitAnswer(system, interconnect, peer, echoService, new Ping(0), RemoteCodecs.PING_TYPE,
                CONNECT_TIMEOUT);
            measure(system, interconnect, peer, echoService, warmupNs, samples, idle);
            return null;
        });
    }

    private static void measure(
        final ActorSystem system,
        final Interconnect interconnect,
        final PeerProcess peer,
        final ActorId echoService,
        final long warmupNs,
        final long samples,
        final IdleMode idle) throws InterruptedException
    {
        final Pinger pinger = new Pinger(echoService, warmupNs, samples);
        final long startNs = System.nanoTime();
        system.send(system.register(pinger), Pinger.START);
        final Histogram histogram = await(pinger, peer);
        final long elapsedNs = System.nanoTime() - startNs;

        Report.progress("  %d round trips in %.1f s: %d warm-up, %d recorded", pinger.roundTrips(), elapsedNs / 1e9,
            pinger.warmupRoundTrips(), histogram.getTotalCount());
        Report.progress("  rtt us: min=%.1f mean=%.1f p50=%.1f p90=%.1f p99=%.1f p99.9=%.1f p99.99=%.1f max=%.1f",
            histogram.getMinValue() / 1e3, histogram.getMean() / 1e3, histogram.getValueAtPercentile(50) / 1e3,
            histogram.getValueAtPercentile(90) / 1e3, histogram.getValueAtPercentile(99) / 1e3,
            histogram.getValueAtPercentile(99.9) / 1e3, histogram.getValueAtPercentile(99.99) / 1e3,
            histogram.getMaxValue() / 1e3);
        RemoteNodes.reportHealth(interconnect);
        BenchSystems.reportHealth(system);
        Report.progress("  idle mode: %s (report it next to the figures)", idle);
        Report.result("remote.rtt.p50", histogram.getValueAtPercentile(50) / 1e3, "us");
        Report.result("remote.rtt.p99", histogram.getValueAtPercentile(99) / 1e3, "us");
        Report.result("remote.rtt.p99.9", histogram.getValueAtPercentile(99.9) / 1e3, "us");
    }

    /** Waits for the pinger's histogram, failing if the child dies or the round trips stall. */
    private static Histogram await(final Pinger pinger, final PeerProcess peer) throws InterruptedException
    {
        long lastCount = -1;
        long lastProgressNs = System.nanoTime();
        long nextReportNs = lastProgressNs + TimeUnit.SECONDS.toNanos(PROGRESS_INTERVAL_S);
        while (true)
        {
            try
            {
                return pinger.done().get(1, TimeUnit.SECONDS);
            }
            catch (final TimeoutException ex)
            {
                peer.checkAlive();
                final long count = pinger.roundTrips();
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
