package io.troupe.interconnect;

import io.aeron.Aeron;
import io.aeron.ChannelUriStringBuilder;
import io.aeron.ExclusivePublication;
import org.agrona.CloseHelper;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Opens a peer's three publications (control, data, bulk) under one Aeron session id, and renews them under a
 * fresh one when the peer found a stream of ours broken beyond repair (a hole no retransmission fills, see
 * {@link StreamStallWatch}): a new Aeron session starts every stream from position 0 on images of their own, so
 * the next handshake's session is whole again. Renewal runs on the interconnect agent's thread, whose Aeron client
 * runs its conductor (and an embedded driver) itself.
 */
final class PeerPublications
{
    private final Aeron aeron;
    private final InterconnectConfig config;

    PeerPublications(final Aeron aeron, final InterconnectConfig config)
    {
        this.aeron = aeron;
        this.config = config;
    }

    /** A random session id that is not {@code current}. */
    static int newSessionId(final int current)
    {
        int id;
        do
        {
            id = ThreadLocalRandom.current().nextInt(0x10000, Integer.MAX_VALUE);
        }
        while (id == current);
        return id;
    }

    /** Opens the peer's publications under {@code sessionId}. */
    void open(final Peer peer, final int sessionId)
    {
        final PeerAddress address = peer.address;
        peer.control = publication(address, config.controlTermLength(), sessionId, config.controlStreamId());
        peer.data = publication(address, config.dataTermLength(), sessionId, config.dataStreamId());
        peer.bulk = publication(address, config.bulkTermLength(), sessionId, config.bulkStreamId());
    }

    /**
     * Closes the peer's publications and opens new ones under a fresh session id. Only while no session is up with
     * the peer (their positions start again from 0, as a new session's do).
     *
     * @return the new session id.
     */
    int renew(final Peer peer)
    {
        final int sessionId = newSessionId(peer.control.sessionId());
        CloseHelper.quietCloseAll(peer.control, peer.data, peer.bulk);
        open(peer, sessionId);
        return sessionId;
    }

    /** Closes the peer's publications for good (a removed peer); the media driver still sends what they hold. */
    void close(final Peer peer)
    {
        CloseHelper.quietCloseAll(peer.control, peer.data, peer.bulk);
    }

    private ExclusivePublication publication(
        final PeerAddress address, final int termLength, final int sessionId, final int streamId)
    {
        final String channel = new ChannelUriStringBuilder()
            .media("udp")
            .endpoint(address.endpoint())
            .termLength(termLength)
            .mtu(config.mtuLength())
            .sessionId(sessionId)
            .build();
        return aeron.addExclusivePublication(channel, streamId);
    }
}
