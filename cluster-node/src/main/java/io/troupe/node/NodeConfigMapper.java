package io.troupe.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.ActorSystemSettings;
import io.troupe.actor.PoolConfig;
import io.troupe.actor.FlowControlConfig;
import io.troupe.actor.FlowControlSettings;
import io.troupe.interconnect.InterconnectConfig;
import io.troupe.interconnect.InterconnectSettings;
import io.troupe.interconnect.PeerAddress;
import io.troupe.interconnect.scheduler.SchedulerConfig;
import io.troupe.interconnect.scheduler.SchedulerSettings;
import io.troupe.memquota.ConfigurationException;
import io.troupe.memquota.MemoryQuotaConfig;
import io.troupe.memquota.Setting;
import io.troupe.node.client.ClientIngressConfig;
import io.troupe.node.client.ClientIngressSettings;
import io.troupe.node.metrics.MetricsConfig;
import io.troupe.node.metrics.MetricsSettings;
import io.troupe.registry.RegistryConfig;
import io.troupe.registry.RegistrySettings;
import io.troupe.membership.MembershipConfig;
import io.troupe.membership.MembershipSettings;
import io.troupe.membership.table.VoterAddress;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a node config into a {@link NodeConfig}: key by key with typed reads, then the checks only the file
 * can name precisely (which peer, which pool), then the existing classes' own validation
 * ({@link InterconnectConfig#conclude(int)}, {@link ActorSystemConfig#conclude()}, {@link MemoryQuotaConfig#of})
 * whose {@link IllegalArgumentException} is turned into a {@link NodeConfigException} naming the key path.
 * Used once per config, on one thread.
 */
final class NodeConfigMapper
{
    static final String NODE_ID = "troupe.node-id";
    static final String CLUSTER_ID = DeclaredSettings.path(InterconnectSettings.CLUSTER_ID);
    static final String CLUSTER_SECRET = "troupe.cluster-secret";
    static final String CLUSTER_SECRET_FILE = "troupe.cluster-secret-file";
    static final String DATA_DIR = "troupe.data-dir";
    static final String REGISTRY_REPLICA = "troupe.registry.replica";
    static final String CLIENT_SECRET = "troupe.client.secret";
    static final String CLIENT_SECRET_FILE = "troupe.client.secret-file";
    static final String CLIENT_IMAGES_PER_ADDRESS = "troupe.client.images-per-address";
    static final String CLIENT_CONTROL_STREAM = DeclaredSettings.path(InterconnectSettings.CLIENT_CONTROL_STREAM);
    static final String CLIENT_DATA_STREAM = DeclaredSettings.path(InterconnectSettings.CLIENT_DATA_STREAM);
    static final String CLIENT_TERM_LENGTH = DeclaredSettings.path(InterconnectSettings.CLIENT_TERM_LENGTH);
    static final String BIND_HOST = DeclaredSettings.path(InterconnectSettings.BIND_HOST);
    static final String BIND_PORT = "troupe.bind.port";
    static final String PEERS = "troupe.peers";
    static final String VOTERS = "troupe.membership.voters";
    static final String SEEDS = "troupe.membership.seeds";
    static final String POOLS = "troupe.pools";
    static final String QUOTA_MAX = "troupe.memory-quota.max";
    static final String QUOTA_LOW_WATER = "troupe.memory-quota.low-water";
    static final String QUOTA_RECLAIM_TIMEOUT = "troupe.memory-quota.reclaim-timeout";
    static final String QUOTA_HARD_CAP = "troupe.memory-quota.hard-cap";
    static final String HEARTBEAT_INTERVAL = DeclaredSettings.path(InterconnectSettings.HEARTBEAT_INTERVAL);
    static final String FAILURE_TIMEOUT = DeclaredSettings.path(InterconnectSettings.FAILURE_TIMEOUT);
    static final String AERON_DIR = DeclaredSettings.path(InterconnectSettings.AERON_DIR);
    static final String EMBEDDED_DRIVER = DeclaredSettings.path(InterconnectSettings.EMBEDDED_DRIVER);
    static final String DRIVER_ON_AGENT_THREAD = DeclaredSettings.path(InterconnectSettings.DRIVER_ON_AGENT_THREAD);
    static final String IDLE = DeclaredSettings.path(InterconnectSettings.IDLE);
    static final String FRAME_PROTECTION = DeclaredSettings.path(InterconnectSettings.FRAME_PROTECTION);
    static final String CONTROL_STREAM = DeclaredSettings.path(InterconnectSettings.CONTROL_STREAM);
    static final String DATA_STREAM = DeclaredSettings.path(InterconnectSettings.DATA_STREAM);
    static final String BULK_STREAM = DeclaredSettings.path(InterconnectSettings.BULK_STREAM);
    static final String CONTROL_TERM_LENGTH = DeclaredSettings.path(InterconnectSettings.CONTROL_TERM_LENGTH);
    static final String DATA_TERM_LENGTH = DeclaredSettings.path(InterconnectSettings.DATA_TERM_LENGTH);
    static final String BULK_TERM_LENGTH = DeclaredSettings.path(InterconnectSettings.BULK_TERM_LENGTH);
    static final String MTU = DeclaredSettings.path(InterconnectSettings.MTU);
    static final String BULK_THRESHOLD = DeclaredSettings.path(InterconnectSettings.BULK_THRESHOLD);
    static final String MAX_EVENT_SIZE = DeclaredSettings.path(InterconnectSettings.MAX_EVENT_SIZE);
    static final String OUTBOUND_QUEUE_CAPACITY = DeclaredSettings.path(InterconnectSettings.OUTBOUND_QUEUE_CAPACITY);
    static final String HANDSHAKE_RETRY_MIN = DeclaredSettings.path(InterconnectSettings.HANDSHAKE_RETRY_MIN);
    static final String HANDSHAKE_RETRY_MAX = DeclaredSettings.path(InterconnectSettings.HANDSHAKE_RETRY_MAX);
    static final String ACK_INTERVAL = DeclaredSettings.path(InterconnectSettings.ACK_INTERVAL);
    static final String CREDIT_FLUSH_INTERVAL = DeclaredSettings.path(InterconnectSettings.CREDIT_FLUSH_INTERVAL);

    /** The keys an element of {@code troupe.peers} may have. */
    static final Set<String> PEER_KEYS = Set.of("id", "host", "port");
    /** The keys an element of {@code troupe.pools} may have. */
    static final Set<String> POOL_KEYS =
        Set.of("name", "threads", "events-per-activation", "time-per-activation", "spin-before-sleep");
    /** The keys of the elements of each list of objects. */
    static final Map<String, Set<String>> ELEMENT_KEYS = Map.of(PEERS, PEER_KEYS, VOTERS, PEER_KEYS, SEEDS, PEER_KEYS,
        POOLS, POOL_KEYS);
    /** The keys of MembershipConfig's declared settings, by the names its ConfigurationExceptions carry. */
    private static final Map<String, String> MEMBERSHIP_KEYS = membershipKeys();

    /** InterconnectConfig's setting names (ConfigurationException.setting()) to the keys that set them. */
    private static final Map<String, String> INTERCONNECT_KEYS = interconnectKeys();
    /** The keys of ActorSystemConfig's settings, by the names its ConfigurationExceptions carry. */
    private static final Map<String, String> ACTOR_SYSTEM_KEYS = actorSystemKeys();
    /** The keys of ClientIngressConfig's declared settings, by the names its ConfigurationExceptions carry. */
    private static final Map<String, String> CLIENT_KEYS = DeclaredSettings.keys(ClientIngressSettings.ALL);
    /** PoolConfig's setting names, and the keys of a pool in the file. */
    private static final Map<String, String> POOL_SETTING_KEYS = Map.of(
        "name", "name",
        "threads", "threads",
        "eventsPerActivation", "events-per-activation",
        "timePerActivation", "time-per-activation",
        "spinBeforeSleep", "spin-before-sleep");
    private static final Pattern PERCENTAGE = Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*%\\s*");
    private static final String OFF = "off";
    private final ConfigReader in;
    private final SecretReader secrets;
    private final String source;

    private NodeConfigMapper(final ConfigReader in)
    {
        this.in = in;
        this.secrets = new SecretReader(in);
        this.source = in.source();
    }

    /**
     * Maps a config onto a node config.
     *
     * @param config    the config, not yet merged with the reference.
     * @param reference the reference config: every key and its default.
     * @param source    the config's file name (or another name for it), for messages.
     * @return the node config.
     * @throws NodeConfigException naming the first key at fault.
     */
    static NodeConfig map(final Config config, final Config reference, final String source)
    {
        final Config resolved;
        try
        {
            resolved = config.withFallback(reference).resolve();
        }
        catch (final ConfigException ex)
        {
            throw ConfigReader.whole(source, "cannot resolve: " + ex.getMessage(), ex);
        }
        final NodeConfigMapper mapper = new NodeConfigMapper(new ConfigReader(resolved, "", source));
        // unknown keys and bad values are reported together: every problem of the file at once
        mapper.problems.addAll(KnownKeys.check(resolved.root(), reference.root(), ELEMENT_KEYS, source));
        return mapper.map();
    }

    /** Every problem found so far: the mapper reads on past one, so that a file's errors are reported at once. */
    private final List<NodeConfigException> problems = new ArrayList<>();

    /** Reads a value, or notes its problem and carries on with the fallback. */
    private <T> T read(final Supplier<T> reader, final T fallback)
    {
        try
        {
            return reader.get();
        }
        catch (final NodeConfigException ex)
        {
            problems.add(ex);
            return fallback;
        }
    }

    /** Applies a setting, or notes its problem and carries on. */
    private void apply(final Runnable setting)
    {
        read(() ->
        {
            setting.run();
            return null;
        }, null);
    }

    private NodeConfig map()
    {
        // without a node id, a member of a membership has one assigned when it joins: 0 until then
        final boolean assigned = !in.isSet(NODE_ID) && (listsSomething(VOTERS) || listsSomething(SEEDS));
        final int nodeId = assigned ? 0 : read(this::nodeId, 0);
        final boolean idKnown = assigned || nodeId != 0; // false: the node id is wrong, checks against it are moot
        final int idForChecks = assigned ? 1 : nodeId;
        final String secretKey = read(this::secretKey, null);
        final byte[] secret = secretKey == null ? null : read(() -> secrets.read(secretKey, CLUSTER_SECRET), null);

        final InterconnectConfig interconnect = new InterconnectConfig();
        applyAll(InterconnectSettings.ALL, interconnect);
        if (secret != null)
        {
            interconnect.clusterSecret(secret);
        }
        apply(() -> interconnect.bindPort(bindPort()));
        final ClientIngressConfig clients = read(this::clients, null);
        if (clients != null)
        {
            apply(() ->
            {
                final int images = in.integer(CLIENT_IMAGES_PER_ADDRESS);
                if (images < 1 || images > 65_536)
                {
                    throw in.invalid(CLIENT_IMAGES_PER_ADDRESS, "allowed 1..65,536");
                }
                interconnect.clientStreams().imagesPerAddress(images);
            });
        }
        if (idKnown) // the peers are checked against the node's own id
        {
            for (final PeerAddress peer : read(() -> peers(nodeId), List.<PeerAddress>of()))
            {
                interconnect.peer(peer);
            }
        }
        final MembershipConfig membership = new MembershipConfig();
        applyAll(MembershipSettings.ALL, membership);
        for (final VoterAddress voter : read(this::voters, List.<VoterAddress>of()))
        {
            apply(() -> membership.voter(voter));
        }
        final List<PoolConfig> pools = idKnown ? read(() -> pools(idForChecks), List.<PoolConfig>of()) : List.of();
        final MemoryQuotaConfig memoryQuota = read(this::memoryQuota, null);
        final FlowControlConfig flow = new FlowControlConfig();
        applyAll(FlowControlSettings.ALL, flow);
        final ActorSystemConfig system = new ActorSystemConfig();
        applyAll(ActorSystemSettings.ALL, system);
        final RegistryConfig registry = new RegistryConfig();
        applyAll(RegistrySettings.ALL, registry);
        final boolean replica = read(() -> in.bool(REGISTRY_REPLICA), false);
        final SchedulerConfig scheduler = new SchedulerConfig();
        applyAll(SchedulerSettings.ALL, scheduler);
        final Path dataDir = idKnown ? read(() -> dataDir(assigned ? "node-port-" + interconnect.bindPort() :
            "node-" + nodeId), null) : null;
        final OperationsConfigMapper operations = new OperationsConfigMapper(in, secrets::readFile);
        final OpsConfig ops = new OpsConfig();
        applyAll(OpsSettings.ALL, ops);
        final MetricsConfig metrics = new MetricsConfig();
        applyAll(MetricsSettings.ALL, metrics);
        apply(() -> metrics.bearerToken(operations.bearerToken()));
        final ApplicationConfig application = new ApplicationConfig();
        final int before = problems.size();
        applyAll(ApplicationSettings.ALL, application);
        if (problems.size() == before)
        {
            apply(() -> operations.application(application));
        }
        if (!problems.isEmpty())
        {
            throw combined();
        }

        // across settings, once each is valid on its own
        checkInterconnect(interconnect, nodeId, secretKey);
        checkMembership(membership, interconnect);
        final String secretOrigin = CLUSTER_SECRET.equals(secretKey) ? CLUSTER_SECRET :
            "file " + in.string(CLUSTER_SECRET_FILE);
        final NodeConfig node = new NodeConfig(
            source, nodeId, dataDir, secretOrigin, interconnect, pools, memoryQuota,
            flow, system.shutdownTimeout(),
            registry, replica, clients, ops, metrics, application, scheduler, membership);
        checkActorSystem(node.actorSystemConfig().nodeId(idForChecks));
        return node;
    }

    /**
     * The problems found, as one exception naming the first one's key: its message is the first problem, then the
     * others, one per line.
     */
    private NodeConfigException combined()
    {
        final NodeConfigException first = problems.get(0);
        if (problems.size() == 1)
        {
            return first;
        }
        final String prefix = "node config " + source + ": ";
        final StringBuilder message = new StringBuilder(first.getMessage()).append("\n  ")
            .append(problems.size() - 1).append(problems.size() == 2 ? " more problem:" : " more problems:");
        for (final NodeConfigException problem : problems.subList(1, problems.size()))
        {
            final String text = problem.getMessage();
            message.append("\n  - ").append(text.startsWith(prefix) ? text.substring(prefix.length()) : text);
        }
        return new NodeConfigException(first.keyPath(), source, message.toString(), first);
    }

    /** The client ingress's settings, or null if no client secret is set (no client is admitted). */
    private ClientIngressConfig clients()
    {
        final String key = secrets.key(CLIENT_SECRET, CLIENT_SECRET_FILE);
        if (key == null)
        {
            return null;
        }
        final byte[] secret = secrets.read(key, CLIENT_SECRET);
        final ClientIngressConfig clients = new ClientIngressConfig().secret(secret);
        Arrays.fill(secret, (byte)0);
        final int before = problems.size();
        applyAll(ClientIngressSettings.ALL, clients);
        if (problems.size() > before)
        {
            return null;
        }
        try
        {
            return clients.validate();
        }
        catch (final ConfigurationException ex)
        {
            final String setting = "secret".equals(ex.setting()) ? key :
                CLIENT_KEYS.getOrDefault(ex.setting(), "troupe.client");
            throw in.invalid(setting, "secret".equals(ex.setting()) ? "allowed " + ex.allowed() +
                " (the secret has " + clients.secret().length + " bytes)" : "allowed " + ex.allowed(), ex);
        }
    }

    /** Whether a list setting is set to a non-empty list (a value of another type is reported where it is read). */
    private boolean listsSomething(final String key)
    {
        try
        {
            return in.isSet(key) && !in.list(key, "a list").isEmpty();
        }
        catch (final NodeConfigException notAList)
        {
            return false;
        }
    }

    private int nodeId()
    {
        if (!in.isSet(NODE_ID))
        {
            throw in.missing(NODE_ID, "required: this node's id, 1.." + ActorId.MAX_NODE_ID + " (or " + SEEDS +
                ", for a node that has one assigned when it joins)");
        }
        final int nodeId = in.integer(NODE_ID);
        try
        {
            new ActorSystemConfig().nodeId(nodeId).conclude();
        }
        catch (final IllegalArgumentException ex)
        {
            throw in.invalid(NODE_ID, ex.getMessage(), ex);
        }
        return nodeId;
    }

    private int bindPort()
    {
        if (!in.isSet(BIND_PORT))
        {
            throw in.missing(BIND_PORT, "required: the UDP port this node listens on, 1..65535");
        }
        return in.integer(BIND_PORT);
    }

    private String secretKey()
    {
        final String key = secrets.key(CLUSTER_SECRET, CLUSTER_SECRET_FILE);
        if (key == null)
        {
            throw in.missing(CLUSTER_SECRET, "required: set " + CLUSTER_SECRET + " or " + CLUSTER_SECRET_FILE +
                " (at least " + InterconnectConfig.MIN_SECRET_BYTES + " bytes)");
        }
        return key;
    }

    private List<PeerAddress> peers(final int nodeId)
    {
        final ConfigList list = in.list(PEERS,
            "a list of peers such as [ { id = 2, host = \"10.0.0.2\", port = 40100 } ]");
        final List<PeerAddress> peers = new ArrayList<>(list.size());
        final Map<Integer, Integer> indexById = new HashMap<>();
        for (int i = 0; i < list.size(); i++)
        {
            final String elementPath = PEERS + '[' + i + ']';
            final ConfigReader peer = element(list.get(i), elementPath,
                "a peer such as { id = 2, host = \"10.0.0.2\", port = 40100 }");
            final int id = peer.integer("id");
            final String host = peer.string("host");
            final int port = peer.integer("port");
            if (id < 1 || id > ActorId.MAX_NODE_ID)
            {
                throw peer.invalid("id", "allowed node ids 1.." + ActorId.MAX_NODE_ID);
            }
            if (id == nodeId)
            {
                throw peer.invalid("id",
                    "allowed the ids of other nodes; " + NODE_ID + " = " + nodeId + " is this node");
            }
            final Integer earlier = indexById.putIfAbsent(id, i);
            if (earlier != null)
            {
                throw peer.invalid("id",
                    "allowed one entry per node id; " + PEERS + '[' + earlier + "] has id " + id + " too");
            }
            if (host.isBlank())
            {
                throw peer.invalid("host", "allowed a host name or address");
            }
            if (port < 1 || port > 65535)
            {
                throw peer.invalid("port", "allowed 1..65535");
            }
            peers.add(new PeerAddress(id, host, port));
        }
        return peers;
    }

    /**
     * The voters, from {@code troupe.membership.voters} (on every node) or {@code troupe.membership.seeds} (the
     * same list, the name a joining node's file may use); giving both with different lists is refused.
     */
    private List<VoterAddress> voters()
    {
        final List<VoterAddress> voters = in.isSet(VOTERS) ? addresses(VOTERS) : List.of();
        final List<VoterAddress> seeds = in.isSet(SEEDS) ? addresses(SEEDS) : List.of();
        if (!voters.isEmpty() && !seeds.isEmpty() && !voters.equals(seeds))
        {
            throw in.invalid(SEEDS, "allowed the same list as " + VOTERS + " (the seeds are the voters), or only " +
                "one of the two");
        }
        return voters.isEmpty() ? seeds : voters;
    }

    private List<VoterAddress> addresses(final String key)
    {
        final ConfigList list = in.list(key,
            "a list of voters such as [ { id = 1, host = \"10.0.0.1\", port = 40200 } ]");
        final List<VoterAddress> voters = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++)
        {
            final ConfigReader voter = element(list.get(i), key + '[' + i + ']',
                "a voter such as { id = 1, host = \"10.0.0.1\", port = 40200 }");
            final int id = voter.integer("id");
            final String host = voter.string("host");
            final int port = voter.integer("port");
            if (id < 1 || id > ActorId.MAX_NODE_ID)
            {
                throw voter.invalid("id", "allowed node ids 1.." + ActorId.MAX_NODE_ID);
            }
            if (host.isBlank())
            {
                throw voter.invalid("host", "allowed a host name or address");
            }
            if (port < 1 || port > 65_536 - VoterAddress.PORTS)
            {
                throw voter.invalid("port", "allowed 1.." + (65_536 - VoterAddress.PORTS) + " (a voter takes " +
                    VoterAddress.PORTS + " ports from its port)");
            }
            voters.add(new VoterAddress(id, host, port));
        }
        return voters;
    }

    private void checkMembership(final MembershipConfig membership, final InterconnectConfig interconnect)
    {
        if (membership.enabled() && !interconnect.peers().isEmpty())
        {
            throw in.invalid(PEERS, "allowed no peers when " + VOTERS + " is set: the members are the membership's " +
                "(remove " + PEERS + ", or " + VOTERS + " for a static cluster)");
        }
        try
        {
            membership.conclude();
        }
        catch (final ConfigurationException ex)
        {
            final String key = MEMBERSHIP_KEYS.get(ex.setting());
            if (key == null)
            {
                throw ConfigReader.whole(source, ex.getMessage(), ex);
            }
            throw in.invalid(key, "allowed " + ex.allowed() + " (" + ex.getMessage() + ")", ex);
        }
    }

    private List<PoolConfig> pools(final int nodeId)
    {
        final ConfigList list = in.list(POOLS, "a list of pools such as [ { name = \"default\", threads = 2 } ]");
        if (list.isEmpty())
        {
            throw in.invalid(POOLS, "allowed at least one pool, such as [ { name = \"default\" } ]");
        }
        final List<PoolConfig> pools = new ArrayList<>(list.size());
        final Map<String, Integer> indexByName = new HashMap<>();
        for (int i = 0; i < list.size(); i++)
        {
            final String elementPath = POOLS + '[' + i + ']';
            final ConfigReader element = element(list.get(i), elementPath,
                "a pool such as { name = \"default\", threads = 2 }");
            final String name = element.string("name");
            final PoolConfig pool = PoolConfig.named(name);
            if (element.isSet("threads"))
            {
                pool.threads(element.integer("threads"));
            }
            if (element.isSet("events-per-activation"))
            {
                pool.eventsPerActivation(element.integer("events-per-activation"));
            }
            if (element.isSet("time-per-activation"))
            {
                pool.timePerActivation(element.duration("time-per-activation"));
            }
            if (element.isSet("spin-before-sleep"))
            {
                pool.spinBeforeSleep(element.duration("spin-before-sleep"));
            }
            checkPool(element, pool, nodeId);
            final Integer earlier = indexByName.putIfAbsent(name, i);
            if (earlier != null)
            {
                throw element.invalid("name",
                    "allowed a name no other pool has; " + POOLS + '[' + earlier + "] is named '" + name + "' too");
            }
            pools.add(pool);
        }
        return pools;
    }

    /**
     * Validates one pool with ActorSystemConfig's own checks (PoolConfig's are not public), naming the key.
     */
    private static void checkPool(final ConfigReader element, final PoolConfig pool, final int nodeId)
    {
        try
        {
            new ActorSystemConfig().nodeId(nodeId).pool(pool).conclude();
        }
        catch (final ConfigurationException ex)
        {
            throw element.invalid(POOL_SETTING_KEYS.getOrDefault(ex.setting(), "name"), ex.getMessage(), ex);
        }
    }

    private ConfigReader element(final ConfigValue value, final String elementPath, final String expected)
    {
        if (value.valueType() != ConfigValueType.OBJECT)
        {
            throw ConfigReader.invalid(source, elementPath, value, "expected " + expected, null);
        }
        return in.element((ConfigObject)value, elementPath);
    }

    /** Applies each declared setting of a list to a config, noting the problems. */
    private <C> void applyAll(final List<Setting<C, ?>> settings, final C config)
    {
        for (final Setting<C, ?> setting : settings)
        {
            apply(() -> DeclaredSettings.apply(in, config, setting));
        }
    }

    private MemoryQuotaConfig memoryQuota()
    {
        final MemoryQuotaConfig quota = quotaHardCap(quotaMaxAndLowWater());
        try
        {
            return quota.reclaimTimeout(in.duration(QUOTA_RECLAIM_TIMEOUT));
        }
        catch (final IllegalArgumentException ex)
        {
            throw in.invalid(QUOTA_RECLAIM_TIMEOUT, ex.getMessage(), ex);
        }
    }

    /** The hard cap: a percentage of max (125%) or a size; read, and unused, when the quota is off. */
    private MemoryQuotaConfig quotaHardCap(final MemoryQuotaConfig quota)
    {
        final Matcher percentage = PERCENTAGE.matcher(in.string(QUOTA_HARD_CAP));
        final String expected = "a percentage of max such as 125%, or a size such as 320MiB";
        final long capBytes;
        if (percentage.matches())
        {
            capBytes = quota.enabled() ?
                (long)(quota.maxBytes() * (Double.parseDouble(percentage.group(1)) / 100.0)) : 0;
        }
        else
        {
            capBytes = in.bytes(QUOTA_HARD_CAP, expected);
        }
        if (!quota.enabled())
        {
            return quota;
        }
        try
        {
            return quota.hardCap(capBytes);
        }
        catch (final ConfigurationException ex)
        {
            throw in.invalid(QUOTA_HARD_CAP, ex.getMessage(), ex);
        }
    }

    private MemoryQuotaConfig quotaMaxAndLowWater()
    {
        final ConfigValue max = in.value(QUOTA_MAX);
        final Matcher percentage = PERCENTAGE.matcher(in.string(QUOTA_LOW_WATER));
        final boolean isPercentage = percentage.matches();
        final String lowWaterExpected = "a percentage of max such as 75%, or a size such as 192MiB";
        if (max.valueType() == ConfigValueType.STRING && OFF.equalsIgnoreCase(((String)max.unwrapped()).trim()))
        {
            if (!isPercentage)
            {
                in.bytes(QUOTA_LOW_WATER, lowWaterExpected);
            }
            return MemoryQuotaConfig.disabled();
        }
        final long maxBytes = in.bytes(QUOTA_MAX, "a size such as 256MiB, or off");
        final long lowWaterBytes = isPercentage ?
            (long)(maxBytes * (Double.parseDouble(percentage.group(1)) / 100.0)) :
            in.bytes(QUOTA_LOW_WATER, lowWaterExpected);
        try
        {
            return MemoryQuotaConfig.of(maxBytes, lowWaterBytes);
        }
        catch (final ConfigurationException ex)
        {
            throw in.invalid("lowWater".equals(ex.setting()) ? QUOTA_LOW_WATER : QUOTA_MAX, ex.getMessage(), ex);
        }
    }

    /**
     * The data directory: {@code troupe.data-dir}, or {@code ./data/<defaultName>} if it is empty.
     */
    private Path dataDir(final String defaultName)
    {
        final String dir = in.string(DATA_DIR);
        return dir.isEmpty() ? Path.of(".", "data", defaultName) : in.file(DATA_DIR);
    }

    private void checkInterconnect(final InterconnectConfig interconnect, final int nodeId, final String secretKey)
    {
        try
        {
            NodeConfig.copy(interconnect).conclude(nodeId);
        }
        catch (final ConfigurationException ex)
        {
            final String key = interconnectKey(ex.setting(), interconnect, secretKey);
            if (key == null)
            {
                throw ConfigReader.whole(source, ex.getMessage(), ex);
            }
            final String allowed = "allowed " + ex.allowed();
            // The secret's value is never shown (or is the file's name): say how long it is instead.
            final String problem = key.equals(secretKey) ?
                "the secret has " + interconnect.clusterSecret().length + " bytes, " + allowed : allowed;
            throw in.invalid(key, problem, ex);
        }
    }

    /**
     * The key of an InterconnectConfig setting in the file, or null if the file does not set it.
     */
    private static String interconnectKey(
        final String setting, final InterconnectConfig interconnect, final String secretKey)
    {
        final String key = INTERCONNECT_KEYS.get(setting);
        if (CLUSTER_SECRET.equals(key))
        {
            return secretKey;
        }
        if (CONTROL_STREAM.equals(key))
        {
            // The three stream ids must differ: name the later of the two that clash.
            return interconnect.dataStreamId() == interconnect.controlStreamId() ? DATA_STREAM : BULK_STREAM;
        }
        return key;
    }

    private void checkActorSystem(final ActorSystemConfig actorSystem)
    {
        try
        {
            actorSystem.conclude();
        }
        catch (final ConfigurationException ex)
        {
            final String key = ACTOR_SYSTEM_KEYS.containsKey(ex.setting()) ? ACTOR_SYSTEM_KEYS.get(ex.setting()) :
                ex.setting().equals("pools") || POOL_SETTING_KEYS.containsKey(ex.setting()) ? POOLS : null;
            if (key == null)
            {
                throw ConfigReader.whole(source, ex.getMessage(), ex);
            }
            throw in.invalid(key, ex.getMessage(), ex);
        }
    }

    private static Map<String, String> membershipKeys()
    {
        final Map<String, String> keys = new HashMap<>(DeclaredSettings.keys(MembershipSettings.ALL));
        keys.put("voters", VOTERS);
        return Map.copyOf(keys);
    }

    private static Map<String, String> actorSystemKeys()
    {
        final Map<String, String> keys = new HashMap<>(DeclaredSettings.keys(ActorSystemSettings.ALL));
        keys.put("nodeId", NODE_ID);
        return Map.copyOf(keys);
    }

    private static Map<String, String> interconnectKeys()
    {
        final Map<String, String> keys = new HashMap<>(DeclaredSettings.keys(InterconnectSettings.ALL));
        keys.put("clusterSecret", CLUSTER_SECRET);
        keys.put("bindPort", BIND_PORT);
        keys.put("peers", PEERS);
        keys.put("controlStreamId/dataStreamId/bulkStreamId", CONTROL_STREAM);
        keys.put("clientImagesPerAddress", CLIENT_IMAGES_PER_ADDRESS);
        keys.put("clientControlStreamId/clientDataStreamId", CLIENT_CONTROL_STREAM);
        return Map.copyOf(keys);
    }
}
