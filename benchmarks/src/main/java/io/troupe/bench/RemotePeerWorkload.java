package io.troupe.bench;

import io.troupe.actor.ActorSystem;
import io.troupe.actor.ServiceId;
import io.troupe.interconnect.IdleMode;
import io.troupe.interconnect.Interconnect;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;

/**
 * {@code remote.peer}: the other node of {@code remote.throughput} and {@code remote.rtt}, which start it as
 * their child process; not meant to be run by hand.
 *
 * <p>Starts node {@value RemoteNodes#PEER_NODE} with one pool of {@code --threads} threads, registers a
 * {@link ChunkSink} as service {@value #SINK} and an {@link Echo} as service {@value #ECHO}, starts its
 * interconnect on {@code --port} with the driver at {@code --peer-port} as its one peer, and runs until its
 * stdin reaches end of file (the driver closes it, or dies). Then it prints its counters on stderr, closes the
 * interconnect (saying goodbye) and the system, and exits.
 */
final class RemotePeerWorkload implements Workload
{
    /** Service name of the {@link ChunkSink}. */
    static final String SINK = "sink";
    /** Service name of the {@link Echo}. */
    static final String ECHO = "echo";
    /** This node's UDP port. */
    static final String PORT = "port";
    /** The driver's UDP port. */
    static final String PEER_PORT = "peer-port";

    @Override
    public String name()
    {
        return "remote.peer";
    }

    @Override
    public List<String> options()
    {
        return List.of(PORT, PEER_PORT, RemoteNodes.IDLE);
    }

    @Override
    public String usage()
    {
        return "  remote.peer --port P --peer-port Q [--idle backoff|spin]\n" +
            "                                 the child node of remote.throughput and remote.rtt (started by them)";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        if (!options.has(PORT) || !options.has(PEER_PORT))
        {
            throw new UsageException("remote.peer needs --port and --peer-port");
        }
        final int port = (int)options.count(PORT, 0, 1, 65535);
        final int peerPort = (int)options.count(PEER_PORT, 0, 1, 65535);
        final IdleMode idle = RemoteNodes.idle(options);
        final int threads = options.threads(RemoteNodes.DEFAULT_THREADS);
        Report.progress("remote.peer: node %d on %s:%d, driver at %s:%d, idle=%s threads=%d pid=%d", RemoteNodes.PEER_NODE,
            RemoteNodes.HOST, port, RemoteNodes.HOST, peerPort, idle, threads, ProcessHandle.current().pid());

        final ActorSystem system = BenchSystems.start(threads, RemoteNodes.PEER_NODE);
        try
        {
            system.registerService(ServiceId.of(0, SINK), system.register(new ChunkSink()));
            system.registerService(ServiceId.of(0, ECHO), system.register(new Echo()));
            final Interconnect interconnect =
                RemoteNodes.start(system, RemoteNodes.clusterId(peerPort, port), port, RemoteNodes.DRIVER_NODE, peerPort, idle);
            try
            {
                awaitEndOfInput(System.in);
                Report.progress("remote.peer: stopping");
                RemoteNodes.reportHealth(interconnect);
                BenchSystems.reportHealth(system);
            }
            finally
            {
                interconnect.close();
            }
        }
        finally
        {
            system.shutdown(Duration.ZERO);
        }
    }

    private static void awaitEndOfInput(final InputStream in)
    {
        final byte[] ignored = new byte[64];
        try
        {
            while (in.read(ignored) >= 0)
            {
                // the driver writes nothing; only the end of the stream matters
            }
        }
        catch (final IOException ex)
        {
            Report.progress("remote.peer: stdin failed (%s); stopping", ex);
        }
    }
}
