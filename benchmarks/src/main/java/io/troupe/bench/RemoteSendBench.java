package io.troupe.bench;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.Envelope;
import io.troupe.actor.ServiceId;
import io.troupe.actor.UndeliveredReason;
import io.troupe.interconnect.IdleMode;
import io.troupe.interconnect.Interconnect;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The remote send path, end to end on the sending node: {@link Interconnect#send} of a fixed-size event (a
 * {@link Chunk}, 24 bytes encoded) encodes it into a pooled frame and queues it for the peer; the node's
 * interconnect agent packs the queued frames into datagrams and offers them to the Aeron publication, and the
 * embedded media driver sends them to a real second node (a child process, as in {@code remote.throughput}),
 * whose sink decodes and counts them. One operation is one event accepted for sending: a send the full
 * outbound queue refuses ({@code SHED}, back pressure) yields and is retried, so the rate is what the agent
 * drains, and {@code -prof gc}'s bytes per operation are what every thread of the sending JVM (the benchmark
 * thread, the interconnect agent, the media driver) allocates per event sent:
 *
 * <pre>
 * java -jar benchmarks/target/troupe-benchmarks.jar jmh RemoteSendBench -prof gc
 * </pre>
 *
 * <p>The event and its envelope are made once and sent again and again (untracked, charged to no account), so
 * the figure is the send path's own allocation, without the 88 bytes a real sender spends on a new envelope
 * and event (see {@code remote.throughput}'s stderr). The chunk's seq stays 0, so the sink never acknowledges
 * (it counts every chunk after the first as out of order, which costs the sending node nothing).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseG1GC", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class RemoteSendBench
{
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(60);

    /** Node 1 (this JVM), its interconnect, node 2 (a child process) and the envelope sent to its sink. */
    @State(Scope.Benchmark)
    public static class Nodes
    {
        ActorSystem system;
        Interconnect interconnect;
        PeerProcess peer;
        Envelope envelope;

        /**
         * Starts both nodes and waits until the child's sink answers.
         *
         * @throws InterruptedException if interrupted.
         */
        @Setup(Level.Trial)
        public void start() throws InterruptedException
        {
            final int port = RemoteNodes.freeUdpPort(0);
            final int peerPort = RemoteNodes.freeUdpPort(port);
            system = ActorSystem.start(BenchSystems.config(RemoteNodes.DEFAULT_THREADS, RemoteNodes.DRIVER_NODE));
            interconnect = RemoteNodes.start(system, RemoteNodes.clusterId(port, peerPort), port, RemoteNodes.PEER_NODE,
                peerPort, IdleMode.BACKOFF);
            peer = RemoteNodes.startPeer(peerPort, port, IdleMode.BACKOFF, RemoteNodes.DEFAULT_THREADS);
            final ActorId sink = ServiceId.of(RemoteNodes.PEER_NODE, RemotePeerWorkload.SINK);
            RemoteNodes.awaitAnswer(system, interconnect, peer, sink, Tally.REQUEST, RemoteCodecs.TALLY_TYPE,
                CONNECT_TIMEOUT);
            final ActorId sender = system.register(new IdleActor());
            envelope = new Envelope(sink, sender, RemoteCodecs.CHUNK_TYPE, 0, 0L,
                new Chunk(0, new byte[Chunk.DATA_BYTES]), null);
        }

        /** Stops the child, then this node. */
        @TearDown(Level.Trial)
        public void stop()
        {
            peer.close();
            interconnect.close();
            system.shutdown(Duration.ZERO);
        }
    }

    /**
     * Sends one chunk to the other node, retrying (after a yield) while the outbound queue is full.
     *
     * @param nodes the nodes.
     * @return null (the send was accepted).
     */
    @Benchmark
    public UndeliveredReason send(final Nodes nodes)
    {
        UndeliveredReason refused;
        while ((refused = nodes.interconnect.send(nodes.envelope)) == UndeliveredReason.SHED)
        {
            Thread.yield();
        }
        if (refused != null)
        {
            throw new IllegalStateException("send refused: " + refused);
        }
        return refused;
    }
}
