package io.troupe.node.client;

import io.troupe.interconnect.seal.HandshakeAuth;
import io.troupe.memquota.ConfigurationException;
import io.troupe.memquota.Setting;
import io.troupe.serialization.wire.FrameProtection;

import java.time.Duration;

/**
 * Settings of a node's client ingress: who may connect (the client secret), how many at once, and what one client
 * may have outstanding. Clients connect to the node's own endpoint ({@code troupe.transport.bind-host/port}) on two
 * streams of their own ({@link io.troupe.interconnect.ClientStreamSettings#controlStreamId},
 * {@link io.troupe.interconnect.ClientStreamSettings#dataStreamId}). Not thread safe: build it, then hand it
 * over.
 */
public final class ClientIngressConfig
{
    /** Settings with every default and no secret: set one before starting. */
    public ClientIngressConfig()
    {
    }

    /** Clients connected at once, by default. */
    public static final int DEFAULT_MAX_CLIENTS = ClientIngressSettings.MAX_CLIENTS.defaultValue();
    /** A client's credit threshold, by default: the node stops reading a client that has this much outstanding. */
    public static final long DEFAULT_CREDIT_THRESHOLD = ClientIngressSettings.CREDIT_THRESHOLD.defaultValue();
    /** Asks one client may have outstanding on the node, by default. */
    public static final int DEFAULT_MAX_PENDING_ASKS = ClientIngressSettings.MAX_PENDING_ASKS.defaultValue();

    private byte[] secret;
    private int maxClients = DEFAULT_MAX_CLIENTS;
    private long creditThreshold = DEFAULT_CREDIT_THRESHOLD;
    private int maxPendingAsks = DEFAULT_MAX_PENDING_ASKS;
    private Duration askTimeout = ClientIngressSettings.ASK_TIMEOUT.defaultValue();
    private Duration handshakeTimeout = Duration.ofSeconds(5);
    private int pollBatch = 64;
    private int handshakesPerSecond = 200;
    private FrameProtection minimumProtection = FrameProtection.AUTHENTICATED;

    /**
     * The secret clients prove they know at the handshake: a separate secret from the cluster's, so that a client
     * cannot pass for a node. Required.
     *
     * @param value at least {@value HandshakeAuth#MIN_SECRET_BYTES} bytes; copied.
     * @return this.
     */
    public ClientIngressConfig secret(final byte[] value)
    {
        this.secret = value == null ? null : value.clone();
        return this;
    }

    /**
     * The client secret (a copy).
     *
     * @return the bytes, or null if not set.
     */
    public byte[] secret()
    {
        return secret == null ? null : secret.clone();
    }

    /**
     * Clients connected at once; the next is refused ("too many clients").
     *
     * @param value 1..65,536.
     * @return this.
     */
    public ClientIngressConfig maxClients(final int value)
    {
        this.maxClients = value;
        return this;
    }

    /**
     * Clients connected at once.
     *
     * @return the value.
     */
    public int maxClients()
    {
        return maxClients;
    }

    /**
     * The threshold of each client session's credit account: while what the client sent and the node has not
     * finished handling costs this much or more, the node does not read the client's stream, and the client's
     * sends see back pressure.
     *
     * @param value 1..2^62.
     * @return this.
     */
    public ClientIngressConfig creditThreshold(final long value)
    {
        this.creditThreshold = value;
        return this;
    }

    /**
     * The threshold of each client's credit account.
     *
     * @return the value.
     */
    public long creditThreshold()
    {
        return creditThreshold;
    }

    /**
     * Asks one client may have waiting for a reply on the node; one more is answered {@code Undelivered(SHED)}.
     *
     * @param value 1..1,048,576.
     * @return this.
     */
    public ClientIngressConfig maxPendingAsks(final int value)
    {
        this.maxPendingAsks = value;
        return this;
    }

    /**
     * Asks one client may have waiting.
     *
     * @return the value.
     */
    public int maxPendingAsks()
    {
        return maxPendingAsks;
    }

    /**
     * How long the node keeps an ask's reply slot: a reply after that is dropped and counted as late. The client's
     * own timeout (given to each ask) is what the caller sees; this only frees the node's slot of an ask whose
     * reply never comes.
     *
     * @param value 1 ms..1 hour.
     * @return this.
     */
    public ClientIngressConfig askTimeout(final Duration value)
    {
        this.askTimeout = value;
        return this;
    }

    /**
     * How long the node keeps an ask's reply slot.
     *
     * @return the value.
     */
    public Duration askTimeout()
    {
        return askTimeout;
    }

    /**
     * How long a client has from its HELLO to its CONFIRM.
     *
     * @param value 10 ms..10 minutes.
     * @return this.
     */
    public ClientIngressConfig handshakeTimeout(final Duration value)
    {
        this.handshakeTimeout = value;
        return this;
    }

    /**
     * How long a client has from its HELLO to its CONFIRM.
     *
     * @return the value.
     */
    public Duration handshakeTimeout()
    {
        return handshakeTimeout;
    }

    /**
     * Messages read from one client per duty cycle, so that one busy client does not hold up the others.
     *
     * @param value 1..4,096.
     * @return this.
     */
    public ClientIngressConfig pollBatch(final int value)
    {
        this.pollBatch = value;
        return this;
    }

    /**
     * Messages read from one client per duty cycle.
     *
     * @return the value.
     */
    public int pollBatch()
    {
        return pollBatch;
    }

    /**
     * HELLOs the node checks per second, from all strangers together; beyond that they are dropped unread (each
     * costs an HMAC, and a refusal may cost a publication).
     *
     * @param value 1..100,000.
     * @return this.
     */
    public ClientIngressConfig handshakesPerSecond(final int value)
    {
        this.handshakesPerSecond = value;
        return this;
    }

    /**
     * HELLOs checked per second.
     *
     * @return the value.
     */
    public int handshakesPerSecond()
    {
        return handshakesPerSecond;
    }

    /**
     * The weakest frame protection a client may choose: {@link FrameProtection#AUTHENTICATED} (the default) lets a
     * client choose either; {@link FrameProtection#ENCRYPTED} refuses clients that do not encrypt.
     *
     * @param value AUTHENTICATED or ENCRYPTED.
     * @return this.
     */
    public ClientIngressConfig minimumProtection(final FrameProtection value)
    {
        this.minimumProtection = value;
        return this;
    }

    /**
     * The weakest frame protection a client may choose.
     *
     * @return the value.
     */
    public FrameProtection minimumProtection()
    {
        return minimumProtection;
    }

    /**
     * A copy of every setting.
     *
     * @return the copy.
     */
    public ClientIngressConfig copy()
    {
        final ClientIngressConfig copy = new ClientIngressConfig().secret(secret).handshakeTimeout(handshakeTimeout)
            .pollBatch(pollBatch).handshakesPerSecond(handshakesPerSecond).minimumProtection(minimumProtection);
        for (final Setting<ClientIngressConfig, ?> setting : ClientIngressSettings.ALL)
        {
            setting.copy(this, copy);
        }
        return copy;
    }

    /**
     * Checks every setting: the declared ones against their bounds ({@link ClientIngressSettings#ALL}), then the
     * others.
     *
     * @return this.
     * @throws ConfigurationException naming the first bad setting, its value and what is allowed.
     */
    public ClientIngressConfig validate()
    {
        check(secret != null && secret.length >= HandshakeAuth.MIN_SECRET_BYTES, "secret",
            secret == null ? "none" : secret.length + " bytes",
            "at least " + HandshakeAuth.MIN_SECRET_BYTES + " bytes");
        for (final Setting<ClientIngressConfig, ?> setting : ClientIngressSettings.ALL)
        {
            setting.check(this);
        }
        checkDuration("handshakeTimeout", handshakeTimeout, Duration.ofMillis(10), Duration.ofMinutes(10));
        check(pollBatch >= 1 && pollBatch <= 4096, "pollBatch", pollBatch, "1..4,096");
        check(handshakesPerSecond >= 1 && handshakesPerSecond <= 100_000, "handshakesPerSecond", handshakesPerSecond,
            "1..100,000");
        check(minimumProtection == FrameProtection.AUTHENTICATED || minimumProtection == FrameProtection.ENCRYPTED,
            "minimumProtection", minimumProtection, "AUTHENTICATED or ENCRYPTED");
        return this;
    }

    private static void checkDuration(final String name, final Duration value, final Duration min, final Duration max)
    {
        check(value != null && value.compareTo(min) >= 0 && value.compareTo(max) <= 0, name, value, min + ".." + max);
    }

    private static void check(final boolean ok, final String name, final Object value, final String allowed)
    {
        if (!ok)
        {
            throw new ConfigurationException(name, value, allowed,
                "client ingress " + name + " is " + value + ": must be " + allowed);
        }
    }

    @Override
    public String toString()
    {
        return "ClientIngressConfig[secret " + (secret == null ? "none" : secret.length + " bytes") + ", maxClients " +
            maxClients + ", creditThreshold " + creditThreshold + ", maxPendingAsks " + maxPendingAsks +
            ", askTimeout " + askTimeout + ", handshakeTimeout " + handshakeTimeout + ']';
    }
}
