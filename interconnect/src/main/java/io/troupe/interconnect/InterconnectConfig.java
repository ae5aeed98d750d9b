package io.troupe.interconnect;

import io.troupe.interconnect.seal.HandshakeAuth;
import io.troupe.memquota.ConfigurationException;
import io.troupe.serialization.wire.FrameProtection;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Settings of an {@link Interconnect}: fluent setters, then {@link #conclude(int)} fills defaults and validates
 * every value with a message naming the setting, the bad value and what is allowed. Defaults fit several
 * nodes on a 2-core machine and a container's 64 MiB {@code /dev/shm}. The node id is the actor system's.
 */
public final class InterconnectConfig
{
    /**
     * Protocol version this build speaks (the handshake's range is [min, max]). Version 2 packs compact envelope
     * frames into data-stream messages, which a version 1 node cannot read. Version 3 seals every message after
     * the handshake under per-session keys and proves the secret in the HELLO too, which a version 2 node
     * neither does nor understands, so version 2 is refused. Version 4 sends an event's forward-on-nondelivery
     * target with it (a ForwardedEnvelope frame, schema version 5), which a version 3 node would reject as an
     * unknown template, so version 3 is refused.
     */
    public static final int PROTOCOL_VERSION = 4;
    /** Oldest protocol version this build accepts. */
    public static final int MIN_PROTOCOL_VERSION = 4;
    /** The cluster id unless one is set; refused with a bind address other than loopback. */
    public static final String DEFAULT_CLUSTER_ID = "troupe";
    /** Shortest cluster secret accepted, in bytes. */
    public static final int MIN_SECRET_BYTES = HandshakeAuth.MIN_SECRET_BYTES;

    private byte[] clusterSecret;
    private final List<PeerAddress> peers = new ArrayList<>();
    private String clusterId = InterconnectSettings.CLUSTER_ID.defaultValue();
    private String bindHost = InterconnectSettings.BIND_HOST.defaultValue();
    private int bindPort = 0;
    private long incarnation = 0;
    private String aeronDir = null;
    private boolean embeddedDriver = InterconnectSettings.EMBEDDED_DRIVER.defaultValue();
    private boolean driverOnAgentThread = InterconnectSettings.DRIVER_ON_AGENT_THREAD.defaultValue();
    private IdleMode idleMode = InterconnectSettings.IDLE.defaultValue();
    private Duration maxIdlePark = InterconnectSettings.MAX_IDLE_PARK.defaultValue();
    private int controlStreamId = InterconnectSettings.CONTROL_STREAM.defaultValue();
    private int dataStreamId = InterconnectSettings.DATA_STREAM.defaultValue();
    private int bulkStreamId = InterconnectSettings.BULK_STREAM.defaultValue();
    private int controlTermLength = InterconnectSettings.CONTROL_TERM_LENGTH.defaultValue();
    private int dataTermLength = InterconnectSettings.DATA_TERM_LENGTH.defaultValue();
    private int bulkTermLength = InterconnectSettings.BULK_TERM_LENGTH.defaultValue();
    private final ClientStreamSettings clientStreams = new ClientStreamSettings();
    private int mtuLength = InterconnectSettings.MTU.defaultValue();
    private int bulkThresholdBytes = InterconnectSettings.BULK_THRESHOLD.defaultValue();
    private int maxEventBytes = InterconnectSettings.MAX_EVENT_SIZE.defaultValue();
    private int outboundQueueCapacity = InterconnectSettings.OUTBOUND_QUEUE_CAPACITY.defaultValue();
    private Duration heartbeatInterval = InterconnectSettings.HEARTBEAT_INTERVAL.defaultValue();
    private Duration failureTimeout = InterconnectSettings.FAILURE_TIMEOUT.defaultValue();
    private Duration handshakeRetryMin = InterconnectSettings.HANDSHAKE_RETRY_MIN.defaultValue();
    private Duration handshakeRetryMax = InterconnectSettings.HANDSHAKE_RETRY_MAX.defaultValue();
    private Duration ackInterval = InterconnectSettings.ACK_INTERVAL.defaultValue();
    private Duration creditFlushInterval = InterconnectSettings.CREDIT_FLUSH_INTERVAL.defaultValue();
    private FrameProtection frameProtection = InterconnectSettings.FRAME_PROTECTION.defaultValue();

    /**
     * Creates a config with defaults; a cluster secret, a bind port and the peers must be set.
     */
    public InterconnectConfig()
    {
    }

    /**
     * Sets how the frames of every session are protected after the handshake: {@code AUTHENTICATED} (the
     * default) seals each message with an HMAC-SHA256 tag under the session's key, so no frame can be forged,
     * altered, replayed or moved to another session, but anyone on the path can read them; {@code ENCRYPTED}
     * seals it with AES-256-GCM, which also hides the content. Every node of a cluster must use the same; a
     * handshake with a node that differs is refused, saying so.
     *
     * @param value {@code AUTHENTICATED} or {@code ENCRYPTED}.
     * @return this.
     */
    public InterconnectConfig frameProtection(final FrameProtection value)
    {
        this.frameProtection = value;
        return this;
    }

    /**
     * How frames are protected after the handshake.
     *
     * @return the protection.
     */
    public FrameProtection frameProtection()
    {
        return frameProtection;
    }

    /**
     * Sets the cluster secret: peers prove they know it (HMAC over a fresh challenge); it never travels.
     *
     * @param secret at least {@value #MIN_SECRET_BYTES} bytes; copied.
     * @return this.
     */
    public InterconnectConfig clusterSecret(final byte[] secret)
    {
        this.clusterSecret = secret == null ? null : secret.clone();
        return this;
    }

    /**
     * The cluster secret.
     *
     * @return a copy.
     */
    public byte[] clusterSecret()
    {
        return clusterSecret == null ? null : clusterSecret.clone();
    }

    /**
     * Adds a peer this node connects to.
     *
     * @param peer the peer's id and endpoint.
     * @return this.
     */
    public InterconnectConfig peer(final PeerAddress peer)
    {
        peers.add(peer);
        return this;
    }

    /**
     * The peers.
     *
     * @return an unmodifiable copy.
     */
    public List<PeerAddress> peers()
    {
        return List.copyOf(peers);
    }

    /**
     * The cluster's id; nodes of different clusters refuse each other. The default, {@value #DEFAULT_CLUSTER_ID},
     * is only accepted with a loopback bind address: a node reachable from other hosts needs an id of its own
     * cluster, so that it cannot join another deployment that happens to share the default and a secret.
     *
     * @param value 1..255 bytes of UTF-8.
     * @return this.
     */
    public InterconnectConfig clusterId(final String value)
    {
        this.clusterId = value;
        return this;
    }

    /**
     * The cluster's id; nodes of different clusters refuse each other.
     *
     * @return the value.
     */
    public String clusterId()
    {
        return clusterId;
    }

    /**
     * The address this node's endpoint listens on; default 127.0.0.1, reachable from this host only.
     *
     * @param value a host name or address.
     * @return this.
     */
    public InterconnectConfig bindHost(final String value)
    {
        this.bindHost = value;
        return this;
    }

    /**
     * The address this node's endpoint listens on.
     *
     * @return the value.
     */
    public String bindHost()
    {
        return bindHost;
    }

    /**
     * This start's incarnation: a number larger than any earlier start of this node used, which peers use to tell
     * a restart from a pause (a node persists it, see the node's {@code NodeIdentity}). 0, the default, takes the
     * wall clock in microseconds plus a random part, which is only increasing while the clock is.
     *
     * @param value a positive number, or 0.
     * @return this.
     * @throws ConfigurationException if negative.
     */
    public InterconnectConfig incarnation(final long value)
    {
        InterconnectConfigChecks.check(value >= 0, "incarnation", value, "0 or more");
        this.incarnation = value;
        return this;
    }

    /**
     * This start's incarnation, or 0 for one taken from the clock.
     *
     * @return the value.
     */
    public long incarnation()
    {
        return incarnation;
    }

    /**
     * The UDP port this node's endpoint listens on (required).
     *
     * @param value 1..65535.
     * @return this.
     */
    public InterconnectConfig bindPort(final int value)
    {
        this.bindPort = value;
        return this;
    }

    /**
     * The UDP port this node's endpoint listens on (required).
     *
     * @return the value.
     */
    public int bindPort()
    {
        return bindPort;
    }

    /**
     * The Aeron directory of this node's media driver; default a directory of its own under /dev/shm (or the temp
     * dir), named after the cluster and node id.
     *
     * @param value any path.
     * @return this.
     */
    public InterconnectConfig aeronDir(final String value)
    {
        this.aeronDir = value;
        return this;
    }

    /**
     * The Aeron directory of this node's media driver; default a directory of its own under /dev/shm (or the temp
     * dir), named after the cluster and node id.
     *
     * @return the value.
     */
    public String aeronDir()
    {
        return aeronDir;
    }

    /**
     * Whether the node runs its own media driver (see {@link #driverOnAgentThread(boolean)}); false connects to an
     * external driver at aeronDir.
     *
     * @param value true or false.
     * @return this.
     */
    public InterconnectConfig embeddedDriver(final boolean value)
    {
        this.embeddedDriver = value;
        return this;
    }

    /**
     * Whether the node runs its own media driver (see {@link #driverOnAgentThread(boolean)}); false connects to an
     * external driver at aeronDir.
     *
     * @return the value.
     */
    public boolean embeddedDriver()
    {
        return embeddedDriver;
    }

    /**
     * Whether the embedded media driver runs on the interconnect agent's thread. The driver's conductor, sender
     * and receiver are one agent either way (as in ThreadingMode.SHARED); on the agent's thread
     * (ThreadingMode.INVOKER, the default) a node has one network thread instead of two, an offer reaches the
     * socket in the same duty cycle and a received datagram is polled in the one after, without waking another
     * thread. False gives the driver a thread of its own. Ignored with an external driver.
     *
     * @param value true or false.
     * @return this.
     */
    public InterconnectConfig driverOnAgentThread(final boolean value)
    {
        this.driverOnAgentThread = value;
        return this;
    }

    /**
     * Whether the embedded media driver runs on the interconnect agent's thread.
     *
     * @return the value.
     */
    public boolean driverOnAgentThread()
    {
        return driverOnAgentThread;
    }

    /**
     * How the interconnect agent and the embedded driver wait.
     *
     * @param value BACKOFF or SPIN.
     * @return this.
     */
    public InterconnectConfig idleMode(final IdleMode value)
    {
        this.idleMode = value;
        return this;
    }

    /**
     * How the interconnect agent and the embedded driver wait.
     *
     * @return the value.
     */
    public IdleMode idleMode()
    {
        return idleMode;
    }

    /**
     * The longest the interconnect agent and the embedded driver park when idle in back-off mode.
     *
     * @param value 20 µs..100 ms.
     * @return this.
     */
    public InterconnectConfig maxIdlePark(final Duration value)
    {
        this.maxIdlePark = value;
        return this;
    }

    /**
     * The longest the interconnect agent and the embedded driver park when idle in back-off mode.
     *
     * @return the value.
     */
    public Duration maxIdlePark()
    {
        return maxIdlePark;
    }

    /**
     * Aeron stream of handshakes, heartbeats, acks, credit and directory traffic.
     *
     * @param value distinct stream ids.
     * @return this.
     */
    public InterconnectConfig controlStreamId(final int value)
    {
        this.controlStreamId = value;
        return this;
    }

    /**
     * Aeron stream of handshakes, heartbeats, acks, credit and directory traffic.
     *
     * @return the value.
     */
    public int controlStreamId()
    {
        return controlStreamId;
    }

    /**
     * Aeron stream of events up to the bulk threshold.
     *
     * @param value distinct stream ids.
     * @return this.
     */
    public InterconnectConfig dataStreamId(final int value)
    {
        this.dataStreamId = value;
        return this;
    }

    /**
     * Aeron stream of events up to the bulk threshold.
     *
     * @return the value.
     */
    public int dataStreamId()
    {
        return dataStreamId;
    }

    /**
     * Aeron stream of events above the bulk threshold.
     *
     * @param value distinct stream ids.
     * @return this.
     */
    public InterconnectConfig bulkStreamId(final int value)
    {
        this.bulkStreamId = value;
        return this;
    }

    /**
     * Aeron stream of events above the bulk threshold.
     *
     * @return the value.
     */
    public int bulkStreamId()
    {
        return bulkStreamId;
    }

    /**
     * Term length of control publications.
     *
     * @param value a power of 2, 64 KiB..1 GiB.
     * @return this.
     */
    public InterconnectConfig controlTermLength(final int value)
    {
        this.controlTermLength = value;
        return this;
    }

    /**
     * Term length of control publications.
     *
     * @return the value.
     */
    public int controlTermLength()
    {
        return controlTermLength;
    }

    /**
     * Term length of data publications.
     *
     * @param value a power of 2, 64 KiB..1 GiB.
     * @return this.
     */
    public InterconnectConfig dataTermLength(final int value)
    {
        this.dataTermLength = value;
        return this;
    }

    /**
     * Term length of data publications.
     *
     * @return the value.
     */
    public int dataTermLength()
    {
        return dataTermLength;
    }

    /**
     * Term length of bulk publications.
     *
     * @param value a power of 2, 64 KiB..1 GiB.
     * @return this.
     */
    public InterconnectConfig bulkTermLength(final int value)
    {
        this.bulkTermLength = value;
        return this;
    }

    /**
     * Term length of bulk publications.
     *
     * @return the value.
     */
    public int bulkTermLength()
    {
        return bulkTermLength;
    }

    /**
     * The settings of the streams on which client processes ({@code cluster-client}) reach this node: their stream
     * ids, the longest term of their publications, and how many of their images one address may hold (0, the
     * default, admits no client). Change them in place.
     *
     * @return the settings, this config's own.
     */
    public ClientStreamSettings clientStreams()
    {
        return clientStreams;
    }

    /**
     * MTU of the UDP channels.
     *
     * @param value a multiple of 32, 1024..65504.
     * @return this.
     */
    public InterconnectConfig mtuLength(final int value)
    {
        this.mtuLength = value;
        return this;
    }

    /**
     * MTU of the UDP channels.
     *
     * @return the value.
     */
    public int mtuLength()
    {
        return mtuLength;
    }

    /**
     * Frames larger than this go on the bulk stream.
     *
     * @param value 256..the data stream's largest message.
     * @return this.
     */
    public InterconnectConfig bulkThresholdBytes(final int value)
    {
        this.bulkThresholdBytes = value;
        return this;
    }

    /**
     * Frames larger than this go on the bulk stream.
     *
     * @return the value.
     */
    public int bulkThresholdBytes()
    {
        return bulkThresholdBytes;
    }

    /**
     * Largest encoded event accepted at send; larger ones are refused with an error, never sent.
     *
     * @param value 1..1 GiB.
     * @return this.
     */
    public InterconnectConfig maxEventBytes(final int value)
    {
        this.maxEventBytes = value;
        return this;
    }

    /**
     * Largest encoded event accepted at send; larger ones are refused with an error, never sent.
     *
     * @return the value.
     */
    public int maxEventBytes()
    {
        return maxEventBytes;
    }

    /**
     * Events queued per peer while Aeron pushes back (the node's memory quota bounds their bytes too).
     *
     * @param value 1..16,777,216.
     * @return this.
     */
    public InterconnectConfig outboundQueueCapacity(final int value)
    {
        this.outboundQueueCapacity = value;
        return this;
    }

    /**
     * Events queued per peer while Aeron pushes back (the node's memory quota bounds their bytes too).
     *
     * @return the value.
     */
    public int outboundQueueCapacity()
    {
        return outboundQueueCapacity;
    }

    /**
     * How often a heartbeat goes to each connected peer.
     *
     * @param value 1 ms..10 s, less than a third of the failure timeout.
     * @return this.
     */
    public InterconnectConfig heartbeatInterval(final Duration value)
    {
        this.heartbeatInterval = value;
        return this;
    }

    /**
     * How often a heartbeat goes to each connected peer.
     *
     * @return the value.
     */
    public Duration heartbeatInterval()
    {
        return heartbeatInterval;
    }

    /**
     * Silence after which a peer is declared down.
     *
     * @param value 10 ms..10 min.
     * @return this.
     */
    public InterconnectConfig failureTimeout(final Duration value)
    {
        this.failureTimeout = value;
        return this;
    }

    /**
     * Silence after which a peer is declared down.
     *
     * @return the value.
     */
    public Duration failureTimeout()
    {
        return failureTimeout;
    }

    /**
     * First wait before a handshake is retried.
     *
     * @param value 1 ms..the retry max.
     * @return this.
     */
    public InterconnectConfig handshakeRetryMin(final Duration value)
    {
        this.handshakeRetryMin = value;
        return this;
    }

    /**
     * First wait before a handshake is retried.
     *
     * @return the value.
     */
    public Duration handshakeRetryMin()
    {
        return handshakeRetryMin;
    }

    /**
     * Longest wait between handshake attempts.
     *
     * @param value the retry min..10 min.
     * @return this.
     */
    public InterconnectConfig handshakeRetryMax(final Duration value)
    {
        this.handshakeRetryMax = value;
        return this;
    }

    /**
     * Longest wait between handshake attempts.
     *
     * @return the value.
     */
    public Duration handshakeRetryMax()
    {
        return handshakeRetryMax;
    }

    /**
     * How often received positions are acknowledged to each peer.
     *
     * @param value 100 µs..1 s.
     * @return this.
     */
    public InterconnectConfig ackInterval(final Duration value)
    {
        this.ackInterval = value;
        return this;
    }

    /**
     * How often received positions are acknowledged to each peer.
     *
     * @return the value.
     */
    public Duration ackInterval()
    {
        return ackInterval;
    }

    /**
     * How often this node's shadows of other nodes' credit accounts send their net deltas to the owners (a
     * shadow whose pending delta reaches the flow control's flush bound asks for a flush at once).
     *
     * @param value 100 µs..1 s.
     * @return this.
     */
    public InterconnectConfig creditFlushInterval(final Duration value)
    {
        this.creditFlushInterval = value;
        return this;
    }

    /**
     * How often shadow credit deltas are flushed to their owners.
     *
     * @return the value.
     */
    public Duration creditFlushInterval()
    {
        return creditFlushInterval;
    }

    /**
     * Fills defaults and validates; call once the settings are made (the interconnect calls it at start).
     *
     * @param nodeId this node's id (the actor system's), or 0 for a node whose id the membership assigns later: its
     *               default Aeron directory is then named after its port.
     * @return this.
     * @throws IllegalArgumentException naming the first bad setting, its value and what is allowed.
     */
    public InterconnectConfig conclude(final int nodeId)
    {
        InterconnectConfigChecks.validate(this, nodeId);
        if (aeronDir == null)
        {
            final Path shm = Path.of("/dev/shm");
            final Path base = shm.toFile().isDirectory() ? shm : Path.of(System.getProperty("java.io.tmpdir"));
            // a node whose id is not known yet (the membership assigns it) is told apart on its host by its port
            aeronDir = base.resolve("troupe-" + clusterId.replaceAll("[^A-Za-z0-9_.-]", "_") +
                (nodeId == 0 ? "-port-" + bindPort : "-node-" + nodeId)).toString();
        }
        return this;
    }

    /**
     * The largest message Aeron carries unfragmented by the application on a stream of this term length.
     *
     * @param termLength the term length.
     * @return bytes.
     */
    public static int maxMessageLength(final int termLength)
    {
        return Math.min(termLength / 8, 16 * 1024 * 1024);
    }
}
