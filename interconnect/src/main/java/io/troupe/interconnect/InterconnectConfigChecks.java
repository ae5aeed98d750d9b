package io.troupe.interconnect;

import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.memquota.ConfigurationException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * The checks {@link InterconnectConfig#conclude} makes: every setting against what is allowed, one at a time, the
 * first bad one thrown as a {@link ConfigurationException} naming it, its value and what is allowed.
 */
final class InterconnectConfigChecks
{
    private InterconnectConfigChecks()
    {
    }

    /** Checks every setting of a config for a node. */
    static void validate(final InterconnectConfig config, final int nodeId)
    {
        final String clusterId = config.clusterId();
        final byte[] clusterSecret = config.clusterSecret();
        final String bindHost = config.bindHost();
        final int bindPort = config.bindPort();
        final IdleMode idleMode = config.idleMode();
        final int controlStreamId = config.controlStreamId();
        final int dataStreamId = config.dataStreamId();
        final int bulkStreamId = config.bulkStreamId();
        final int controlTermLength = config.controlTermLength();
        final int dataTermLength = config.dataTermLength();
        final int bulkTermLength = config.bulkTermLength();
        final int clientImagesPerAddress = config.clientStreams().imagesPerAddress();
        final int clientControlStreamId = config.clientStreams().controlStreamId();
        final int clientDataStreamId = config.clientStreams().dataStreamId();
        final int clientTermLength = config.clientStreams().termLength();
        final int mtuLength = config.mtuLength();
        final int bulkThresholdBytes = config.bulkThresholdBytes();
        final io.troupe.serialization.wire.FrameProtection frameProtection = config.frameProtection();
        final int maxEventBytes = config.maxEventBytes();
        final int outboundQueueCapacity = config.outboundQueueCapacity();
        final Duration failureTimeout = config.failureTimeout();
        final Duration heartbeatInterval = config.heartbeatInterval();
        final Duration handshakeRetryMin = config.handshakeRetryMin();
        final Duration handshakeRetryMax = config.handshakeRetryMax();
        final Duration ackInterval = config.ackInterval();
        final Duration creditFlushInterval = config.creditFlushInterval();
        final int idBytes = clusterId == null ? 0 : clusterId.getBytes(StandardCharsets.UTF_8).length;
        check(idBytes >= 1 && idBytes <= 255, "clusterId", clusterId, "1..255 bytes of UTF-8");
        check(clusterSecret != null && clusterSecret.length >= InterconnectConfig.MIN_SECRET_BYTES, "clusterSecret",
            clusterSecret == null ? "none" : clusterSecret.length + " bytes", "at least " + InterconnectConfig.MIN_SECRET_BYTES + " bytes");
        check(bindHost != null && !bindHost.isBlank(), "bindHost", bindHost, "a host name or address");
        check(!InterconnectConfig.DEFAULT_CLUSTER_ID.equals(clusterId) || isLoopback(bindHost), "clusterId", clusterId,
            "a cluster id of your own when bindHost (" + bindHost + ") is not a loopback address: the default '" +
            InterconnectConfig.DEFAULT_CLUSTER_ID + "' is refused off loopback, so that a node reachable from other hosts cannot join " +
            "another deployment by accident");
        check(bindPort >= 1 && bindPort <= 65535, "bindPort", bindPort, "1..65535");
        checkPeers(config.peers(), nodeId);
        check(idleMode != null, "idleMode", idleMode, "BACKOFF or SPIN");
        check(controlStreamId != dataStreamId && dataStreamId != bulkStreamId && controlStreamId != bulkStreamId,
            "controlStreamId/dataStreamId/bulkStreamId", controlStreamId + "/" + dataStreamId + "/" + bulkStreamId,
            "three different stream ids");
        checkTerm("controlTermLength", controlTermLength);
        checkTerm("dataTermLength", dataTermLength);
        checkTerm("bulkTermLength", bulkTermLength);
        check(clientImagesPerAddress >= 0 && clientImagesPerAddress <= 65_536, "clientImagesPerAddress",
            clientImagesPerAddress, "0..65,536");
        if (clientImagesPerAddress > 0)
        {
            final java.util.Set<Integer> streams = java.util.Set.of(controlStreamId, dataStreamId, bulkStreamId);
            check(clientControlStreamId != clientDataStreamId && !streams.contains(clientControlStreamId) &&
                !streams.contains(clientDataStreamId), "clientControlStreamId/clientDataStreamId",
                clientControlStreamId + "/" + clientDataStreamId, "two stream ids different from each other and from " +
                "the node streams " + controlStreamId + "/" + dataStreamId + "/" + bulkStreamId);
            checkTerm("clientTermLength", clientTermLength);
        }
        check(mtuLength >= 1024 && mtuLength <= 65504 && mtuLength % 32 == 0, "mtuLength", mtuLength,
            "a multiple of 32, 1024..65504");
        final int largestDataFrame = InterconnectConfig.maxMessageLength(dataTermLength) - OutboundBatch.LENGTH_PREFIX - FrameSeal.OVERHEAD;
        check(bulkThresholdBytes >= 256 && bulkThresholdBytes <= largestDataFrame, "bulkThresholdBytes",
            bulkThresholdBytes, "256.." + largestDataFrame + " (the data stream's largest message, less a 4-byte length " +
            "and the " + FrameSeal.OVERHEAD + "-byte seal)");
        check(frameProtection == io.troupe.serialization.wire.FrameProtection.AUTHENTICATED ||
            frameProtection == io.troupe.serialization.wire.FrameProtection.ENCRYPTED, "frameProtection",
            frameProtection, "AUTHENTICATED or ENCRYPTED");
        check(maxEventBytes >= 1 && maxEventBytes <= (1 << 30), "maxEventBytes", maxEventBytes, "1..1 GiB");
        check(outboundQueueCapacity >= 1 && outboundQueueCapacity <= (1 << 24), "outboundQueueCapacity",
            outboundQueueCapacity, "1..16,777,216");
        checkDuration("failureTimeout", failureTimeout, Duration.ofMillis(10), Duration.ofMinutes(10));
        checkDuration("heartbeatInterval", heartbeatInterval, Duration.ofMillis(1), Duration.ofSeconds(10));
        check(heartbeatInterval.multipliedBy(3).compareTo(failureTimeout) <= 0, "heartbeatInterval", heartbeatInterval,
            "at most a third of failureTimeout (" + failureTimeout + ")");
        checkDuration("handshakeRetryMin", handshakeRetryMin, Duration.ofMillis(1), Duration.ofMinutes(10));
        checkDuration("handshakeRetryMax", handshakeRetryMax, handshakeRetryMin, Duration.ofMinutes(10));
        checkDuration("ackInterval", ackInterval, Duration.ofNanos(100_000), Duration.ofSeconds(1));
        checkDuration("creditFlushInterval", creditFlushInterval, Duration.ofNanos(100_000), Duration.ofSeconds(1));
    }

    private static void checkPeers(final java.util.List<PeerAddress> peers, final int nodeId)
    {
        final Set<Integer> ids = new HashSet<>();
        for (final PeerAddress peer : peers)
        {
            check(peer != null && peer.nodeId() >= 1 && peer.nodeId() <= io.troupe.actor.ActorId.MAX_NODE_ID, "peers",
                peer, "node ids 1.." + io.troupe.actor.ActorId.MAX_NODE_ID);
            check(peer.nodeId() != nodeId, "peers", peer, "other nodes than this one (" + nodeId + ")");
            check(ids.add(peer.nodeId()), "peers", peer, "one entry per node id");
            check(peer.host() != null && !peer.host().isBlank(), "peers", peer, "a host for every peer");
            check(peer.port() >= 1 && peer.port() <= 65535, "peers", peer, "ports 1..65535");
        }
    }

    private static void checkTerm(final String name, final int length)
    {
        check(length >= 64 * 1024 && length <= (1 << 30) && Integer.bitCount(length) == 1, name, length,
            "a power of 2, 64 KiB..1 GiB");
    }

    private static void checkDuration(final String name, final Duration value, final Duration min, final Duration max)
    {
        check(value != null && value.compareTo(min) >= 0 && value.compareTo(max) <= 0, name, value, min + ".." + max);
    }

    static void check(final boolean ok, final String name, final Object value, final String allowed)
    {
        if (!ok)
        {
            throw new ConfigurationException(name, value, allowed,
                "interconnect setting " + name + " = " + value + " is invalid: allowed " + allowed);
        }
    }

    /** Whether a host name or address is a loopback address (a name is resolved; one that does not is not). */
    static boolean isLoopback(final String host)
    {
        try
        {
            return java.net.InetAddress.getByName(host).isLoopbackAddress();
        }
        catch (final java.net.UnknownHostException ex)
        {
            return false;
        }
    }
}
