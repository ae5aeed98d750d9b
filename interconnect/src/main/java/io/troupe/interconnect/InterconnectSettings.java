package io.troupe.interconnect;

import io.troupe.memquota.Setting;
import io.troupe.memquota.Setting.Kind;
import io.troupe.serialization.wire.FrameProtection;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The interconnect's settings, each declared once (see {@link Setting}): {@link InterconnectConfig} takes its defaults
 * from here and checks each value against its bounds here; the node's config reader, the reference config file and
 * the configuration docs are made from {@link #ALL}. Checks that relate two settings (three different stream ids, a
 * heartbeat at most a third of the timeout) stay in the config's {@code conclude}.
 *
 * <p>The settings a node's config file must give (bind port, cluster secret) and the peer list are read by the node
 * itself, which knows their syntax; they are not declared here.
 */
public final class InterconnectSettings
{
    private static final String OWNER = "interconnect";
    private static final int MIN_TERM = 64 * 1024;
    private static final int MAX_TERM = 1 << 30;

    /** {@code troupe.cluster-id}. */
    public static final Setting<InterconnectConfig, String> CLUSTER_ID = string("cluster-id", "clusterId",
        InterconnectConfig.DEFAULT_CLUSTER_ID, InterconnectConfig::clusterId, InterconnectConfig::clusterId)
        .allowed("1..255 bytes of UTF-8", id -> id.getBytes(StandardCharsets.UTF_8).length >= 1 &&
            id.getBytes(StandardCharsets.UTF_8).length <= 255)
        .doc("The cluster's name. Nodes of different clusters refuse each other; off loopback the default is " +
            "refused, so that a node reachable from other hosts cannot join another deployment by accident.")
        .build();
    /** {@code troupe.bind.host}. */
    public static final Setting<InterconnectConfig, String> BIND_HOST = string("bind.host", "bindHost",
        "127.0.0.1", InterconnectConfig::bindHost, InterconnectConfig::bindHost)
        .allowed("a host name or address", host -> !host.isBlank())
        .doc("What this node listens on. The default reaches this host only; any other (0.0.0.0, a LAN address) " +
            "needs a cluster-id of the cluster's own.")
        .build();
    /** {@code troupe.failure-detector.heartbeat-interval}. */
    public static final Setting<InterconnectConfig, Duration> HEARTBEAT_INTERVAL = duration(
        "failure-detector.heartbeat-interval", "heartbeatInterval", Duration.ofMillis(100),
        InterconnectConfig::heartbeatInterval, InterconnectConfig::heartbeatInterval)
        .range(Duration.ofMillis(1), Duration.ofSeconds(10))
        .doc("How often a heartbeat goes to each connected peer; at most a third of the failure detector's timeout.")
        .build();
    /** {@code troupe.failure-detector.timeout}. */
    public static final Setting<InterconnectConfig, Duration> FAILURE_TIMEOUT = duration(
        "failure-detector.timeout", "failureTimeout", Duration.ofMillis(1500),
        InterconnectConfig::failureTimeout, InterconnectConfig::failureTimeout)
        .range(Duration.ofMillis(10), Duration.ofMinutes(10))
        .doc("Silence after which a peer is declared down (its session ends; a new one starts when it answers).")
        .build();
    /** {@code troupe.transport.aeron-dir}. */
    public static final Setting<InterconnectConfig, String> AERON_DIR = Setting.builder(OWNER, "transport.aeron-dir",
        "aeronDir", Kind.OPTIONAL_STRING, String.class, "", config -> orEmpty(config.aeronDir()),
        (InterconnectConfig config, String dir) -> config.aeronDir(dir.isEmpty() ? null : dir))
        .doc("The Aeron directory of the node's media driver. Empty: a directory of its own under /dev/shm (or the " +
            "temp dir) named after the cluster id and node id.")
        .build();
    /** {@code troupe.transport.embedded-driver}. */
    public static final Setting<InterconnectConfig, Boolean> EMBEDDED_DRIVER = bool("transport.embedded-driver",
        "embeddedDriver", true, InterconnectConfig::embeddedDriver, InterconnectConfig::embeddedDriver)
        .doc("true: the node runs its own media driver; false: it connects to an external driver at aeron-dir.")
        .build();
    /** {@code troupe.transport.driver-on-agent-thread}. */
    public static final Setting<InterconnectConfig, Boolean> DRIVER_ON_AGENT_THREAD = bool(
        "transport.driver-on-agent-thread", "driverOnAgentThread", true, InterconnectConfig::driverOnAgentThread,
        InterconnectConfig::driverOnAgentThread)
        .doc("true: the embedded driver runs on the interconnect's thread (Aeron's INVOKER mode: one network thread " +
            "per node, an offer reaches the socket in the same duty cycle); false: on a thread of its own.")
        .build();
    /** {@code troupe.transport.idle}. */
    public static final Setting<InterconnectConfig, IdleMode> IDLE = Setting.<InterconnectConfig, IdleMode>builder(
        OWNER, "transport.idle", "idleMode", Kind.ENUM, IdleMode.class, IdleMode.BACKOFF,
        InterconnectConfig::idleMode, InterconnectConfig::idleMode)
        .doc("How the interconnect agent and the embedded driver wait: backoff (spin 2us, yield 100us, then park " +
            "from 20us up to transport.max-idle-park; friendly to a shared machine) or spin (never sleep; one " +
            "core per busy thread; a warning at start on fewer cores).")
        .build();
    /** {@code troupe.transport.max-idle-park}. */
    public static final Setting<InterconnectConfig, Duration> MAX_IDLE_PARK = duration("transport.max-idle-park",
        "maxIdlePark", Duration.ofNanos(AgentIdle.DEFAULT_MAX_PARK_NS), InterconnectConfig::maxIdlePark,
        InterconnectConfig::maxIdlePark)
        .range(Duration.ofNanos(AgentIdle.DEFAULT_MIN_PARK_NS), Duration.ofMillis(100))
        .doc("The longest park of the backoff mode: an idle node sees what arrives within this, and wakes about " +
            "1/this times a second. Raise it (e.g. 2ms) where many nodes share few cores and idle CPU matters more " +
            "than an idle node's first event; a busy node never parks this long.")
        .build();
    /** {@code troupe.transport.frame-protection}. */
    public static final Setting<InterconnectConfig, FrameProtection> FRAME_PROTECTION =
        Setting.<InterconnectConfig, FrameProtection>builder(OWNER, "transport.frame-protection", "frameProtection",
            Kind.ENUM, FrameProtection.class, FrameProtection.AUTHENTICATED, InterconnectConfig::frameProtection,
            InterconnectConfig::frameProtection)
        .allowed("authenticated or encrypted",
            protection -> protection == FrameProtection.AUTHENTICATED || protection == FrameProtection.ENCRYPTED)
        .doc("How every frame after the handshake is protected, under keys of its session: authenticated (an " +
            "HMAC-SHA256 tag and a sequence number: nothing can be forged, altered, replayed or moved between " +
            "sessions, but it can be read) or encrypted (AES-256-GCM: the same, and unreadable). Every node of a " +
            "cluster must use the same, else the handshake is refused saying so (docs/security.md).")
        .build();
    /** {@code troupe.transport.control-stream}. */
    public static final Setting<InterconnectConfig, Integer> CONTROL_STREAM = integer("transport.control-stream",
        "controlStreamId", 10, InterconnectConfig::controlStreamId, InterconnectConfig::controlStreamId)
        .doc("Aeron stream id of control traffic: handshakes, heartbeats, acks, credit. The three ids differ.")
        .build();
    /** {@code troupe.transport.data-stream}. */
    public static final Setting<InterconnectConfig, Integer> DATA_STREAM = integer("transport.data-stream",
        "dataStreamId", 11, InterconnectConfig::dataStreamId, InterconnectConfig::dataStreamId)
        .doc("Aeron stream id of events up to the bulk threshold.")
        .build();
    /** {@code troupe.transport.bulk-stream}. */
    public static final Setting<InterconnectConfig, Integer> BULK_STREAM = integer("transport.bulk-stream",
        "bulkStreamId", 12, InterconnectConfig::bulkStreamId, InterconnectConfig::bulkStreamId)
        .doc("Aeron stream id of events above the bulk threshold.")
        .build();
    /** {@code troupe.transport.control-term-length}. */
    public static final Setting<InterconnectConfig, Integer> CONTROL_TERM_LENGTH = term("transport.control-term-length",
        "controlTermLength", 64 * 1024, InterconnectConfig::controlTermLength, InterconnectConfig::controlTermLength)
        .doc("Term length of control publications.")
        .build();
    /** {@code troupe.transport.data-term-length}. */
    public static final Setting<InterconnectConfig, Integer> DATA_TERM_LENGTH = term("transport.data-term-length",
        "dataTermLength", 256 * 1024, InterconnectConfig::dataTermLength, InterconnectConfig::dataTermLength)
        .doc("Term length of data publications; a data-stream message is at most an eighth of it.")
        .build();
    /** {@code troupe.transport.bulk-term-length}. */
    public static final Setting<InterconnectConfig, Integer> BULK_TERM_LENGTH = term("transport.bulk-term-length",
        "bulkTermLength", 1024 * 1024, InterconnectConfig::bulkTermLength, InterconnectConfig::bulkTermLength)
        .doc("Term length of bulk publications; larger events go in chunks of an eighth of it.")
        .build();
    /** {@code troupe.transport.mtu}. */
    public static final Setting<InterconnectConfig, Integer> MTU = size("transport.mtu", "mtuLength", 1408,
        InterconnectConfig::mtuLength, InterconnectConfig::mtuLength)
        .multipleOf(32).range(1024, 65504)
        .doc("MTU of the UDP channels in bytes.")
        .build();
    /** {@code troupe.transport.bulk-threshold}. */
    public static final Setting<InterconnectConfig, Integer> BULK_THRESHOLD = size("transport.bulk-threshold",
        "bulkThresholdBytes", 8 * 1024, InterconnectConfig::bulkThresholdBytes,
        InterconnectConfig::bulkThresholdBytes)
        .allowed("at least 256", bytes -> bytes >= 256)
        .doc("Frames larger than this go on the bulk stream; at most data-term-length / 8 - 40 (a data-stream " +
            "message packs small frames, each after a 4-byte length, and carries a 36-byte seal).")
        .build();
    /** {@code troupe.transport.max-event-size}. */
    public static final Setting<InterconnectConfig, Integer> MAX_EVENT_SIZE = size("transport.max-event-size",
        "maxEventBytes", 16 * 1024 * 1024, InterconnectConfig::maxEventBytes, InterconnectConfig::maxEventBytes)
        .range(1, 1 << 30)
        .doc("Largest encoded event accepted at send; larger ones are refused, never sent.")
        .build();
    /** {@code troupe.transport.outbound-queue-capacity}. */
    public static final Setting<InterconnectConfig, Integer> OUTBOUND_QUEUE_CAPACITY = integer(
        "transport.outbound-queue-capacity", "outboundQueueCapacity", 65536,
        InterconnectConfig::outboundQueueCapacity, InterconnectConfig::outboundQueueCapacity)
        .range(1, 1 << 24)
        .doc("Events queued per peer while Aeron pushes back (the memory quota bounds their bytes).")
        .build();
    /** {@code troupe.transport.handshake-retry-min}. */
    public static final Setting<InterconnectConfig, Duration> HANDSHAKE_RETRY_MIN = duration(
        "transport.handshake-retry-min", "handshakeRetryMin", Duration.ofMillis(100),
        InterconnectConfig::handshakeRetryMin, InterconnectConfig::handshakeRetryMin)
        .range(Duration.ofMillis(1), Duration.ofMinutes(10))
        .doc("First wait before a handshake is retried; at most handshake-retry-max.")
        .build();
    /** {@code troupe.transport.handshake-retry-max}. */
    public static final Setting<InterconnectConfig, Duration> HANDSHAKE_RETRY_MAX = duration(
        "transport.handshake-retry-max", "handshakeRetryMax", Duration.ofMillis(500),
        InterconnectConfig::handshakeRetryMax, InterconnectConfig::handshakeRetryMax)
        .range(Duration.ofMillis(1), Duration.ofMinutes(10))
        .doc("Longest wait between handshake attempts; at least handshake-retry-min. Short, so that a peer that " +
            "comes back (a partition heals, a paused node resumes) has its session again within about this long; " +
            "a HELLO to a peer that is down costs one small frame.")
        .build();
    /** {@code troupe.transport.ack-interval}. */
    public static final Setting<InterconnectConfig, Duration> ACK_INTERVAL = duration("transport.ack-interval",
        "ackInterval", Duration.ofMillis(1), InterconnectConfig::ackInterval, InterconnectConfig::ackInterval)
        .range(Duration.ofNanos(100_000), Duration.ofSeconds(1))
        .doc("How often received positions are acknowledged to each peer.")
        .build();
    /** {@code troupe.transport.credit-flush-interval}. */
    public static final Setting<InterconnectConfig, Duration> CREDIT_FLUSH_INTERVAL = duration(
        "transport.credit-flush-interval", "creditFlushInterval", Duration.ofMillis(1),
        InterconnectConfig::creditFlushInterval, InterconnectConfig::creditFlushInterval)
        .range(Duration.ofNanos(100_000), Duration.ofSeconds(1))
        .doc("How often this node reports its shadows' credit deltas to the accounts' owners.")
        .build();
    /** {@code troupe.client.control-stream}. */
    public static final Setting<InterconnectConfig, Integer> CLIENT_CONTROL_STREAM = integer("client.control-stream",
        "clientControlStreamId", 20, config -> config.clientStreams().controlStreamId(),
        (config, id) -> config.clientStreams().controlStreamId(id))
        .doc("The client control stream's id (handshakes, heartbeats), different from the node streams'.")
        .build();
    /** {@code troupe.client.data-stream}. */
    public static final Setting<InterconnectConfig, Integer> CLIENT_DATA_STREAM = integer("client.data-stream",
        "clientDataStreamId", 21, config -> config.clientStreams().dataStreamId(),
        (config, id) -> config.clientStreams().dataStreamId(id))
        .doc("The client data stream's id (events), different from every other.")
        .build();
    /** {@code troupe.client.term-length}. */
    public static final Setting<InterconnectConfig, Integer> CLIENT_TERM_LENGTH = term("client.term-length",
        "clientTermLength", 256 * 1024, config -> config.clientStreams().termLength(),
        (config, length) -> config.clientStreams().termLength(length))
        .doc("The longest term a client's publication may have; an event to or from a client must fit an eighth " +
            "of it.")
        .build();

    /** Every setting declared here, in the order of the reference file. */
    public static final List<Setting<InterconnectConfig, ?>> ALL = List.of(CLUSTER_ID, BIND_HOST,
        HEARTBEAT_INTERVAL, FAILURE_TIMEOUT, AERON_DIR, EMBEDDED_DRIVER, DRIVER_ON_AGENT_THREAD, IDLE,
        FRAME_PROTECTION, CONTROL_STREAM, DATA_STREAM, BULK_STREAM, CONTROL_TERM_LENGTH, DATA_TERM_LENGTH,
        BULK_TERM_LENGTH, MTU, BULK_THRESHOLD, MAX_EVENT_SIZE, OUTBOUND_QUEUE_CAPACITY, HANDSHAKE_RETRY_MIN,
        HANDSHAKE_RETRY_MAX, ACK_INTERVAL, CREDIT_FLUSH_INTERVAL, CLIENT_CONTROL_STREAM, CLIENT_DATA_STREAM,
        CLIENT_TERM_LENGTH, MAX_IDLE_PARK);

    private InterconnectSettings()
    {
    }

    private static String orEmpty(final String value)
    {
        return value == null ? "" : value;
    }

    private static Setting.Builder<InterconnectConfig, String> string(final String key, final String name,
        final String defaultValue, final Function<InterconnectConfig, String> getter,
        final BiConsumer<InterconnectConfig, String> setter)
    {
        return Setting.builder(OWNER, key, name, Kind.STRING, String.class, defaultValue, getter, setter);
    }

    private static Setting.Builder<InterconnectConfig, Boolean> bool(final String key, final String name,
        final boolean defaultValue, final Function<InterconnectConfig, Boolean> getter,
        final BiConsumer<InterconnectConfig, Boolean> setter)
    {
        return Setting.builder(OWNER, key, name, Kind.BOOLEAN, Boolean.class, defaultValue, getter, setter);
    }

    private static Setting.Builder<InterconnectConfig, Integer> integer(final String key, final String name,
        final int defaultValue, final Function<InterconnectConfig, Integer> getter,
        final BiConsumer<InterconnectConfig, Integer> setter)
    {
        return Setting.builder(OWNER, key, name, Kind.INTEGER, Integer.class, defaultValue, getter, setter);
    }

    private static Setting.Builder<InterconnectConfig, Integer> size(final String key, final String name,
        final int defaultValue, final Function<InterconnectConfig, Integer> getter,
        final BiConsumer<InterconnectConfig, Integer> setter)
    {
        return Setting.builder(OWNER, key, name, Kind.SIZE, Integer.class, defaultValue, getter, setter);
    }

    private static Setting.Builder<InterconnectConfig, Integer> term(final String key, final String name,
        final int defaultValue, final Function<InterconnectConfig, Integer> getter,
        final BiConsumer<InterconnectConfig, Integer> setter)
    {
        return size(key, name, defaultValue, getter, setter).powerOfTwo().range(MIN_TERM, MAX_TERM);
    }

    private static Setting.Builder<InterconnectConfig, Duration> duration(final String key, final String name,
        final Duration defaultValue, final Function<InterconnectConfig, Duration> getter,
        final BiConsumer<InterconnectConfig, Duration> setter)
    {
        return Setting.builder(OWNER, key, name, Kind.DURATION, Duration.class, defaultValue, getter, setter);
    }
}
