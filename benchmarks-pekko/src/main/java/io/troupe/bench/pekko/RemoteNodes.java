package io.troupe.bench.pekko;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.SpawnProtocol;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.japi.function.Function;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the two nodes of the remote workloads share: the loopback host, the transport options, the Artery
 * configuration built from them, free ports, the child's actor names, starting the child with the same settings,
 * resolving a remote actor once, and asking.
 *
 * <p>Both nodes run the plain remote provider ({@code pekko.actor.provider = remote}, no cluster) with Artery on
 * 127.0.0.1: TCP ({@code --transport tcp}) or Aeron UDP with an embedded media driver
 * ({@code --transport aeron}, its directory {@code /dev/shm/pekko-bench-<port>}, deleted when the node stops).
 */
final class RemoteNodes
{
    /** Both nodes listen on loopback. */
    static final String HOST = "127.0.0.1";
    /** {@code --transport}: Artery's transport. */
    static final String TRANSPORT = "transport";
    /** {@code --transport tcp}: Artery TCP. */
    static final String TCP = "tcp";
    /** {@code --transport aeron}: Artery Aeron UDP. */
    static final String AERON = "aeron";
    /** {@code --idle-cpu-level}: Artery Aeron's CPU/latency trade-off, 1..10 (no effect with TCP). */
    static final String IDLE_CPU_LEVEL = "idle-cpu-level";
    /** {@code --inbound-lanes}: Artery's inbound lanes (deserialization in parallel per recipient). */
    static final String INBOUND_LANES = "inbound-lanes";
    /** Options every remote workload accepts. */
    static final List<String> OPTIONS = List.of(TRANSPORT, IDLE_CPU_LEVEL, INBOUND_LANES);
    /** Dispatcher threads per node unless {@code --threads} says otherwise: two JVMs share the 2 cores. */
    static final int DEFAULT_THREADS = 1;
    /** The child's chunk sink's name, under {@code /user}. */
    static final String SINK = "sink";
    /** The child's echo's name, under {@code /user}. */
    static final String ECHO = "echo";
    /** The child's port. */
    static final String PORT = "port";
    /** Where a node's embedded Aeron media driver keeps its files: this and the node's port. */
    static final String AERON_DIR_PREFIX = "/dev/shm/pekko-bench-";

    private static final int MAX_LANES = 64;
    private static final String COMMON_SETTINGS = " use-dispatcher=default-dispatcher compression-advertisement=1s";
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);
    private static final long RETRY_MS = 200;

    private RemoteNodes()
    {
    }

    /**
     * A node's transport settings.
     *
     * @param transport    {@link #TCP} or {@link #AERON}.
     * @param idleCpuLevel {@code pekko.remote.artery.advanced.aeron.idle-cpu-level}, 1..10.
     * @param inboundLanes {@code pekko.remote.artery.advanced.inbound-lanes}.
     */
    record Transport(String transport, int idleCpuLevel, int inboundLanes)
    {
        /**
         * The node's remoting configuration.
         *
         * @param port the port it listens on (TCP or UDP).
         * @return HOCON.
         */
        String hocon(final int port)
        {
            // use-dispatcher: Artery's stream stages run on the default dispatcher, the actors' one thread, rather
            // than on a pool of their own (pekko.remote.default-remote-dispatcher, 2 threads): on 2 cores shared
            // by two nodes, fewer threads and hand-offs (remote.throughput +25%, remote.rtt p50 -20% with tcp).
            // advertisement-interval: Artery replaces recipient paths and manifests by compression table ids once
            // it has advertised its tables, by default after a minute; at 1 s the tables are in use before the
            // window opens, the steady state of any longer-running node (remote.throughput +20% with tcp).
            return String.format(Locale.ROOT, "pekko.actor.provider = remote%n" +
                "pekko.remote.artery {%n" +
                "  transport = %s%n" +
                "  canonical.port = %d%n" +
                "  advanced.use-dispatcher = \"pekko.actor.default-dispatcher\"%n" +
                "  advanced.compression.actor-refs.advertisement-interval = 1s%n" +
                "  advanced.compression.manifests.advertisement-interval = 1s%n" +
                "  advanced.inbound-lanes = %d%n" +
                "  advanced.aeron.aeron-dir = \"%s%d\"%n" +
                "  advanced.aeron.idle-cpu-level = %d%n" +
                "}%n", AERON.equals(transport) ? "aeron-udp" : "tcp", port, inboundLanes, AERON_DIR_PREFIX, port,
                idleCpuLevel);
        }

        /**
         * The same settings as {@code remote.peer} options.
         *
         * @return option names and values.
         */
        List<String> args()
        {
            return List.of("--" + TRANSPORT, transport, "--" + IDLE_CPU_LEVEL, Integer.toString(idleCpuLevel),
                "--" + INBOUND_LANES, Integer.toString(inboundLanes));
        }

        @Override
        public String toString()
        {
            return AERON.equals(transport) ?
                String.format(Locale.ROOT, "transport=aeron (Artery aeron-udp, embedded media driver) " +
                    "idle-cpu-level=%d inbound-lanes=%d%s", idleCpuLevel, inboundLanes, COMMON_SETTINGS) :
                String.format(Locale.ROOT, "transport=tcp (Artery tcp) inbound-lanes=%d%s", inboundLanes,
                    COMMON_SETTINGS);
        }
    }

    /**
     * The transport settings from the command line.
     *
     * @param options             the parsed options.
     * @param defaultIdleCpuLevel the workload's chosen idle CPU level.
     * @param defaultInboundLanes the workload's chosen number of inbound lanes.
     * @return the settings.
     */
    static Transport transport(final Options options, final int defaultIdleCpuLevel, final int defaultInboundLanes)
    {
        return new Transport(options.choice(TRANSPORT, TCP, List.of(TCP, AERON)),
            (int)options.count(IDLE_CPU_LEVEL, defaultIdleCpuLevel, 1, 10),
            (int)options.count(INBOUND_LANES, defaultInboundLanes, 1, MAX_LANES));
    }

    /**
     * A port free on loopback now, TCP or UDP as the transport needs; it is released before it is used, so
     * another process could take it in between (the node then fails to start and says so).
     *
     * @param transport {@link #TCP} or {@link #AERON}.
     * @param exclude   a port not to return (the other node's), or 0.
     * @return the port.
     */
    static int freePort(final String transport, final int exclude)
    {
        try
        {
            while (true)
            {
                final int port;
                if (AERON.equals(transport))
                {
                    try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getByName(HOST)))
                    {
                        port = socket.getLocalPort();
                    }
                }
                else
                {
                    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST)))
                    {
                        port = socket.getLocalPort();
                    }
                }
                if (port != exclude)
                {
                    return port;
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Starts the child node: {@code remote.peer} on {@code peerPort} with the same dispatcher and transport.
     *
     * @param peerPort   the child's port.
     * @param dispatcher the dispatcher settings.
     * @param transport  the transport settings.
     * @return the running child.
     */
    static PeerProcess startPeer(final int peerPort, final PekkoSystems.Dispatcher dispatcher,
        final Transport transport)
    {
        final List<String> args = new ArrayList<>(List.of("remote.peer", "--" + PORT, Integer.toString(peerPort),
            "--" + Options.THREADS, Integer.toString(dispatcher.threads()),
            "--" + Options.EXECUTOR, dispatcher.executor(),
            "--" + Options.DISPATCHER_THROUGHPUT, Integer.toString(dispatcher.throughput())));
        args.addAll(transport.args());
        return PeerProcess.start(args);
    }

    /**
     * Resolves an actor of the child once, by its path ({@code actorSelection(...).resolveOne}, an
     * Identify/ActorIdentity round trip over the association), retrying until it answers: when it returns, the
     * association is up and messages get through both ways.
     *
     * @param system  this node's system.
     * @param port    the child's port.
     * @param name    the actor's name under {@code /user}.
     * @param peer    the child process, checked to be alive while waiting.
     * @param timeout how long to keep trying.
     * @param <T>     the actor's message type.
     * @return the actor's reference.
     * @throws InterruptedException  if interrupted.
     * @throws IllegalStateException if the child exits or the actor does not answer in time.
     */
    static <T> ActorRef<T> resolve(final ActorSystem<?> system, final int port, final String name,
        final PeerProcess peer, final Duration timeout) throws InterruptedException
    {
        final String path = "pekko://" + PekkoSystems.PEER_SYSTEM_NAME + "@" + HOST + ":" + port + "/user/" + name;
        final long startNs = System.nanoTime();
        final long deadlineNs = startNs + timeout.toNanos();
        int attempts = 0;
        while (true)
        {
            peer.checkAlive();
            attempts++;
            try
            {
                final org.apache.pekko.actor.ActorRef classic = // name clash
                    Adapter.toClassic(system).actorSelection(path).resolveOne(PROBE_TIMEOUT).toCompletableFuture()
                    .get(PROBE_TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS);
                Report.progress("  resolved %s after %.2f s (%d attempt%s)", path, (System.nanoTime() - startNs) / 1e9,
                    attempts, attempts == 1 ? "" : "s");
                return Adapter.toTyped(classic);
            }
            catch (final ExecutionException | TimeoutException ex)
            {
                if (System.nanoTime() - deadlineNs > 0)
                {
                    throw new IllegalStateException(path + " did not answer within " + timeout, ex);
                }
                TimeUnit.MILLISECONDS.sleep(RETRY_MS);
            }
        }
    }

    /**
     * Asks an actor and waits for its answer.
     *
     * @param system  the asking system.
     * @param target  the actor.
     * @param request makes the request from the temporary actor the answer goes to.
     * @param timeout how long to wait.
     * @param <Req>   the target's message type.
     * @param <Res>   the answer's type.
     * @return the answer.
     * @throws InterruptedException  if interrupted while waiting.
     * @throws IllegalStateException if no answer comes in time.
     */
    static <Req, Res> Res ask(final ActorSystem<?> system, final RecipientRef<Req> target,
        final Function<ActorRef<Res>, Req> request, final Duration timeout) throws InterruptedException
    {
        try
        {
            return AskPattern.ask(target, request, timeout, system.scheduler()).toCompletableFuture()
                .get(timeout.toMillis() * 2, TimeUnit.MILLISECONDS);
        }
        catch (final ExecutionException | TimeoutException ex)
        {
            throw new IllegalStateException(target + " did not answer within " + timeout, ex);
        }
    }

    /**
     * Spawns an actor under a {@link SpawnProtocol} guardian.
     *
     * @param system   the system, whose guardian is {@link SpawnProtocol#create()}.
     * @param behavior the actor's behaviour.
     * @param name     its name.
     * @param <T>      its message type.
     * @return its reference.
     * @throws InterruptedException if interrupted.
     */
    static <T> ActorRef<T> spawn(final ActorSystem<SpawnProtocol.Command> system, final Behavior<T> behavior,
        final String name) throws InterruptedException
    {
        return ask(system, system,
            (ActorRef<ActorRef<T>> replyTo) -> new SpawnProtocol.Spawn<>(behavior, name, Props.empty(), replyTo),
            Duration.ofSeconds(10));
    }

    /**
     * Takes both nodes down: stops the child first (end of file on its stdin; it terminates its own system, whose
     * association says goodbye to this node's), then terminates this node's system, and checks that neither node
     * left an Aeron directory behind. In this order neither node counts anything undelivered; in the other order
     * the child counts a couple of the goodbye's own messages.
     *
     * @param system   this node's system.
     * @param peer     the child, or null if it was not started.
     * @param port     this node's port.
     * @param peerPort the child's port.
     * @throws InterruptedException if interrupted while waiting.
     */
    static void stop(final ActorSystem<?> system, final PeerProcess peer, final int port, final int peerPort)
        throws InterruptedException
    {
        try
        {
            if (peer != null)
            {
                peer.close();
            }
        }
        finally
        {
            PekkoSystems.terminate(system);
        }
        for (final int p : new int[] {port, peerPort})
        {
            if (Files.exists(Path.of(AERON_DIR_PREFIX + p)))
            {
                Report.progress("  warning: %s%d is still there", AERON_DIR_PREFIX, p);
            }
        }
    }
}
