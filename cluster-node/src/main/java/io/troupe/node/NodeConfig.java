package io.troupe.node;

import com.typesafe.config.Config;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.PoolConfig;
import io.troupe.actor.FlowControlConfig;
import io.troupe.actor.FlowControlSettings;
import io.troupe.interconnect.InterconnectConfig;
import io.troupe.interconnect.InterconnectSettings;
import io.troupe.interconnect.PeerAddress;
import io.troupe.interconnect.scheduler.SchedulerConfig;
import io.troupe.interconnect.scheduler.SchedulerSettings;
import io.troupe.membership.MembershipConfig;
import io.troupe.membership.MembershipSettings;
import io.troupe.memquota.MemoryQuotaConfig;
import io.troupe.node.client.ClientIngressConfig;
import io.troupe.node.counters.CountersLayout;
import io.troupe.node.metrics.MetricsConfig;
import io.troupe.node.metrics.MetricsSettings;
import io.troupe.registry.RegistryConfig;
import io.troupe.registry.RegistrySettings;
import io.troupe.serialization.wire.FrameProtection;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A node's settings, read from its config file (see {@code troupe-reference.conf} for every key) and mapped
 * onto the settings classes the node starts from: {@link #actorSystemConfig()} and {@link #interconnectConfig()}.
 * Every value has been validated, by the classes' own {@code conclude()} where they have one, so a node config
 * that exists can start a node as far as its settings go.
 *
 * <p>Immutable and thread-safe: the settings objects it hands out are new on every call, so a caller may
 * change them (add a clock, a failure handler) without changing this config.
 */
public final class NodeConfig
{
    private final String source;
    private final int nodeId;
    private final Path dataDir;
    private final String secretOrigin;
    /** Never handed out: copied by {@link #interconnectConfig()}. */
    private final InterconnectConfig interconnect;
    /** Never handed out: copied by {@link #actorSystemConfig()}. */
    private final List<PoolConfig> pools;
    private final MemoryQuotaConfig memoryQuota;
    /** Never handed out: copied by {@link #actorSystemConfig()}, described by {@link #flow()}. */
    private final FlowControlConfig flowControl;
    private final Duration shutdownTimeout;
    /** Never handed out: copied by {@link #registryConfig()}. */
    private final RegistryConfig registry;
    private final boolean registryReplica;
    /** Null: no client is admitted. Never handed out: copied by {@link #clientIngressConfig()}. */
    private final ClientIngressConfig clients;
    /** Never handed out: copied by {@link #ops()}. */
    private final OpsConfig ops;
    /** Never handed out: copied by {@link #metrics()}. */
    private final MetricsConfig metrics;
    /** Never handed out: copied by {@link #application()}. */
    private final ApplicationConfig application;
    /** Never handed out: copied by {@link #schedulerConfig()}. */
    private final SchedulerConfig scheduler;
    private final MembershipConfig membership;

    NodeConfig(
        final String source,
        final int nodeId,
        final Path dataDir,
        final String secretOrigin,
        final InterconnectConfig interconnect,
        final List<PoolConfig> pools,
        final MemoryQuotaConfig memoryQuota,
        final FlowControlConfig flowControl,
        final Duration shutdownTimeout,
        final RegistryConfig registry,
        final boolean registryReplica,
        final ClientIngressConfig clients,
        final OpsConfig ops,
        final MetricsConfig metrics,
        final ApplicationConfig application,
        final SchedulerConfig scheduler,
        final MembershipConfig membership)
    {
        this.scheduler = copy(scheduler);
        this.membership = copy(membership);
        this.application = copy(application);
        this.ops = copy(ops);
        this.metrics = copy(metrics);
        this.clients = clients == null ? null : clients.copy();
        this.registry = new RegistryConfig();
        DeclaredSettings.copy(RegistrySettings.ALL, registry, this.registry);
        this.registryReplica = registryReplica;
        this.source = source;
        this.nodeId = nodeId;
        this.dataDir = dataDir;
        this.secretOrigin = secretOrigin;
        this.interconnect = copy(interconnect);
        final List<PoolConfig> poolCopies = new ArrayList<>(pools.size());
        for (final PoolConfig pool : pools)
        {
            poolCopies.add(copy(pool));
        }
        this.pools = List.copyOf(poolCopies);
        this.memoryQuota = memoryQuota;
        this.flowControl = copy(flowControl);
        this.shutdownTimeout = shutdownTimeout;
    }

    /**
     * The node's credit flow control settings ({@code troupe.flow}).
     *
     * @param enabled          whether events are charged.
     * @param defaultThreshold the threshold of accounts opened without one.
     * @param flushBound       the pending shadow delta reported at once.
     * @param shadowIdleTimeout how long a shadow of another node's account may go unchanged before it is forgotten.
     */
    public record FlowSettings(boolean enabled, long defaultThreshold, long flushBound, Duration shadowIdleTimeout)
    {
        /**
         * A flow control config with these settings.
         *
         * @return a new config.
         */
        public FlowControlConfig toConfig()
        {
            return new FlowControlConfig().enabled(enabled).defaultThreshold(defaultThreshold).flushBound(flushBound)
                .shadowIdleTimeout(shadowIdleTimeout);
        }
    }

    /**
     * Reads a node config from a Typesafe {@link Config}: keys under {@code troupe}, falling back to
     * {@code troupe-reference.conf} for the keys it leaves out, then resolved. {@link NodeConfigLoader} builds
     * the config from a file and system properties; this is for a config built some other way.
     *
     * @param config the config, not necessarily resolved.
     * @param source a name for it in error messages, such as its file name.
     * @return the node config.
     * @throws NodeConfigException naming the first key at fault, its value, where it was set and what is allowed.
     */
    public static NodeConfig from(final Config config, final String source)
    {
        return NodeConfigMapper.map(config, NodeConfigLoader.reference(), source);
    }

    /**
     * The settings of the node's counters file and error log ({@code troupe.ops}).
     *
     * @return a copy.
     */
    public OpsConfig ops()
    {
        return copy(ops);
    }

    /**
     * The application's settings ({@code troupe.application}).
     *
     * @return the settings.
     */
    public ApplicationConfig application()
    {
        return copy(application);
    }

    /**
     * The Prometheus endpoint's settings ({@code troupe.metrics.prometheus}).
     *
     * @return the settings.
     */
    public MetricsConfig metrics()
    {
        return copy(metrics);
    }

    /**
     * The peer request scheduler's settings ({@code troupe.scheduler}).
     *
     * @return a new config.
     */
    public SchedulerConfig schedulerConfig()
    {
        return copy(scheduler);
    }

    /**
     * The membership's settings ({@code troupe.membership}): voters configured means the node joins the cluster
     * through the membership service rather than a static peer list.
     *
     * @return a new config.
     */
    public MembershipConfig membershipConfig()
    {
        return copy(membership);
    }

    /**
     * The service directory's settings ({@code troupe.registry}).
     *
     * @return a new config.
     */
    public RegistryConfig registryConfig()
    {
        final RegistryConfig config = new RegistryConfig().replicaDirectory(registryReplica ? dataDir : null);
        DeclaredSettings.copy(RegistrySettings.ALL, registry, config);
        return config;
    }

    /**
     * The client ingress's settings ({@code troupe.client}), or null when no client secret is set and no client is
     * admitted.
     *
     * @return a copy, or null.
     */
    public ClientIngressConfig clientIngressConfig()
    {
        return clients == null ? null : clients.copy();
    }

    /**
     * This node's id ({@code troupe.node-id}).
     *
     * @return 1..{@link io.troupe.actor.ActorId#MAX_NODE_ID}, or 0 for a node whose id the membership assigns when it
     *         joins ({@link #idAssigned()}; the running node's {@link Node#nodeId()} is the assigned one).
     */
    public int nodeId()
    {
        return nodeId;
    }

    /**
     * Whether the node has its id assigned by the membership when it joins ({@code troupe.node-id} not set, the
     * membership's voters or seeds set): {@link #nodeId()} is 0 until then.
     *
     * @return true for a node without a configured id.
     */
    public boolean idAssigned()
    {
        return nodeId == 0;
    }

    /**
     * This config for the id the membership assigned: the same files and Aeron directory as before the id was known
     * (their defaults are named after the port), so that the next start finds them.
     *
     * @param assignedId the id the node joined as.
     * @return a new config with that id.
     * @throws IllegalStateException if the node has a configured id.
     */
    NodeConfig withAssignedId(final int assignedId)
    {
        if (!idAssigned())
        {
            throw new IllegalStateException("node " + nodeId + " has a configured id");
        }
        final InterconnectConfig transport = copy(interconnect);
        transport.aeronDir(copy(interconnect).conclude(0).aeronDir());
        return new NodeConfig(source, assignedId, dataDir, secretOrigin, transport, pools, memoryQuota, flowControl,
            shutdownTimeout, registry, registryReplica, clients, ops, metrics, application, scheduler, membership);
    }

    /**
     * Where the node keeps its files ({@code troupe.data-dir}; default {@code ./data/node-<node-id>}).
     *
     * @return the directory, relative to the working directory unless the config gave an absolute path.
     */
    public Path dataDir()
    {
        return dataDir;
    }

    /**
     * How long a clean shutdown lets the executor pools drain ({@code troupe.shutdown-timeout}).
     *
     * @return the drain deadline.
     */
    public Duration shutdownTimeout()
    {
        return shutdownTimeout;
    }

    /**
     * Where the config came from.
     *
     * @return the file name, or the name the config was given.
     */
    public String source()
    {
        return source;
    }

    /**
     * The node's credit flow control settings.
     *
     * @return the settings.
     */
    public FlowSettings flow()
    {
        return new FlowSettings(FlowControlSettings.ENABLED.get(flowControl),
            FlowControlSettings.DEFAULT_THRESHOLD.get(flowControl), FlowControlSettings.FLUSH_BOUND.get(flowControl),
            FlowControlSettings.SHADOW_IDLE_TIMEOUT.get(flowControl));
    }

    /**
     * The actor system's settings: node id, pools, memory quota, flow control and shutdown timeout from the config, the
     * class's defaults for the rest (clock, handlers, thread names).
     *
     * @return a new config, not yet concluded, on every call.
     */
    public ActorSystemConfig actorSystemConfig()
    {
        final ActorSystemConfig config = new ActorSystemConfig()
            .nodeId(nodeId)
            .memoryQuota(memoryQuota)
            .flowControl(copy(flowControl))
            .shutdownTimeout(shutdownTimeout);
        for (final PoolConfig pool : pools)
        {
            config.pool(copy(pool));
        }
        return config;
    }

    /**
     * The interconnect's settings: every setting of {@link InterconnectConfig}, cluster secret included. An
     * empty {@code troupe.transport.aeron-dir} is left unset, for {@link InterconnectConfig#conclude(int)} to
     * fill with its default.
     *
     * @return a new config, not yet concluded, on every call.
     */
    public InterconnectConfig interconnectConfig()
    {
        return copy(interconnect);
    }

    /**
     * A summary for the start-up log: every setting, and how long the cluster secret is and where it came
     * from, never the secret itself.
     *
     * @return several lines, without a trailing line break.
     */
    public String describe()
    {
        final InterconnectConfig concluded = copy(interconnect).conclude(nodeId);
        final StringBuilder text = new StringBuilder(1024);
        text.append(nodeId == 0 ? "a node (its id assigned when it joins)" : "node " + nodeId)
            .append(" of cluster \"").append(interconnect.clusterId())
            .append("\" (config ").append(source).append(')');
        line(text, "data dir", dataDir.toString());
        line(text, "bind", interconnect.bindHost() + ':' + interconnect.bindPort());
        line(text, "peers", peers(interconnect.peers()));
        for (final PoolConfig pool : pools)
        {
            line(text, "pool", pool.name() + ": " + pool.threads() +
                (pool.threads() == 1 ? " thread, " : " threads, ") + pool.eventsPerActivation() +
                " events or " + duration(pool.timePerActivation()) + " per activation, spins " +
                duration(pool.spinBeforeSleep()) + " before it sleeps");
        }
        line(text, "memory quota", memoryQuota.enabled() ?
            size(memoryQuota.maxBytes()) + ", low water " + size(memoryQuota.lowWaterBytes()) + ", hard cap " +
            size(memoryQuota.hardCapBytes()) + ", reclaim timeout " + duration(memoryQuota.reclaimTimeout()) :
            "off (use is counted, nothing is reclaimed)");
        final FlowSettings flow = flow();
        line(text, "flow control", flow.enabled() ? "on, default threshold " + flow.defaultThreshold() +
            ", shadows report at once past " + flow.flushBound() + ", else every " +
            duration(interconnect.creditFlushInterval()) + ", idle shadows forgotten after " +
            duration(flow.shadowIdleTimeout()) : "off");
        line(text, "clients", clients == null ? "none admitted (no troupe.client.secret)" : "at most " +
            clients.maxClients() + " on streams " + interconnect.clientStreams().controlStreamId() + "/" +
            interconnect.clientStreams().dataStreamId() + ", credit threshold " + clients.creditThreshold() +
            " each, " + clients.maxPendingAsks() + " asks waiting each");
        line(text, "failure", "heartbeat every " + duration(interconnect.heartbeatInterval()) + ", peer down after " +
            duration(interconnect.failureTimeout()) + " of silence");
        line(text, "transport", (interconnect.embeddedDriver() ? "embedded media driver" +
            (interconnect.driverOnAgentThread() ? " on the interconnect thread" : " on its own thread") :
            "external media driver") +
            " in " + concluded.aeronDir() + (interconnect.aeronDir() == null ? " (default)" : "") + ", idle " +
            interconnect.idleMode().name().toLowerCase(Locale.ROOT));
        line(text, "", "streams control " + interconnect.controlStreamId() + ", data " + interconnect.dataStreamId() +
            ", bulk " + interconnect.bulkStreamId() + "; terms " + size(interconnect.controlTermLength()) + ", " +
            size(interconnect.dataTermLength()) + ", " + size(interconnect.bulkTermLength()) + "; mtu " +
            interconnect.mtuLength());
        line(text, "", "bulk above " + size(interconnect.bulkThresholdBytes()) + ", largest event " +
            size(interconnect.maxEventBytes()) + ", outbound queue " + interconnect.outboundQueueCapacity() +
            " events");
        line(text, "", "handshake retry " + duration(interconnect.handshakeRetryMin()) + ".." +
            duration(interconnect.handshakeRetryMax()) + ", ack every " + duration(interconnect.ackInterval()));
        line(text, "shutdown", "drains for up to " + duration(shutdownTimeout));
        line(text, "ops", "counters every " + duration(ops.countersInterval()) + " into " +
            dataDir.resolve(CountersLayout.FILE_NAME) + " (room for " + ops.maxCounters() +
            "), error log " + size(ops.errorLogBytes()));
        line(text, "metrics", metrics.toString());
        if (!application.setupClasses().isEmpty() || application.libDir() != null)
        {
            line(text, "application", application.setupClasses().isEmpty() ?
                "every NodeSetup the jars in " + application.libDir() + " declare" :
                String.join(", ", application.setupClasses()) + (application.libDir() == null ? " (class path)" :
                " (class path and the jars in " + application.libDir() + ")"));
        }
        line(text, "secret", interconnect.clusterSecret().length + " bytes from " + secretOrigin + "; frames " +
            (interconnect.frameProtection() == FrameProtection.ENCRYPTED ?
                "encrypted (AES-256-GCM)" : "authenticated (HMAC-SHA256)") + " under per-session keys");
        return text.toString();
    }

    /**
     * The same as {@link #describe()}: never the secret.
     *
     * @return the summary.
     */
    @Override
    public String toString()
    {
        return describe();
    }

    static InterconnectConfig copy(final InterconnectConfig from)
    {
        final InterconnectConfig to = new InterconnectConfig()
            .clusterSecret(from.clusterSecret())
            .bindPort(from.bindPort());
        DeclaredSettings.copy(InterconnectSettings.ALL, from, to);
        to.clientStreams().copyFrom(from.clientStreams());
        for (final PeerAddress peer : from.peers())
        {
            to.peer(peer);
        }
        return to;
    }

    private static MetricsConfig copy(final MetricsConfig from)
    {
        return DeclaredSettings.copy(MetricsSettings.ALL, from, new MetricsConfig().bearerToken(from.bearerToken()));
    }

    private static FlowControlConfig copy(final FlowControlConfig from)
    {
        return DeclaredSettings.copy(FlowControlSettings.ALL, from, new FlowControlConfig());
    }

    private static ApplicationConfig copy(final ApplicationConfig from)
    {
        return DeclaredSettings.copy(ApplicationSettings.ALL, from,
            new ApplicationConfig().setupClasses(from.setupClasses()));
    }

    private static OpsConfig copy(final OpsConfig from)
    {
        return DeclaredSettings.copy(OpsSettings.ALL, from, new OpsConfig());
    }

    private static MembershipConfig copy(final MembershipConfig from)
    {
        final MembershipConfig to = DeclaredSettings.copy(MembershipSettings.ALL, from, new MembershipConfig());
        from.voters().forEach(to::voter);
        return to;
    }

    private static SchedulerConfig copy(final SchedulerConfig from)
    {
        return DeclaredSettings.copy(SchedulerSettings.ALL, from, new SchedulerConfig());
    }

    private static PoolConfig copy(final PoolConfig from)
    {
        return PoolConfig.named(from.name())
            .threads(from.threads())
            .eventsPerActivation(from.eventsPerActivation())
            .timePerActivation(from.timePerActivation())
            .spinBeforeSleep(from.spinBeforeSleep());
    }

    private static void line(final StringBuilder text, final String label, final String value)
    {
        text.append(System.lineSeparator()).append("  ").append(label);
        for (int i = label.length(); i < 14; i++)
        {
            text.append(' ');
        }
        text.append(value);
    }

    private static String peers(final List<PeerAddress> peers)
    {
        if (peers.isEmpty())
        {
            return "none";
        }
        final StringBuilder text = new StringBuilder();
        for (final PeerAddress peer : peers)
        {
            text.append(text.length() == 0 ? "" : ", ").append(peer.nodeId()).append(" at ").append(peer.endpoint());
        }
        return text.toString();
    }

    /**
     * A duration in the largest HOCON unit that shows it exactly: {@code 1500ms}, {@code 20us}, {@code 5s}.
     */
    static String duration(final Duration duration)
    {
        final long nanos = duration.toNanos();
        if (nanos != 0 && nanos % 1_000_000_000L == 0)
        {
            return nanos / 1_000_000_000L + "s";
        }
        if (nanos % 1_000_000L == 0)
        {
            return nanos / 1_000_000L + "ms";
        }
        if (nanos % 1_000L == 0)
        {
            return nanos / 1_000L + "us";
        }
        return nanos + "ns";
    }

    /**
     * A size in the largest binary unit that shows it exactly: {@code 64KiB}, {@code 16MiB}, {@code 1500 bytes}.
     */
    static String size(final long bytes)
    {
        final String[] units = {"GiB", "MiB", "KiB"};
        for (int i = 0; i < units.length; i++)
        {
            final long unit = 1L << (10 * (units.length - i));
            if (bytes != 0 && bytes % unit == 0)
            {
                return bytes / unit + units[i];
            }
        }
        return bytes + " bytes";
    }
}
