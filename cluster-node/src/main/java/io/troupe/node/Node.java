package io.troupe.node;

import io.troupe.actor.ActorSystem;
import io.troupe.broker.BrokerCodecs;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.broker.BrokerDirectory;
import io.troupe.interconnect.Interconnect;
import io.troupe.interconnect.InterconnectConfig;
import io.troupe.interconnect.PeerAddress;
import io.troupe.interconnect.PrivateDirectory;
import io.troupe.interconnect.scheduler.PeerScheduler;
import io.troupe.node.client.ClientIngress;
import io.troupe.node.client.ClientIngressConfig;
import io.troupe.node.control.ControlServer;
import io.troupe.node.counters.CountersPublisher;
import io.troupe.node.metrics.ActorTypeMetrics;
import io.troupe.node.metrics.MetricsConfig;
import io.troupe.node.metrics.PrometheusEndpoint;
import io.troupe.membership.Membership;
import io.troupe.registry.RegistryCodecs;
import io.troupe.registry.RegistryConfig;
import io.troupe.registry.ServiceRegistry;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.EventCodecRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A running node: the actor system and the interconnect of one {@link NodeConfig}, started together and
 * stopped together.
 *
 * <p>{@link #start} creates the data directory, starts the actor system from
 * {@link NodeConfig#actorSystemConfig()}, lets the caller register the node's actors and services, and only
 * then starts the interconnect from {@link NodeConfig#interconnectConfig()}, so that no peer ever reaches the
 * node without them; the interconnect speaks an {@link EventCodecRegistry} of Troupe's codecs, the broker's
 * and the caller's.
 *
 * <p>{@link #close()} is the clean shutdown:
 * <ol>
 *   <li>the actor system stops accepting events from outside; the interconnect leaves events from other nodes
 *       unacknowledged from then on, so their senders still answer for them;</li>
 *   <li>the pools drain for up to {@code troupe.shutdown-timeout}, sending to other nodes as usual;</li>
 *   <li>tracked events still queued become {@code Undelivered(SHUTDOWN)}: senders on other nodes are told
 *       through the interconnect, which is still up;</li>
 *   <li>the interconnect lets its queues empty and its peers acknowledge them (for at most the failure
 *       timeout), says goodbye, so that peers see the departure at once rather than after their failure
 *       detector's timeout, reports what it still holds as {@code Undelivered(SHUTDOWN)}, and removes its Aeron
 *       directory.</li>
 * </ol>
 * A process that runs a node closes it from a shutdown hook, so that SIGTERM and Ctrl-C stop it cleanly
 * ({@code troupe node} does).
 *
 * <p>Thread safe. {@link #close()} runs once; a concurrent or later call waits for that one to finish.
 */
public final class Node implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(Node.class);

    private final NodeConfig config;
    private final ActorSystem system;
    private final Interconnect interconnect;
    private final RemoteDeadLetters deadLetters;
    private final NodeIdentity identity;
    private final ServiceRegistry registry;
    /** The door for client processes, or null when none is admitted (or not yet: the application sets up). */
    private volatile ClientIngress clients;
    private final NodeCounters counters;
    private final BrokerDirectory brokers;
    private final PeerScheduler peerScheduler;
    /** The local control channel (troupe drain, troupe stop), or null if its socket could not be made. */
    private volatile ControlServer control;
    /** The Prometheus endpoint, or null when off. */
    private volatile PrometheusEndpoint metrics;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Object closeLock = new Object();
    private boolean closeStarted;
    private volatile boolean drained;
    /** The data directory's lock, held until the close has ended; set as soon as the node object exists. */
    private volatile DataDirLock dirLock;
    /** Why the node stopped itself (its transport gone), or null. */
    private volatile String failure;
    /** Set when the membership lease is lost: the node stops without a leave (it is no member any more). */
    private volatile boolean leaseLost;
    /** The node's membership, or null for a node of a static peer list. */
    private NodeMembership membership;

    private Node(
        final NodeConfig config,
        final ActorSystem system,
        final Interconnect interconnect,
        final RemoteDeadLetters deadLetters,
        final NodeIdentity identity,
        final ServiceRegistry registry,
        final NodeCounters counters)
    {
        this.counters = counters;
        this.identity = identity;
        this.registry = registry;
        this.config = config;
        this.system = system;
        this.interconnect = interconnect;
        this.deadLetters = deadLetters;
        this.brokers = new BrokerDirectory(system);
        this.peerScheduler = PeerScheduler.start(system, config.schedulerConfig(),
            config.interconnectConfig().peers().stream().mapToInt(PeerAddress::nodeId).toArray());
    }

    /**
     * Starts a node without actors of its own (others may still register some later).
     *
     * @param config      the node's config.
     * @param extraCodecs codecs of the caller's own event types that cross nodes, in user spaces.
     * @return the running node.
     * @throws UncheckedIOException  if the data directory cannot be created.
     * @throws IllegalStateException if two codecs claim one type id or one class.
     * @throws RuntimeException      if the actor system or the interconnect cannot start (such as a port in use);
     *                               whatever started is stopped again.
     */
    public static Node start(final NodeConfig config, final EventCodec<?>... extraCodecs)
    {
        return start(config, system ->
        {
        }, extraCodecs);
    }

    /**
     * Starts a node.
     *
     * @param config      the node's config.
     * @param setup       registers the node's actors and services, on the running actor system, before the
     *                    interconnect starts; it may send to local actors, not yet to other nodes.
     * @param extraCodecs codecs of the caller's own event types that cross nodes, in user spaces.
     * @return the running node.
     * @throws UncheckedIOException  if the data directory cannot be created.
     * @throws IllegalStateException if two codecs claim one type id or one class.
     * @throws NodeStartException   if a port is in use (the node's or the Prometheus endpoint's), naming the key, or
     *                               the data directory is another running node's;
     *                               whatever started is stopped again.
     * @throws RuntimeException      if the actor system or the interconnect cannot start otherwise, or the setup
     *                               throws; whatever started is stopped again.
     */
    public static Node start(final NodeConfig config, final Consumer<ActorSystem> setup,
        final EventCodec<?>... extraCodecs)
    {
        return start(config, setup, node ->
        {
        }, extraCodecs);
    }

    /**
     * Starts a node and its application: {@code application} runs once the node's directory and interconnect run and
     * before it admits clients and says it is up, so a client that connects as soon as it can finds the services the
     * application registers ({@link NodeSetup}s, as {@code troupe node} runs them).
     *
     * @param config      the node's config.
     * @param setup       registers actors on the running actor system before the interconnect starts.
     * @param application sets the application up on the node: its actors, its services in the directory.
     * @param extraCodecs codecs of the caller's own event types that cross nodes, in user spaces.
     * @return the running node.
     * @throws NodeStartException if the application throws one, or as {@link #start(NodeConfig, Consumer,
     *                            EventCodec[])} says; whatever started is stopped again.
     * @throws RuntimeException   as {@link #start(NodeConfig, Consumer, EventCodec[])} says, or if the application
     *                            throws; whatever started is stopped again.
     */
    public static Node start(final NodeConfig config, final Consumer<ActorSystem> setup,
        final Consumer<Node> application, final EventCodec<?>... extraCodecs)
    {
        final EventCodecRegistry codecs = codecs(extraCodecs);
        LOG.info("starting {}", config.describe());
        // 0700, of this user, no link, and a node's own (see PrivateDirectory); a problem says what and why
        final String who = config.idAssigned() ? "a node whose id is assigned" : "node " + config.nodeId();
        PrivateDirectory.prepare(config.dataDir(), "data directory (" + who + ")");
        // one node per data directory: a second start fails here, before it touches anything of the first's
        final DataDirLock dirLock = DataDirLock.acquire(config.dataDir(), who);
        try
        {
            return startLocked(config, setup, application, codecs, dirLock);
        }
        catch (final RuntimeException | Error ex)
        {
            dirLock.close();
            throw ex;
        }
    }

    /** A node that knows its id: its config with the id, this start's identity, its counters and membership. */
    private record Joined(NodeConfig config, NodeIdentity identity, NodeCounters counters, NodeMembership membership)
    {
    }

    /**
     * Takes this start's incarnation and, with a membership, joins before anything serves: the id is the cluster's
     * (assigned, if the config has none), and peers learn of this node from the table. The counters file is made
     * once the id is known; the membership's errors go to its error log from then on.
     */
    private static Joined join(final NodeConfig configured)
    {
        // durable before the node announces itself: a restart is always a new incarnation
        final NodeIdentity started = NodeIdentity.advance(configured.dataDir(), configured.nodeId());
        final ErrorRelay membershipErrors = new ErrorRelay(LOG, "membership");
        final NodeMembership membership = configured.membershipConfig().enabled() ?
            NodeMembership.join(configured, started.nodeId(), started.incarnation(), membershipErrors) : null;
        try
        {
            final NodeConfig config = configured.idAssigned() ? configured.withAssignedId(membership.nodeId()) :
                configured;
            final NodeIdentity identity = started.assigned(config.dataDir(), config.nodeId()); // asked for next time
            // before the rest, so that every agent's errors from the start on are in its error log
            final NodeCounters counters = NodeCounters.create(config, identity.incarnation());
            membershipErrors.relayTo(counters.recorder());
            return new Joined(config, identity, counters, membership);
        }
        catch (final RuntimeException ex)
        {
            closeQuietly(membership);
            throw ex;
        }
    }

    private static Node startLocked(final NodeConfig configured, final Consumer<ActorSystem> setup,
        final Consumer<Node> application, final EventCodecRegistry codecs, final DataDirLock dirLock)
    {
        final Joined joined = join(configured);
        final NodeConfig config = joined.config();
        final NodeIdentity identity = joined.identity();
        final NodeCounters counters = joined.counters();
        final NodeMembership membership = joined.membership();
        final RemoteDeadLetters deadLetters = new RemoteDeadLetters(config.nodeId());
        final MetricsConfig metricsSettings = config.metrics();
        final ActorTypeMetrics actorTypes = metricsSettings.enabled() &&
            metricsSettings.actorTypes() ? new ActorTypeMetrics() : null;
        // local ids count up from the incarnation: none of an earlier start names an actor of this one
        final ActorSystemConfig systemConfig = config.actorSystemConfig().incarnation(identity.incarnation())
            .deadLetterHandler(deadLetters).errorRecorder(counters.recorder()).handlingObserver(actorTypes);
        final ActorSystem system;
        try
        {
            system = ActorSystem.start(systemConfig);
        }
        catch (final RuntimeException ex)
        {
            closeQuietly(membership);
            counters.close();
            throw ex;
        }
        final Interconnect interconnect;
        final RegistryConfig registryConfig = config.registryConfig();
        try
        {
            setup.accept(system);
            interconnect = Interconnect.start(system, config.interconnectConfig().incarnation(identity.incarnation()),
                codecs);
        }
        catch (final RuntimeException ex)
        {
            system.shutdown(Duration.ZERO);
            closeQuietly(membership);
            counters.close();
            if (NodeStartException.addressInUse(ex))
            {
                final InterconnectConfig transport = config.interconnectConfig();
                throw new NodeStartException("troupe.bind.port = " + transport.bindPort() + ": " +
                    transport.bindHost() + ':' + transport.bindPort() + " is in use (another node on this host, or " +
                    "another program?)", ex);
            }
            throw ex;
        }
        deadLetters.interconnect(interconnect);
        // the replica (Chronicle Map: half a second to open) fills in the background, off the node's way to serving;
        // until it is open, processes on this host that read it find the names of no node
        final ServiceRegistry registry = ServiceRegistry.startReplicaInBackground(system, interconnect, registryConfig);
        registry.replicaOpened().whenComplete((opened, failure) ->
        {
            if (failure instanceof CancellationException)
            {
                LOG.info("node {}: stopped before its directory replica was open", config.nodeId());
            }
            else if (failure != null)
            {
                LOG.error("node {}: no directory replica in {} (troupe services and clients on this host cannot " +
                    "read the directory): {}", config.nodeId(), registryConfig.replicaDirectory(), failure.toString());
                counters.recorder().onError(failure);
            }
        });
        final Node node = new Node(config, system, interconnect, deadLetters, identity, registry, counters);
        node.membership = membership;
        node.dirLock = dirLock; // from here on the node's close releases it
        node.serve(application, codecs, actorTypes);
        return node;
    }

    /**
     * The rest of a start, once the node object exists: members become peers, the application sets up, then the node
     * admits clients, publishes its counters, says it is up and, a member, serves (UP). A failure closes the node.
     */
    private void serve(final Consumer<Node> application, final EventCodecRegistry codecs,
        final ActorTypeMetrics actorTypes)
    {
        interconnect.onTransportLost(this::stopOnTransportLoss);
        if (membership != null)
        {
            // members become peers, and member events flow from here on: the application may subscribe to them
            membership.attach(system, interconnect, this::stopOnLeaseLoss);
        }
        try
        {
            application.accept(this);
        }
        catch (final RuntimeException ex)
        {
            close(Duration.ZERO);
            throw ex;
        }
        // only now: a client admitted before the application's services were registered would find none
        final ClientIngressConfig clientConfig = config.clientIngressConfig();
        final ClientIngress ingress = clientConfig == null ? null :
            ClientIngress.start(clientConfig, system, interconnect, registry, codecs);
        clients = ingress;
        if (membership != null && ingress != null)
        {
            membership.admitClients(ingress); // told where clients reach the cluster, now and at each change
        }
        control = ControlServer.start(config.dataDir(), config.nodeId(), new NodeControlCommands(this)::onControl);
        counters.start(new CountersPublisher.Sources(system, interconnect, registry, ingress,
            brokers, counters.recorder(), deadLetters::deadLetters, deadLetters::noticesSent,
            deadLetters::noticesLost, () -> drained ? 1 : 0,
            () -> control == null ? 0 : control.requests(),
            () -> control == null ? 0 : control.refused(), peerScheduler.counters(),
            membership == null ? null : membership.membership()),
            interconnect.incarnation());
        if (config.metrics().enabled())
        {
            try
            {
                metrics = PrometheusEndpoint.start(config.metrics(), config.dataDir(), actorTypes);
            }
            catch (final RuntimeException ex)
            {
                close(Duration.ZERO);
                throw ex instanceof IllegalStateException ? new NodeStartException(ex.getMessage(), ex) : ex;
            }
            LOG.info("node {}: Prometheus metrics on http://{}:{}/metrics", config.nodeId(), config.metrics().host(),
                metrics.port());
        }
        LOG.info("node {}: up (incarnation {}, pid {}; counters in {})", config.nodeId(), interconnect.incarnation(),
            ProcessHandle.current().pid(), counters.path());
        if (membership != null)
        {
            membership.ready(); // JOINING to UP once the service records it; nothing here waits for it
        }
    }

    /**
     * The interconnect's Aeron client closed under it (the media driver stopped, or they timed each other out): a
     * node that cannot reach its peers must not run on as if it could. It stops as on SIGTERM, on a thread of its
     * own, and {@link #failure()} says why; a node process then exits with 1, so its supervisor restarts it.
     */
    private void stopOnTransportLoss(final String why)
    {
        failure = why;
        LOG.error("node {}: stopping: {}", nodeId(), why);
        closeInBackground(config.shutdownTimeout());
    }

    /**
     * The node's membership lease is lost: it is cut off from the voters' majority, or was downed. Nothing it does
     * from now on may count as the cluster's, so it stops at once (no drain: the majority may already be moving its
     * work elsewhere), and {@link #failure()} says why; a node process exits with 1 and its supervisor restarts it
     * as a new incarnation, which joins again.
     */
    private void stopOnLeaseLoss(final String why)
    {
        failure = why;
        leaseLost = true;
        LOG.error("node {}: stopping at once: {}", nodeId(), why);
        closeInBackground(Duration.ZERO);
    }

    private static void closeQuietly(final NodeMembership membership)
    {
        if (membership != null)
        {
            membership.close();
        }
    }

    /**
     * Starts {@link #close(Duration)} on a thread of its own and returns at once: for a close asked for on a thread
     * that must not wait for it (the control channel's, the interconnect's).
     *
     * @param drainTimeout how long the pools may drain.
     */
    void closeInBackground(final Duration drainTimeout)
    {
        new Thread(() -> close(drainTimeout), "troupe-node-close-" + nodeId()).start();
    }

    /**
     * Why the node stopped itself: its transport (the Aeron client and media driver) went away under it. Null for a
     * node that runs, or that was stopped by a caller, a signal or a control request.
     *
     * @return the reason, or null.
     */
    public String failure()
    {
        return failure;
    }

    /**
     * The codecs a node speaks: Troupe's, the broker's (so any node can host and reach brokers), the directory's (for
     * clients' lookups and subscriptions) and the given ones.
     *
     * @param extraCodecs the caller's codecs.
     * @return the registry.
     * @throws IllegalStateException if two codecs claim one type id or one class.
     */
    public static EventCodecRegistry codecs(final EventCodec<?>... extraCodecs)
    {
        final EventCodecRegistry.Builder builder = RegistryCodecs.register(
            BrokerCodecs.register(EventCodecRegistry.builder().withTroupeCodecs()));
        for (final EventCodec<?> codec : extraCodecs)
        {
            builder.register(codec);
        }
        return builder.build();
    }

    /**
     * This node's id.
     *
     * @return the node id.
     */
    public int nodeId()
    {
        return config.nodeId();
    }

    /**
     * The config the node runs with.
     *
     * @return the config.
     */
    public NodeConfig config()
    {
        return config;
    }

    /**
     * The node's actor system: register actors and services here.
     *
     * @return the actor system.
     */
    public ActorSystem system()
    {
        return system;
    }

    /** Closes the directory and its replica; a failure there is logged, never stops the rest of the shutdown. */
    private void closeRegistry()
    {
        try
        {
            registry.close();
        }
        catch (final RuntimeException ex)
        {
            LOG.warn("node {}: closing the service directory failed", nodeId(), ex);
        }
    }

    /**
     * The node's peer request scheduler ({@code troupe.scheduler}): senders wait by priority for offers of open
     * channels to the configured peers that are connected; requests sent through an offer are timed out, routed back
     * by the id it gives them, and failed over when their peer disconnects. Its counters are in the node's counters
     * file ({@code scheduler_*}).
     *
     * @return the scheduler.
     */
    public PeerScheduler peerScheduler()
    {
        return peerScheduler;
    }

    /**
     * The node's named brokers: start one with {@code brokers().start(name, spec)} (a service of this node, in the
     * node's counters and in {@code troupe brokers}; {@code troupe broker set} changes its queues while it runs).
     *
     * @return the directory.
     */
    public BrokerDirectory brokers()
    {
        return brokers;
    }

    /**
     * The node's service directory: every node's instances of every name, lookups and subscriptions.
     *
     * @return the directory.
     */
    public ServiceRegistry registry()
    {
        return registry;
    }

    /**
     * The node's client ingress: sessions of client processes and their counters.
     *
     * @return the ingress, or null when the config admits no client (no {@code troupe.client.secret}).
     */
    public ClientIngress clients()
    {
        return clients;
    }

    /**
     * The node's counters file and error log in its data directory ({@code troupe counters}, {@code troupe errors}).
     *
     * @return the counters.
     */
    public NodeCounters counters()
    {
        return counters;
    }

    /**
     * The port of the node's Prometheus endpoint.
     *
     * @return the port, or 0 when the endpoint is off.
     */
    public int metricsPort()
    {
        final PrometheusEndpoint endpoint = metrics;
        return endpoint == null ? 0 : endpoint.port();
    }

    /**
     * The node's interconnect: sessions with peers and their counters.
     *
     * @return the interconnect.
     */
    public Interconnect interconnect()
    {
        return interconnect;
    }

    /**
     * The node's membership: the member table as this node sees it, its lease, leave and down.
     *
     * @return the membership, or null for a node of a static peer list ({@code troupe.peers}).
     */
    public Membership membership()
    {
        return membership == null ? null : membership.membership();
    }

    /**
     * Whether {@link #close()} has finished.
     *
     * @return true once the node is stopped.
     */
    public boolean isClosed()
    {
        return closed.getCount() == 0;
    }

    /**
     * Waits until the node is closed, by {@link #close()} on another thread (a shutdown hook, say).
     *
     * @throws InterruptedException if interrupted while waiting.
     */
    public void awaitClosed() throws InterruptedException
    {
        closed.await();
    }

    /**
     * Whether the last {@link #close()} let the actor system drain completely within the shutdown timeout.
     *
     * @return true if it drained; false before close and if the deadline cut the drain short.
     */
    public boolean drained()
    {
        return drained;
    }

    /**
     * Stops the node cleanly (see the class comment): stop accepting, drain for up to the shutdown timeout,
     * report the rest as {@code Undelivered(SHUTDOWN)}, say goodbye to the peers, remove the Aeron directory.
     * Returns within the shutdown timeout plus the failure timeout plus about a second.
     */
    @Override
    public void close()
    {
        close(config.shutdownTimeout());
    }

    /**
     * {@link #close()} with a drain deadline of its own ({@code troupe drain --timeout}); zero stops at once, every
     * tracked event still queued ending as {@code Undelivered(SHUTDOWN)} ({@code troupe stop}).
     *
     * @param drainTimeout how long the pools may drain.
     */
    public void close(final Duration drainTimeout)
    {
        synchronized (closeLock)
        {
            if (closeStarted)
            {
                awaitClosedUninterruptibly();
                return;
            }
            closeStarted = true;
        }
        try
        {
            final long startNs = System.nanoTime();
            LOG.info("node {}: shutting down: draining for up to {}", nodeId(), NodeConfig.duration(drainTimeout));
            counters.draining();
            if (membership != null && !leaseLost)
            {
                membership.leaving(); // the others know it goes before it stops taking work
            }
            if (clients != null)
            {
                clients.stopIntake(); // clients' replies still go out while the pools drain
            }
            peerScheduler.stop(); // its receivers fail SHUTDOWN, its senders are discarded: handled in the drain
            drained = system.shutdown(drainTimeout);
            if (clients != null)
            {
                clients.close(); // goodbye to every client, before the driver goes with the interconnect
            }
            deadLetters.interconnect(null);
            if (membership != null && !leaseLost)
            {
                membership.left(); // recorded before the goodbyes: no peer takes them for a failure
            }
            interconnect.close(); // the goodbye first: peers see the node go at once
            closeQuietly(membership);
            closeRegistry();
            system.close();
            if (control != null)
            {
                control.close();
            }
            if (metrics != null)
            {
                metrics.close();
            }
            counters.close(); // the last figures, then STOPPED: the file stays for a post-mortem
            LOG.info("node {}: shut down in {} ms ({}; dead letters {}, Undelivered(SHUTDOWN) sent to other nodes " +
                "{}, not sent {})", nodeId(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs),
                drained ? "drained" : "the drain deadline passed", deadLetters.deadLetters(), deadLetters.noticesSent(),
                deadLetters.noticesLost());
        }
        finally
        {
            final DataDirLock held = dirLock;
            if (held != null)
            {
                held.close(); // last: the directory is free for the next start only once this node is done with it
            }
            closed.countDown();
        }
    }

    /** Whether a close has started (by a signal, a control request or a caller). */
    boolean closeStartedNow()
    {
        synchronized (closeLock)
        {
            return closeStarted;
        }
    }

    private void awaitClosedUninterruptibly()
    {
        boolean interrupted = false;
        while (true)
        {
            try
            {
                closed.await();
                break;
            }
            catch (final InterruptedException ex)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * This start's identity: the node id and the incarnation persisted in the data directory.
     *
     * @return the identity.
     */
    public NodeIdentity identity()
    {
        return identity;
    }

    @Override
    public String toString()
    {
        return "Node[" + nodeId() + ", incarnation " + interconnect.incarnation() + (isClosed() ? ", closed]" : "]");
    }
}
