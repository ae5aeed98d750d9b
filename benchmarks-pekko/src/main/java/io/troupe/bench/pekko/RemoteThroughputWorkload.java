package io.troupe.bench.pekko;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.SpawnProtocol;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code remote.throughput}: how many messages per second one typed actor streams to an actor on another node,
 * two node processes on 127.0.0.1, the Pekko side of Troupe's workload of the same name.
 *
 * <p>This process is node 1; it starts node 2 as a child process ({@link PeerProcess}, workload
 * {@code remote.peer}), resolves the child's {@link ChunkSink} once and asks it for a first {@link Tally}. A
 * {@link Streamer} then sends {@link Chunk}s {@code (long seq, byte[16])} (24 bytes, {@link BenchSerializer}) to
 * the sink, which acknowledges every {@value ChunkSink#ACK_EVERY}th; at most {@value Streamer#MAX_UNACKED} are
 * unacknowledged. After the warm-up and again after the window the driver asks the sink for its tally; the
 * figure is the chunks the sink received between the two, divided by the time between them on the sink's own
 * clock.
 */
final class RemoteThroughputWorkload implements Workload
{
    /** Chosen default executor (benchmarks-pekko/README.md). */
    static final String DEFAULT_EXECUTOR = PekkoSystems.FORK_JOIN;
    /** Chosen default dispatcher throughput (benchmarks-pekko/README.md). */
    static final int DEFAULT_THROUGHPUT = 5;
    /** Chosen default Aeron idle CPU level (benchmarks-pekko/README.md). */
    static final int DEFAULT_IDLE_CPU_LEVEL = 1;
    /** Chosen default number of inbound lanes (benchmarks-pekko/README.md). */
    static final int DEFAULT_INBOUND_LANES = 4;

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration TALLY_TIMEOUT = Duration.ofSeconds(10);
    private static final long DRAIN_TIMEOUT_S = 10;

    @Override
    public String name()
    {
        return "remote.throughput";
    }

    @Override
    public List<String> options()
    {
        return RemoteNodes.OPTIONS;
    }

    @Override
    public String usage()
    {
        return "  remote.throughput [--transport tcp|aeron] [--idle-cpu-level L] [--inbound-lanes K]\n" +
            "                                 one actor streams (long seq, byte[16]) messages to an actor in a " +
            "child\n" +
            "                                 node process, acked every 256th, at most 2048 unacked (default tcp,\n" +
            "                                 --threads default 1 per node); prints messages received per second";
    }

    @Override
    public void run(final Options options) throws Exception
    {
        final PekkoSystems.Dispatcher dispatcher =
            options.dispatcher(RemoteNodes.DEFAULT_THREADS, DEFAULT_EXECUTOR, DEFAULT_THROUGHPUT);
        final RemoteNodes.Transport transport =
            RemoteNodes.transport(options, DEFAULT_IDLE_CPU_LEVEL, DEFAULT_INBOUND_LANES);
        final long warmupNs = options.warmupNs();
        final long measureNs = options.measureNs();
        final int port = RemoteNodes.freePort(transport.transport(), 0);
        final int peerPort = RemoteNodes.freePort(transport.transport(), port);
        Report.progress("remote.throughput (pekko): %s; %s per node; warmup=%.1fs window=%.1fs max-unacked=%d " +
            "ack-every=%d; node 1 on %s:%d, node 2 (child) on port %d", transport, dispatcher, warmupNs / 1e9,
            measureNs / 1e9, Streamer.MAX_UNACKED, ChunkSink.ACK_EVERY, RemoteNodes.HOST, port, peerPort);

        final ActorSystem<SpawnProtocol.Command> system =
            PekkoSystems.start(SpawnProtocol.create(), PekkoSystems.config(dispatcher, transport.hocon(port)));
        final double rate;
        PeerProcess peer = null;
        try
        {
            final DeadLetterWatch undelivered = DeadLetterWatch.start(system);
            peer = RemoteNodes.startPeer(peerPort, dispatcher, transport);
            peer.awaitReady(CONNECT_TIMEOUT);
            final ActorRef<SinkMessage> sink =
                RemoteNodes.resolve(system, peerPort, RemoteNodes.SINK, peer, CONNECT_TIMEOUT);
            tally(system, sink);
            rate = stream(system, sink, peer, warmupNs, measureNs);
            undelivered.report("node 1");
        }
        finally
        {
            RemoteNodes.stop(system, peer, port, peerPort);
        }
        Report.progress("  transport: %s (report it next to the figure)", transport.transport());
        Report.result("remote.throughput", rate, "msgs/s");
    }

    private static double stream(final ActorSystem<SpawnProtocol.Command> system, final ActorRef<SinkMessage> sink,
        final PeerProcess peer, final long warmupNs, final long measureNs) throws InterruptedException
    {
        final AtomicLong sent = new AtomicLong();
        final AtomicLong acked = new AtomicLong();
        final ActorRef<StreamerMessage> streamer =
            RemoteNodes.spawn(system, Streamer.create(sink, sent, acked), "streamer");
        streamer.tell(Streamer.Command.START);

        TimeUnit.NANOSECONDS.sleep(warmupNs);
        peer.checkAlive();
        final Tally start = tally(system, sink);
        final long sentAtStart = sent.get();
        final long startNs = System.nanoTime();
        TimeUnit.NANOSECONDS.sleep(measureNs);
        final Tally end = tally(system, sink);
        final long sentAtEnd = sent.get();
        final long endNs = System.nanoTime();
        streamer.tell(Streamer.Command.STOP);

        // let the chunks in flight arrive and their acks come back (the last partial batch of 256 is never
        // acked), so that nothing is left to the shutdown
        final long drainDeadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(DRAIN_TIMEOUT_S);
        while (sent.get() - acked.get() >= ChunkSink.ACK_EVERY && System.nanoTime() - drainDeadlineNs < 0)
        {
            TimeUnit.MILLISECONDS.sleep(10);
        }
        final Tally last = tally(system, sink);

        final long received = end.received() - start.received();
        final long sinkNs = end.atNs() - start.atNs();
        Report.progress("  window: sink received %d chunks in %.3f s (its clock); streamer sent %d in %.3f s (%.1f " +
            "msgs/s)", received, sinkNs / 1e9, sentAtEnd - sentAtStart, (endNs - startNs) / 1e9,
            (sentAtEnd - sentAtStart) * 1e9 / (endNs - startNs));
        Report.progress("  sink: received %d in all (streamer sent %d), %d out of order", last.received(), sent.get(),
            last.outOfOrder());
        if (received <= 0)
        {
            throw new IllegalStateException("the sink received nothing during the window: the stream stalled");
        }
        return received * 1e9 / sinkNs;
    }

    private static Tally tally(final ActorSystem<?> system, final ActorRef<SinkMessage> sink)
        throws InterruptedException
    {
        return RemoteNodes.<SinkMessage, Tally>ask(system, sink, TallyRequest::new, TALLY_TIMEOUT);
    }
}
