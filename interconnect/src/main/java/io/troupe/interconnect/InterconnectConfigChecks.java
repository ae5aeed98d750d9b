package io.troupe.interconnect;

import io.troupe.actor.ActorId;
import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.memquota.ConfigurationException;
import io.troupe.memquota.Setting;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
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

    /**
     * Checks every setting of a config for a node: each declared one against its own bounds
     * ({@link InterconnectSettings#ALL}), then the peers, then what relates settings to each other.
     */
    static void validate(final InterconnectConfig config, final int nodeId)
    {
        for (final Setting<InterconnectConfig, ?> setting : InterconnectSettings.ALL)
        {
            setting.check(config);
        }
        final String clusterId = config.clusterId();
        final byte[] clusterSecret = config.clusterSecret();
        final String bindHost = config.bindHost();
        check(clusterSecret != null && clusterSecret.length >= InterconnectConfig.MIN_SECRET_BYTES, "clusterSecret",
            clusterSecret == null ? "none" : clusterSecret.length + " bytes",
            "at least " + InterconnectConfig.MIN_SECRET_BYTES + " bytes");
        check(!InterconnectConfig.DEFAULT_CLUSTER_ID.equals(clusterId) || isLoopback(bindHost), "clusterId", clusterId,
            "a cluster id of your own when bindHost (" + bindHost + ") is not a loopback address: the default '" +
            InterconnectConfig.DEFAULT_CLUSTER_ID + "' is refused off loopback, so that a node reachable from other " +
            "hosts cannot join another deployment by accident");
        check(config.bindPort() >= 1 && config.bindPort() <= 65535, "bindPort", config.bindPort(), "1..65535");
        checkPeers(config.peers(), nodeId);
        checkStreams(config);
        final int largestDataFrame = InterconnectConfig.maxMessageLength(config.dataTermLength()) -
            OutboundBatch.LENGTH_PREFIX - FrameSeal.OVERHEAD;
        check(config.bulkThresholdBytes() <= largestDataFrame, "bulkThresholdBytes", config.bulkThresholdBytes(),
            "256.." + largestDataFrame + " (the data stream's largest message, less a 4-byte length and the " +
            FrameSeal.OVERHEAD + "-byte seal)");
        final Duration heartbeatInterval = config.heartbeatInterval();
        check(heartbeatInterval.multipliedBy(3).compareTo(config.failureTimeout()) <= 0, "heartbeatInterval",
            Setting.duration(heartbeatInterval), "at most a third of failureTimeout (" +
            Setting.duration(config.failureTimeout()) + ")");
        check(config.handshakeRetryMax().compareTo(config.handshakeRetryMin()) >= 0, "handshakeRetryMax",
            Setting.duration(config.handshakeRetryMax()), "at least handshakeRetryMin (" +
            Setting.duration(config.handshakeRetryMin()) + ")");
    }

    /** The node streams differ; the client streams, if clients are admitted, differ from them and each other. */
    private static void checkStreams(final InterconnectConfig config)
    {
        final int controlStreamId = config.controlStreamId();
        final int dataStreamId = config.dataStreamId();
        final int bulkStreamId = config.bulkStreamId();
        check(controlStreamId != dataStreamId && dataStreamId != bulkStreamId && controlStreamId != bulkStreamId,
            "controlStreamId/dataStreamId/bulkStreamId", controlStreamId + "/" + dataStreamId + "/" + bulkStreamId,
            "three different stream ids");
        final int clientImagesPerAddress = config.clientStreams().imagesPerAddress();
        check(clientImagesPerAddress >= 0 && clientImagesPerAddress <= 65_536, "clientImagesPerAddress",
            clientImagesPerAddress, "0..65,536");
        if (clientImagesPerAddress > 0)
        {
            final int clientControlStreamId = config.clientStreams().controlStreamId();
            final int clientDataStreamId = config.clientStreams().dataStreamId();
            final Set<Integer> streams = Set.of(controlStreamId, dataStreamId, bulkStreamId);
            check(clientControlStreamId != clientDataStreamId && !streams.contains(clientControlStreamId) &&
                !streams.contains(clientDataStreamId), "clientControlStreamId/clientDataStreamId",
                clientControlStreamId + "/" + clientDataStreamId, "two stream ids different from each other and from " +
                "the node streams " + controlStreamId + "/" + dataStreamId + "/" + bulkStreamId);
        }
    }

    private static void checkPeers(final List<PeerAddress> peers, final int nodeId)
    {
        final Set<Integer> ids = new HashSet<>();
        for (final PeerAddress peer : peers)
        {
            checkPeer(peer, nodeId);
            check(ids.add(peer.nodeId()), "peers", peer, "one entry per node id");
        }
    }

    /**
     * Checks one peer's address: a node id in range and not this node's, a host, a port.
     *
     * @throws ConfigurationException if it is not valid.
     */
    static void checkPeer(final PeerAddress peer, final int nodeId)
    {
        check(peer != null && peer.nodeId() >= 1 && peer.nodeId() <= ActorId.MAX_NODE_ID, "peers",
            peer, "node ids 1.." + ActorId.MAX_NODE_ID);
        check(peer.nodeId() != nodeId, "peers", peer, "other nodes than this one (" + nodeId + ")");
        check(peer.host() != null && !peer.host().isBlank(), "peers", peer, "a host for every peer");
        check(peer.port() >= 1 && peer.port() <= 65535, "peers", peer, "ports 1..65535");
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
            return InetAddress.getByName(host).isLoopbackAddress();
        }
        catch (final UnknownHostException ex)
        {
            return false;
        }
    }
}
