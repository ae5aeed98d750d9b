package io.troupe.bench;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.interconnect.IdleMode;
import io.troupe.serialization.wire.FrameProtection;
import io.troupe.interconnect.Interconnect;
import io.troupe.interconnect.InterconnectConfig;
import io.troupe.interconnect.PeerAddress;
import io.troupe.interconnect.PeerCounters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the two nodes of the remote workloads share: node ids, the loopback host, the cluster's id and secret,
 * the {@code --idle} option, starting an interconnect with otherwise default settings, waiting until the other
 * node answers, and the interconnect's health counters.
 *
 * <p>The measuring node (the driver) is node {@value #DRIVER_NODE}; the node in the child process is node
 * {@value #PEER_NODE}.
 */
final class RemoteNodes
{
    /** Node id of the measuring process. */
    static final int DRIVER_NODE = 1;
    /** Node id of the child process. */
    static final int PEER_NODE = 2;
    /** Both nodes listen on loopback. */
    static final String HOST = "127.0.0.1";
    /** {@code --idle}: how the interconnect agent and the embedded media driver wait. */
    static final String IDLE = "idle";
    /** Values of {@code --idle}, mapped to {@link IdleMode}. */
    static final List<String> IDLE_CHOICES = List.of("backoff", "spin");
    /** System property: the frame protection of both nodes (see {@link #frameProtection()}). */
    static final String FRAME_PROTECTION = "troupe.bench.frame-protection";
    /** Pool threads per node unless {@code --threads} says otherwise: two JVMs share the 2 cores. */
    static final int DEFAULT_THREADS = 1;

    /** The cluster secret of every benchmark cluster. */
    static final byte[] SECRET = "troupe benchmark cluster secret!".getBytes(StandardCharsets.US_ASCII);
    private static final long POLL_MS = 10;
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

    private RemoteNodes()
    {
    }

    /**
     * The idle mode from {@code --idle} (default backoff).
     *
     * @param options the parsed options.
     * @return the mode.
     * @throws UsageException if the value is not backoff or spin.
     */
    static IdleMode idle(final Options options)
    {
        return IdleMode.valueOf(options.choice(IDLE, "backoff", IDLE_CHOICES).toUpperCase(Locale.ROOT));
    }

    /**
     * The cluster id of one run, derived from both ports so that both processes compute the same one and
     * concurrent runs (on other ports) never share an Aeron directory.
     *
     * @param driverPort the driver's UDP port.
     * @param peerPort   the child's UDP port.
     * @return the id.
     */
    static String clusterId(final int driverPort, final int peerPort)
    {
        return "bench-" + driverPort + "-" + peerPort;
    }

    /**
     * Starts the interconnect of one of the two nodes with default settings but for the idle mode.
     *
     * @param system     the node's actor system.
     * @param clusterId  from {@link #clusterId}.
     * @param port       the UDP port this node listens on.
     * @param peerNodeId the other node's id.
     * @param peerPort   the UDP port the other node listens on.
     * @param idle       the idle mode.
     * @return the running interconnect.
     */
    static Interconnect start(
        final ActorSystem system,
        final String clusterId,
        final int port,
        final int peerNodeId,
        final int peerPort,
        final IdleMode idle)
    {
        return Interconnect.start(system, new InterconnectConfig()
            .clusterId(clusterId)
            .clusterSecret(SECRET)
            .bindHost(HOST)
            .bindPort(port)
            .idleMode(idle)
            .frameProtection(frameProtection())
            .peer(new PeerAddress(peerNodeId, HOST, peerPort)), RemoteCodecs.registry());
    }

    /**
     * The frame protection of both nodes: the system property {@value #FRAME_PROTECTION} ({@code authenticated},
     * the default, or {@code encrypted}). A property rather than an option, so that the child, which gets this
     * JVM's flags, always agrees: {@code JAVA_OPTS=-Dtroupe.bench.frame-protection=encrypted}.
     *
     * @return the protection.
     * @throws UsageException if the value is neither.
     */
    static FrameProtection frameProtection()
    {
        final String value = System.getProperty(FRAME_PROTECTION, "authenticated").trim().toUpperCase(Locale.ROOT);
        try
        {
            final FrameProtection protection = FrameProtection.valueOf(value);
            if (protection != FrameProtection.UNKNOWN)
            {
                return protection;
            }
        }
        catch (final IllegalArgumentException ex)
        {
            // reported below
        }
        throw new UsageException("-D" + FRAME_PROTECTION + " must be authenticated or encrypted, not " + value);
    }

    /**
     * What a remote workload does once both nodes are up.
     *
     * @param <T> what it returns.
     */
    @FunctionalInterface
    interface PairWork<T>
    {
        /**
         * Runs the workload.
         *
         * @param interconnect this node's interconnect.
         * @param peer         the child process.
         * @return the workload's result.
         * @throws InterruptedException if interrupted.
         */
        T run(Interconnect interconnect, PeerProcess peer) throws InterruptedException;
    }

    /**
     * Runs a workload on the two nodes and takes them down afterwards: starts this node's interconnect on
     * {@code system}, then the child ({@link #startPeer}), runs {@code work}, then stops the child, closes the
     * interconnect and shuts the system down, whether the work returned or threw.
     *
     * @param system      this node's actor system, shut down at the end.
     * @param port        this node's UDP port.
     * @param peerPort    the child's UDP port.
     * @param idle        the idle mode of both.
     * @param threads     the child's pool threads.
     * @param work        the workload.
     * @param peerOptions further options of {@code remote.peer}, as name and value pairs.
     * @param <T>         what the work returns.
     * @return what the work returned.
     * @throws InterruptedException if interrupted.
     */
    static <T> T runPair(final ActorSystem system, final int port, final int peerPort, final IdleMode idle,
        final int threads, final PairWork<T> work, final String... peerOptions) throws InterruptedException
    {
        try
        {
            final Interconnect interconnect = start(system, clusterId(port, peerPort), port, PEER_NODE, peerPort, idle);
            try (PeerProcess peer = startPeer(peerPort, port, idle, threads, peerOptions))
            {
                return work.run(interconnect, peer);
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

    /**
     * Starts the child node: {@code remote.peer} listening on {@code peerPort}, with this node at
     * {@code driverPort} as its peer, the same idle mode and pool threads, and any further options.
     *
     * @param peerPort   the child's UDP port.
     * @param driverPort this node's UDP port.
     * @param idle       the idle mode.
     * @param threads    pool threads of the child.
     * @param extra      further options of {@code remote.peer}, as name and value pairs.
     * @return the running child.
     */
    static PeerProcess startPeer(final int peerPort, final int driverPort, final IdleMode idle, final int threads,
        final String... extra)
    {
        final List<String> args = new ArrayList<>(List.of("remote.peer",
            "--" + RemotePeerWorkload.PORT, Integer.toString(peerPort),
            "--" + RemotePeerWorkload.PEER_PORT, Integer.toString(driverPort),
            "--" + IDLE, idle.name().toLowerCase(Locale.ROOT),
            "--" + Options.THREADS, Integer.toString(threads)));
        args.addAll(List.of(extra));
        return PeerProcess.start(args);
    }

    /**
     * A UDP port free on loopback now; it is released before it is used, so another process could take it in
     * between (the interconnect then fails to start and says so).
     *
     * @param exclude a port not to return (the other node's), or 0.
     * @return the port.
     */
    static int freeUdpPort(final int exclude)
    {
        try
        {
            while (true)
            {
                try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getByName(HOST)))
                {
                    final int port = socket.getLocalPort();
                    if (port != exclude)
                    {
                        return port;
                    }
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Waits until the session with the child is up and an actor behind {@code service} has answered a
     * request: a session counts as up on this side one handshake step before the other side, so only an
     * answer shows that events get through. Each attempt waits {@link #PROBE_TIMEOUT} for the answer.
     *
     * @param system       the driver's actor system.
     * @param interconnect the driver's interconnect.
     * @param peer         the child process, checked to be alive while waiting.
     * @param service      the service id to ask.
     * @param request      the request.
     * @param type         its type id.
     * @param timeout      how long to keep trying.
     * @return the first answer.
     * @throws InterruptedException if interrupted while waiting.
     * @throws IllegalStateException if the child exits or nothing answers in time.
     */
    static Object awaitAnswer(
        final ActorSystem system,
        final Interconnect interconnect,
        final PeerProcess peer,
        final ActorId service,
        final Object request,
        final int type,
        final Duration timeout) throws InterruptedException
    {
        final long startNs = System.nanoTime();
        final long deadlineNs = startNs + timeout.toNanos();
        while (!interconnect.isConnected(PEER_NODE))
        {
            peer.checkAlive();
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException("no session with node " + PEER_NODE + " within " + timeout);
            }
            TimeUnit.MILLISECONDS.sleep(POLL_MS);
        }
        final long sessionNs = System.nanoTime();
        int attempts = 0;
        while (true)
        {
            peer.checkAlive();
            attempts++;
            try
            {
                final Object answer = system.ask(service, request, type, PROBE_TIMEOUT)
                    .get(PROBE_TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS);
                Report.progress("  session up after %.2f s, first answer after %.2f s more (%d attempt%s)",
                    (sessionNs - startNs) / 1e9, (System.nanoTime() - sessionNs) / 1e9, attempts,
                    attempts == 1 ? "" : "s");
                return answer;
            }
            catch (final ExecutionException | TimeoutException ex)
            {
                if (System.nanoTime() - deadlineNs > 0)
                {
                    throw new IllegalStateException(service + " did not answer within " + timeout, ex);
                }
            }
        }
    }

    /**
     * Asks a remote actor and waits for its answer.
     *
     * @param system  the asking system.
     * @param target  the actor or service.
     * @param request the request.
     * @param type    its type id.
     * @param timeout how long to wait.
     * @return the answer.
     * @throws InterruptedException  if interrupted while waiting.
     * @throws IllegalStateException if no answer comes in time or the request is undelivered.
     */
    static Object ask(final ActorSystem system, final ActorId target, final Object request, final int type,
        final Duration timeout) throws InterruptedException
    {
        try
        {
            return system.ask(target, request, type, timeout).get(timeout.toMillis() * 2, TimeUnit.MILLISECONDS);
        }
        catch (final ExecutionException | TimeoutException ex)
        {
            throw new IllegalStateException(target + " did not answer within " + timeout, ex);
        }
    }

    /**
     * Prints the interconnect's per-peer counters on stderr: shed or back-pressured events, a deep queue or
     * rejected frames reveal a run that measured something else than intended.
     *
     * @param interconnect the interconnect to read.
     */
    static void reportHealth(final Interconnect interconnect)
    {
        for (final PeerCounters peer : interconnect.peerCounters())
        {
            Report.progress("  interconnect peer %d: connected=%s eventsOut=%d eventsIn=%d bytesOut=%d bytesIn=%d " +
                "backPressured=%d queueDepth=%d shed=%d refusedDown=%d rejectedFrames=%d sessionsUp=%d " +
                "sessionsDown=%d rttSmoothedUs=%d rttMinUs=%d",
                peer.nodeId(), peer.connected(), peer.eventsOut(), peer.eventsIn(), peer.bytesOut(), peer.bytesIn(),
                peer.backPressured(), peer.queueDepth(), peer.shed(), peer.refusedDown(), peer.rejectedFrames(),
                peer.sessionsUp(), peer.sessionsDown(), peer.rttSmoothedNs() / 1000, peer.rttMinNs() / 1000);
        }
    }
}
