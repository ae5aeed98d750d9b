package io.troupe.bench;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.ServiceId;
import io.troupe.actor.FlowControlConfig;
import io.troupe.actor.MailboxType;
import io.troupe.interconnect.IdleMode;
import io.troupe.interconnect.Interconnect;
import io.troupe.memquota.Account;
import io.troupe.memquota.MemoryQuotaConfig;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;

/**
 * {@code remote.peer}: the other node of {@code remote.throughput}, {@code remote.rtt} and {@code flow.flood},
 * which start it as their child process; not meant to be run by hand.
 *
 * <p>Starts node {@value RemoteNodes#PEER_NODE} with one pool of {@code --threads} threads, flow control on
 * unless {@code --accounts off}, and a memory quota of {@code --quota-mb} MiB if given; registers a
 * {@link ChunkSink} as service {@value #SINK}, an {@link Echo} as service {@value #ECHO}, a
 * {@link FloodConsumer} as service {@value #FLOOD} (on a memory-tracked mailbox when there is a quota) and its
 * {@link FloodMonitor} as service {@value #FLOOD_MONITOR}, starts its
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
    /** Service name of the {@link FloodConsumer}. */
    static final String FLOOD = "flood";
    /** Service name of the {@link FloodMonitor}. */
    static final String FLOOD_MONITOR = "flood-mon";
    /** This node's UDP port. */
    static final String PORT = "port";
    /** The driver's UDP port. */
    static final String PEER_PORT = "peer-port";
    /** Flow control on or off. */
    static final String ACCOUNTS = "accounts";
    /** The node's memory quota in MiB; none without it. */
    static final String QUOTA_MB = "quota-mb";

    private static final long MAX_QUOTA_MB = 1L << 20;

    @Override
    public String name()
    {
        return "remote.peer";
    }

    @Override
    public List<String> options()
    {
        return List.of(PORT, PEER_PORT, RemoteNodes.IDLE, ACCOUNTS, QUOTA_MB);
    }

    @Override
    public String usage()
    {
        return "  remote.peer --port P --peer-port Q [--idle backoff|spin] [--accounts on|off] [--quota-mb M]\n" +
            "                                 the child node of remote.throughput, remote.rtt and flow.flood " +
            "(started\n" +
            "                                 by them)";
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
        final boolean accounts = options.choice(ACCOUNTS, "on", List.of("on", "off")).equals("on");
        final long quotaMb = options.has(QUOTA_MB) ? options.count(QUOTA_MB, 0, 1, MAX_QUOTA_MB) : 0;
        Report.progress("remote.peer: node %d on %s:%d, driver at %s:%d, idle=%s threads=%d accounts=%s quota=%s " +
            "pid=%d", RemoteNodes.PEER_NODE, RemoteNodes.HOST, port, RemoteNodes.HOST, peerPort, idle, threads,
            accounts ? "on" : "off", quotaMb == 0 ? "none" : quotaMb + " MiB", ProcessHandle.current().pid());

        final ActorSystemConfig config = BenchSystems.config(threads, RemoteNodes.PEER_NODE)
            .flowControl(accounts ? new FlowControlConfig() : FlowControlConfig.disabled());
        if (quotaMb > 0)
        {
            config.memoryQuota(MemoryQuotaConfig.of(quotaMb << 20));
        }
        final ActorSystem system = ActorSystem.start(config);
        try
        {
            system.registerService(ServiceId.of(0, SINK), system.register(new ChunkSink()));
            system.registerService(ServiceId.of(0, ECHO), system.register(new Echo()));
            registerFlood(system, quotaMb > 0);
            final Interconnect interconnect =
                RemoteNodes.start(system, RemoteNodes.clusterId(peerPort, port), port, RemoteNodes.DRIVER_NODE,
                    peerPort, idle);
            try
            {
                awaitEndOfInput(System.in, name());
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

    private static void registerFlood(final ActorSystem system, final boolean tracked)
    {
        final FloodConsumer consumer = new FloodConsumer();
        final ActorId consumerId;
        if (tracked)
        {
            try (Account account = system.memoryQuota().newAccount())
            {
                consumerId = system.register(consumer, 0, MailboxType.SIMPLE, account);
            }
        }
        else
        {
            consumerId = system.register(consumer);
        }
        system.registerService(ServiceId.of(0, FLOOD), consumerId);
        system.registerService(ServiceId.of(0, FLOOD_MONITOR), system.register(new FloodMonitor(consumer)));
    }

    /**
     * Blocks until the driver closes the child's stdin (or dies): how a child workload knows to stop.
     *
     * @param in  the child's stdin.
     * @param who the workload, for the message if reading fails.
     */
    static void awaitEndOfInput(final InputStream in, final String who)
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
            Report.progress("%s: stdin failed (%s); stopping", who, ex);
        }
    }
}
