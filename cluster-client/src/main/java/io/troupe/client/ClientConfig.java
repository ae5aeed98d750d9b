package io.troupe.client;

import io.troupe.actor.Undelivered;
import io.troupe.interconnect.IdleMode;
import io.troupe.interconnect.seal.HandshakeAuth;
import io.troupe.memquota.ConfigurationException;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.wire.ClientProtocol;
import io.troupe.serialization.wire.FrameProtection;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Settings of a {@link TroupeClient}: where the nodes are, which cluster, the client secret, the codecs of the
 * events the client sends and receives, and how it waits. Only the endpoints, the cluster id and the secret are
 * required; the rest defaults to what a node uses. Not thread safe: build it, then connect.
 */
public final class ClientConfig
{
    private final List<String> endpoints = new ArrayList<>();
    private String clusterId;
    private byte[] secret;
    private final List<EventCodec<?>> codecs = new ArrayList<>();
    private FrameProtection protection = FrameProtection.AUTHENTICATED;
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration heartbeatInterval = Duration.ofMillis(100);
    private Duration failureTimeout = Duration.ofMillis(1500);
    private Duration askTimeout = Duration.ofSeconds(5);
    private Duration sendTimeout = Duration.ZERO;
    private String aeronDir;
    private String replyHost;
    private int controlStreamId = 20;
    private int dataStreamId = 21;
    private int termLength = 256 * 1024;
    private int mtuLength = 1408;
    private int sendBufferBytes = 1 << 20;
    private IdleMode idleMode = IdleMode.BACKOFF;
    private Path replicaDirectory;
    private Consumer<Undelivered> undeliveredListener = notice -> { };
    /** Settings with every default, and no endpoint, cluster id or secret yet. */
    public ClientConfig()
    {
    }

    /** The client protocol versions offered; only tests change them (to see a node refuse). */
    private int minProtocolVersion = ClientProtocol.MIN_VERSION;
    private int maxProtocolVersion = ClientProtocol.VERSION;

    /**
     * Adds a node to connect to; the client connects to one at a time, in the order given, and moves to the next
     * when the one it is connected to goes.
     *
     * @param endpoint {@code host:port}, the node's {@code troupe.transport.bind-host} and {@code bind-port}.
     * @return this.
     */
    public ClientConfig endpoint(final String endpoint)
    {
        endpoints.add(endpoint);
        return this;
    }

    /**
     * The nodes, in order.
     *
     * @return a copy.
     */
    public List<String> endpoints()
    {
        return List.copyOf(endpoints);
    }

    /**
     * The cluster's id, as the nodes have it ({@code troupe.cluster-id}).
     *
     * @param value the id.
     * @return this.
     */
    public ClientConfig clusterId(final String value)
    {
        this.clusterId = value;
        return this;
    }

    /**
     * The cluster's id.
     *
     * @return the value.
     */
    public String clusterId()
    {
        return clusterId;
    }

    /**
     * The client secret, as the nodes have it ({@code troupe.client.secret}): not the cluster secret, which only
     * nodes hold.
     *
     * @param value at least {@value HandshakeAuth#MIN_SECRET_BYTES} bytes; copied.
     * @return this.
     */
    public ClientConfig secret(final byte[] value)
    {
        this.secret = value == null ? null : value.clone();
        return this;
    }

    byte[] secret()
    {
        return secret == null ? null : secret.clone();
    }

    /**
     * Adds the codec of an event type the client sends or receives. The directory's (lookups, service notices)
     * and Troupe's own are always there.
     *
     * @param codec the codec; the nodes must have one of the same type id and fingerprint.
     * @return this.
     */
    public ClientConfig codec(final EventCodec<?> codec)
    {
        codecs.add(codec);
        return this;
    }

    /**
     * The application's codecs.
     *
     * @return a copy.
     */
    public List<EventCodec<?>> codecs()
    {
        return List.copyOf(codecs);
    }

    /**
     * How the session's messages are protected: AUTHENTICATED (a MAC, the default) or ENCRYPTED (AES-GCM).
     *
     * @param value the protection.
     * @return this.
     */
    public ClientConfig protection(final FrameProtection value)
    {
        this.protection = value;
        return this;
    }

    /**
     * How the session's messages are protected.
     *
     * @return the value.
     */
    public FrameProtection protection()
    {
        return protection;
    }

    /**
     * How long {@link TroupeClient#connect} tries, over every endpoint, before it fails.
     *
     * @param value 10 ms..10 minutes.
     * @return this.
     */
    public ClientConfig connectTimeout(final Duration value)
    {
        this.connectTimeout = value;
        return this;
    }

    /**
     * How long {@link TroupeClient#connect} tries.
     *
     * @return the value.
     */
    public Duration connectTimeout()
    {
        return connectTimeout;
    }

    /**
     * How often the client tells the node it is alive.
     *
     * @param value 1 ms..10 s, at most a third of the failure timeout.
     * @return this.
     */
    public ClientConfig heartbeatInterval(final Duration value)
    {
        this.heartbeatInterval = value;
        return this;
    }

    /**
     * How often the client tells the node it is alive.
     *
     * @return the value.
     */
    public Duration heartbeatInterval()
    {
        return heartbeatInterval;
    }

    /**
     * How long without a word from the node before the client takes it for gone: its asks fail with
     * {@code Undelivered(DISCONNECTED, unsure)} and it connects to the next endpoint.
     *
     * @param value 10 ms..10 minutes.
     * @return this.
     */
    public ClientConfig failureTimeout(final Duration value)
    {
        this.failureTimeout = value;
        return this;
    }

    /**
     * How long without a word from the node before the client takes it for gone.
     *
     * @return the value.
     */
    public Duration failureTimeout()
    {
        return failureTimeout;
    }

    /**
     * The timeout of lookups that ask the node (and of {@link TroupeClient#lookup}'s wait).
     *
     * @param value 1 ms..1 hour.
     * @return this.
     */
    public ClientConfig askTimeout(final Duration value)
    {
        this.askTimeout = value;
        return this;
    }

    /**
     * The timeout of lookups that ask the node.
     *
     * @return the value.
     */
    public Duration askTimeout()
    {
        return askTimeout;
    }

    /**
     * How long a send may wait for room in the send buffer before it returns {@link SendStatus#BACK_PRESSURED}:
     * zero, the default, never waits (the caller decides); longer waits park the caller, never spin.
     *
     * @param value 0..1 hour.
     * @return this.
     */
    public ClientConfig sendTimeout(final Duration value)
    {
        this.sendTimeout = value;
        return this;
    }

    /**
     * How long a send may wait for room.
     *
     * @return the value.
     */
    public Duration sendTimeout()
    {
        return sendTimeout;
    }

    /**
     * Connects to a media driver that runs already (its Aeron directory) instead of embedding one.
     *
     * @param value the directory, or null (the default) to embed a driver on the client's thread.
     * @return this.
     */
    public ClientConfig aeronDir(final String value)
    {
        this.aeronDir = value;
        return this;
    }

    /**
     * The external driver's directory, or null to embed one.
     *
     * @return the value.
     */
    public String aeronDir()
    {
        return aeronDir;
    }

    /**
     * The address the node sends its answers to (an address literal of this host that the node can reach).
     *
     * @param value the address, or null (the default): the local address the system routes to the first endpoint.
     * @return this.
     */
    public ClientConfig replyHost(final String value)
    {
        this.replyHost = value;
        return this;
    }

    /**
     * The address the node answers to, or null for the routed one.
     *
     * @return the value.
     */
    public String replyHost()
    {
        return replyHost;
    }

    /**
     * The client streams' ids: the nodes' ({@code ClientStreamSettings.controlStreamId} and {@code dataStreamId}; 20
     * and 21 unless changed).
     *
     * @param control the control stream's id.
     * @param data    the data stream's id.
     * @return this.
     */
    public ClientConfig streamIds(final int control, final int data)
    {
        this.controlStreamId = control;
        this.dataStreamId = data;
        return this;
    }

    int controlStreamId()
    {
        return controlStreamId;
    }

    int dataStreamId()
    {
        return dataStreamId;
    }

    /**
     * The term length of the client's publications: at most the nodes' {@code ClientStreamSettings.termLength}. An
     * event must fit one message, an eighth of it (32 KiB by default, less the envelope).
     *
     * @param value a power of 2, 64 KiB..1 GiB.
     * @return this.
     */
    public ClientConfig termLength(final int value)
    {
        this.termLength = value;
        return this;
    }

    /**
     * The term length of the client's publications.
     *
     * @return the value.
     */
    public int termLength()
    {
        return termLength;
    }

    /**
     * The MTU of the client's publications.
     *
     * @param value a multiple of 32, 1024..65504.
     * @return this.
     */
    public ClientConfig mtuLength(final int value)
    {
        this.mtuLength = value;
        return this;
    }

    /**
     * The MTU of the client's publications.
     *
     * @return the value.
     */
    public int mtuLength()
    {
        return mtuLength;
    }

    /**
     * Bytes of events sent and not yet taken by the client's thread; a full buffer is back pressure.
     *
     * @param value a power of 2, 64 KiB..1 GiB.
     * @return this.
     */
    public ClientConfig sendBufferBytes(final int value)
    {
        this.sendBufferBytes = value;
        return this;
    }

    /**
     * Bytes of events sent and not yet taken.
     *
     * @return the value.
     */
    public int sendBufferBytes()
    {
        return sendBufferBytes;
    }

    /**
     * How the client's thread waits for work: BACKOFF (spin briefly, yield, park; the default, as a node's) or SPIN.
     *
     * @param value the mode.
     * @return this.
     */
    public ClientConfig idleMode(final IdleMode value)
    {
        this.idleMode = value;
        return this;
    }

    /**
     * How the client's thread waits for work.
     *
     * @return the value.
     */
    public IdleMode idleMode()
    {
        return idleMode;
    }

    /**
     * The data directory of a node on this host: lookups then read the node's directory replica from shared
     * memory, with no network hop (the client needs the JVM flags of {@code ReplicaLayout.JVM_FLAGS}).
     *
     * @param value the node's data directory, or null (the default) to ask the node.
     * @return this.
     */
    public ClientConfig replicaDirectory(final Path value)
    {
        this.replicaDirectory = value;
        return this;
    }

    /**
     * The data directory whose replica lookups read, or null.
     *
     * @return the value.
     */
    public Path replicaDirectory()
    {
        return replicaDirectory;
    }

    /**
     * Hears what the node could not deliver of the client's sends ({@code Undelivered} with cookie 0); asks fail
     * their own futures instead. Called on the client's thread: it must not block.
     *
     * @param value the listener.
     * @return this.
     */
    public ClientConfig onUndelivered(final Consumer<Undelivered> value)
    {
        this.undeliveredListener = value == null ? notice -> { } : value;
        return this;
    }

    Consumer<Undelivered> undeliveredListener()
    {
        return undeliveredListener;
    }

    ClientConfig protocolVersions(final int min, final int max)
    {
        this.minProtocolVersion = min;
        this.maxProtocolVersion = max;
        return this;
    }

    int minProtocolVersion()
    {
        return minProtocolVersion;
    }

    int maxProtocolVersion()
    {
        return maxProtocolVersion;
    }

    /**
     * Checks every setting.
     *
     * @return this.
     * @throws ConfigurationException naming the first bad setting, its value and what is allowed.
     */
    public ClientConfig validate()
    {
        check(!endpoints.isEmpty() && endpoints.stream().allMatch(ClientConfig::isHostPort), "endpoints", endpoints,
            "one or more host:port");
        check(clusterId != null && !clusterId.isEmpty() && clusterId.length() <= 255, "clusterId", clusterId,
            "1..255 characters");
        check(secret != null && secret.length >= HandshakeAuth.MIN_SECRET_BYTES, "secret",
            secret == null ? "none" : secret.length + " bytes",
            "at least " + HandshakeAuth.MIN_SECRET_BYTES + " bytes");
        check(protection == FrameProtection.AUTHENTICATED || protection == FrameProtection.ENCRYPTED, "protection",
            protection, "AUTHENTICATED or ENCRYPTED");
        checkDuration("connectTimeout", connectTimeout, Duration.ofMillis(10), Duration.ofMinutes(10));
        checkDuration("failureTimeout", failureTimeout, Duration.ofMillis(10), Duration.ofMinutes(10));
        checkDuration("heartbeatInterval", heartbeatInterval, Duration.ofMillis(1), Duration.ofSeconds(10));
        check(heartbeatInterval.multipliedBy(3).compareTo(failureTimeout) <= 0, "heartbeatInterval", heartbeatInterval,
            "at most a third of failureTimeout (" + failureTimeout + ")");
        checkDuration("askTimeout", askTimeout, Duration.ofMillis(1), Duration.ofHours(1));
        checkDuration("sendTimeout", sendTimeout, Duration.ZERO, Duration.ofHours(1));
        check(controlStreamId != dataStreamId, "streamIds", controlStreamId + "/" + dataStreamId, "two different ids");
        check(isPowerOfTwo(termLength) && termLength >= 64 * 1024 && termLength <= 1 << 30, "termLength", termLength,
            "a power of 2, 64 KiB..1 GiB");
        check(mtuLength >= 1024 && mtuLength <= 65504 && mtuLength % 32 == 0, "mtuLength", mtuLength,
            "a multiple of 32, 1024..65504");
        check(isPowerOfTwo(sendBufferBytes) && sendBufferBytes >= 64 * 1024 && sendBufferBytes <= 1 << 30,
            "sendBufferBytes", sendBufferBytes, "a power of 2, 64 KiB..1 GiB");
        check(idleMode != null, "idleMode", idleMode, "BACKOFF or SPIN");
        return this;
    }

    private static boolean isHostPort(final String endpoint)
    {
        final int colon = endpoint == null ? -1 : endpoint.lastIndexOf(':');
        if (colon <= 0)
        {
            return false;
        }
        try
        {
            final int port = Integer.parseInt(endpoint.substring(colon + 1));
            return port >= 1 && port <= 65535;
        }
        catch (final NumberFormatException ex)
        {
            return false;
        }
    }

    private static boolean isPowerOfTwo(final int value)
    {
        return value > 0 && (value & (value - 1)) == 0;
    }

    private static void checkDuration(final String name, final Duration value, final Duration min, final Duration max)
    {
        check(value != null && value.compareTo(min) >= 0 && value.compareTo(max) <= 0, name, value, min + ".." + max);
    }

    private static void check(final boolean ok, final String name, final Object value, final String allowed)
    {
        if (!ok)
        {
            throw new ConfigurationException(name, value, allowed, "client " + name + " is " + value + ": must be " +
                allowed);
        }
    }
}
