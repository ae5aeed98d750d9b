package io.troupe.bench;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.EventTypes;
import io.troupe.actor.ServiceId;
import io.troupe.actor.FlowControlConfig;
import io.troupe.interconnect.IdleMode;
import io.troupe.interconnect.Interconnect;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code remote.throughput}: how many events per second one actor streams to an actor on another node, two
 * node processes on 127.0.0.1.
 *
 * <p>This process is node {@value RemoteNodes#DRIVER_NODE}; it starts node {@value RemoteNodes#PEER_NODE} as a
 * child process ({@link PeerProcess}, workload {@code remote.peer}) and waits until the child's sink answers. A
 * {@link Streamer} then sends {@link Chunk}s {@code (long seq, byte[16])} (24 bytes, hand-written codec) to the
 * child's {@link ChunkSink}, which acknowledges every {@value ChunkSink#ACK_EVERY}th; at most
 * {@value Streamer#MAX_UNACKED} are unacknowledged. After the warm-up and again after the window the driver
 * asks the sink for its {@link Tally}; the figure is the chunks the sink received between the two, divided by
 * the time between them on the sink's own clock.
 */
final class RemoteThroughputWorkload implements Workload
{
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration TALLY_TIMEOUT = Duration.ofSeconds(10);

    @Override
    public String name()
    {
        return "remote.throughput";
    }

    @Override
    public List<String> options()
    {
        return List.of(RemoteNodes.IDLE, PingPongWorkload.API);
    }

    @Override
    public String usage()
    {
        return "  remote.throughput [--idle backoff|spin] [--api untyped|typed]\n" +
            "                                 one actor streams (long seq, byte[16]) events to an actor in a child\n" +
            "                                 node process, acked every 256th, at most 2048 unacked (default idle\n" +
            "                                 backoff, --threads default 1 per node); typed: chunks sent with type " +
            "0, as a\n" +
            "                                 typed send is, their codec found by class; prints events received per " +
            "second";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final IdleMode idle = RemoteNodes.idle(options);
        final int threads = options.threads(RemoteNodes.DEFAULT_THREADS);
        final long warmupNs = options.warmupNs();
        final long measureNs = options.measureNs();
        final boolean typed =
            "typed".equals(options.choice(PingPongWorkload.API, "untyped", List.of("untyped", "typed")));
        final double rate = measure(true, threads, idle, warmupNs, measureNs, typed);
        Report.result("remote.throughput", rate, "msgs/s");
    }

    /**
     * Runs the stream once between this process (node 1) and a fresh child (node 2), both with credit accounts
     * on or off, and takes both down.
     *
     * @param accounts  whether both nodes run with credit accounts (the default) or {@code disabled()}.
     * @param threads   pool threads per node.
     * @param idle      the idle mode of both nodes.
     * @param warmupNs  streaming before the window opens.
     * @param measureNs the window.
     * @return events the sink received per second in the window, on its clock.
     * @throws InterruptedException if interrupted.
     */
    static double measure(
        final boolean accounts, final int threads, final IdleMode idle, final long warmupNs, final long measureNs)
        throws InterruptedException
    {
        return measure(accounts, threads, idle, warmupNs, measureNs, false);
    }

    /**
     * As {@link #measure(boolean, int, IdleMode, long, long)}, the chunks sent with their type id or, as a typed
     * send does, by class.
     *
     * @param accounts  whether both nodes run with credit accounts.
     * @param threads   pool threads per node.
     * @param idle      the idle mode of both nodes.
     * @param warmupNs  streaming before the window opens.
     * @param measureNs the window.
     * @param byClass   send chunks with type 0 (the interconnect finds their codec by class).
     * @return events the sink received per second in the window.
     * @throws InterruptedException if interrupted.
     */
    static double measure(
        final boolean accounts,
        final int threads,
        final IdleMode idle,
        final long warmupNs,
        final long measureNs,
        final boolean byClass) throws InterruptedException
    {
        final int port = RemoteNodes.freeUdpPort(0);
        final int peerPort = RemoteNodes.freeUdpPort(port);
        Report.progress("remote.throughput: idle=%s frames=%s threads=%d per node accounts=%s warmup=%.1fs " +
            "window=%.1fs max-unacked=%d ack-every=%d; node %d on %s:%d, node %d (child) on port %d",
            idle, RemoteNodes.frameProtection(), threads,
            accounts ? "on" : "off", warmupNs / 1e9, measureNs / 1e9, Streamer.MAX_UNACKED, ChunkSink.ACK_EVERY,
            RemoteNodes.DRIVER_NODE, RemoteNodes.HOST, port, RemoteNodes.PEER_NODE, peerPort);

        final ActorSystem system = ActorSystem.start(BenchSystems.config(threads, RemoteNodes.DRIVER_NODE)
            .flowControl(accounts ? new FlowControlConfig() : FlowControlConfig.disabled()));
        return RemoteNodes.runPair(system, port, peerPort, idle, threads, (interconnect, peer) ->
        {
            final ActorId sinkService = ServiceId.of(RemoteNodes.PEER_NODE, RemotePeerWorkload.SINK);
            RemoteNodes.awaitAnswer(system, interconnect, peer, sinkService, Tally.REQUEST, RemoteCodecs.TALLY_TYPE,
                CONNECT_TIMEOUT);
            return stream(system, interconnect, peer, sinkService, warmupNs, measureNs, idle,
                byClass ? EventTypes.BY_CLASS : RemoteCodecs.CHUNK_TYPE);
        }, "--" + RemotePeerWorkload.ACCOUNTS, accounts ? "on" : "off");
    }

    private static double stream(
        final ActorSystem system,
        final Interconnect interconnect,
        final PeerProcess peer,
        final ActorId sinkService,
        final long warmupNs,
        final long measureNs,
        final IdleMode idle,
        final int chunkType) throws InterruptedException
    {
        final AtomicLong sent = new AtomicLong();
        final ActorId streamer = system.register(new Streamer(sinkService, sent, chunkType));
        system.send(streamer, Streamer.START);

        TimeUnit.NANOSECONDS.sleep(warmupNs);
        peer.checkAlive();
        final Tally start = tally(system, sinkService);
        final ThreadCpu threads = ThreadCpu.start();
        final long sentAtStart = sent.get();
        final long startNs = System.nanoTime();
        TimeUnit.NANOSECONDS.sleep(measureNs);
        final Tally end = tally(system, sinkService);
        final long sentAtEnd = sent.get();
        final long endNs = System.nanoTime();
        system.send(streamer, Streamer.STOP);

        final long received = end.received() - start.received();
        final long sentInWindow = Math.max(1, sentAtEnd - sentAtStart);
        // the sending side's allocation per event: the streamer's own (its event and envelope) and the send path's
        Report.progress("  node 1 allocated per event sent: pool workers %.1f B, interconnect %.1f B",
            (double)threads.allocatedBytes("bench-") / sentInWindow,
            (double)threads.allocatedBytes("troupe-" + RemoteNodes.DRIVER_NODE + "-interconnect") / sentInWindow);
        final long sinkNs = end.atNs() - start.atNs();
        Report.progress("  window: sink received %d chunks in %.3f s (its clock); streamer sent %d in %.3f s (%.1f " +
            "msgs/s)", received, sinkNs / 1e9, sentAtEnd - sentAtStart, (endNs - startNs) / 1e9,
            (sentAtEnd - sentAtStart) * 1e9 / (endNs - startNs));
        Report.progress("  sink: received %d in all, %d out of order", end.received(), end.outOfOrder());
        RemoteNodes.reportHealth(interconnect);
        BenchSystems.reportHealth(system);
        if (received <= 0)
        {
            throw new IllegalStateException("the sink received nothing during the window: the stream stalled");
        }
        Report.progress("  idle mode: %s (report it next to the figure)", idle);
        return received * 1e9 / sinkNs;
    }

    private static Tally tally(final ActorSystem system, final ActorId sinkService) throws InterruptedException
    {
        return (Tally)RemoteNodes.ask(system, sinkService, Tally.REQUEST, RemoteCodecs.TALLY_TYPE, TALLY_TIMEOUT);
    }
}
