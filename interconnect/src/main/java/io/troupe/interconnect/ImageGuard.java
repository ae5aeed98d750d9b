package io.troupe.interconnect;

import io.aeron.Image;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a node's media driver lets in, before any frame is read: an Aeron image (a remote publication's log
 * buffers, sized by the publisher's term length, in the node's Aeron directory) costs memory and files, so an
 * image is made only
 * <ul>
 * <li>on one of the node's three streams, with a term length no longer than the node's own for that stream (a
 *     peer of this configuration never uses a longer one);</li>
 * <li>while its source address holds fewer images on that stream than two per peer at that address (configured, or
 *     added at run time; a restarting peer briefly has two) plus {@link #SPARE_IMAGES}; an address where no peer is
 *     gets the spare ones only.</li>
 * <li>or, on a client stream ({@link ClientStreamSettings#imagesPerAddress} above 0), with a term length no longer
 *     than {@link ClientStreamSettings#termLength} while its source address holds fewer images on that stream
 *     than {@code imagesPerAddress};</li>
 * </ul>
 * What a rogue publisher can make a node hold is thus bounded by the addresses it can send from, and it never
 * gets a frame read: the frames of a session no handshake set up are dropped unopened. (An image is not made to
 * wait for the handshake: a restarted peer's publications are already sending, and the data written before the
 * image existed would be lost.) Everything else is refused at its SETUP frame ({@link GuardedReceiveEndpoint},
 * with the embedded driver) or, with an external driver, rejected when the image appears ({@link Image#reject}),
 * and counted as {@link FrameRejection#ROGUE_IMAGE}. Thread safe: the driver may run on a thread of its own.
 */
final class ImageGuard
{
    /** Images per stream a source address may hold beyond two per peer configured there. */
    static final int SPARE_IMAGES = 2;

    private final InterconnectConfig config;
    /** Peers per source address (as InetAddress writes it): the configured ones, and those added at run time. */
    private final Map<String, Integer> peersByAddress = new ConcurrentHashMap<>();
    /** Images held now, by stream and source address. */
    private final ConcurrentHashMap<String, AtomicInteger> images = new ConcurrentHashMap<>();
    private final Rejections rejections;

    /**
     * A guard for a node with these (concluded) settings.
     *
     * @param config     the node's settings: stream ids, term lengths, peers.
     * @param rejections where refused images are counted ({@link FrameRejection#ROGUE_IMAGE}).
     */
    ImageGuard(final InterconnectConfig config, final Rejections rejections)
    {
        this.config = config;
        this.rejections = rejections;
        for (final PeerAddress peer : config.peers())
        {
            peersByAddress.merge(address(peer.host()), 1, Integer::sum);
        }
    }

    /** A peer was added at run time ({@link Interconnect#addPeer}): its address may hold two more images. */
    void addPeer(final PeerAddress peer)
    {
        peersByAddress.merge(address(peer.host()), 1, Integer::sum);
    }

    /** A peer was removed at run time ({@link Interconnect#removePeer}). */
    void removePeer(final PeerAddress peer)
    {
        peersByAddress.computeIfPresent(address(peer.host()), (address, count) -> count > 1 ? count - 1 : null);
    }

    /** Images allowed at once per stream from an address. */
    int imagesAllowed(final String address)
    {
        return 2 * peersByAddress.getOrDefault(address, 0) + SPARE_IMAGES;
    }

    /** Images allowed at once on a stream from an address: a client stream's limit is the configured one. */
    private int imagesAllowed(final int streamId, final String address)
    {
        return isClientStream(streamId) ? config.clientStreams().imagesPerAddress() : imagesAllowed(address);
    }

    private boolean isClientStream(final int streamId)
    {
        return config.clientStreams().imagesPerAddress() > 0 &&
            (streamId == config.clientStreams().controlStreamId() || streamId == config.clientStreams().dataStreamId());
    }

    /**
     * Whether a SETUP may make an image (called by the driver).
     *
     * @return true to let it.
     */
    boolean admitSetup(final int streamId, final int termLength, final InetSocketAddress source)
    {
        final int longest = longestTerm(streamId);
        final String address = source.getAddress().getHostAddress();
        final boolean admitted = termLength <= longest && count(streamId, address) < imagesAllowed(streamId, address);
        if (!admitted)
        {
            rejections.count(FrameRejection.ROGUE_IMAGE);
        }
        return admitted;
    }

    /** An image appeared (client conductor, the agent's thread): counts it, or rejects it if there is no room. */
    void onAvailable(final Image image)
    {
        final int streamId = image.subscription().streamId();
        final String address = address(image.sourceIdentity());
        if (image.termBufferLength() > longestTerm(streamId) ||
            count(streamId, address) >= imagesAllowed(streamId, address))
        {
            rejections.count(FrameRejection.ROGUE_IMAGE); // only with an external driver, which no guard filters
            image.reject("no room for another image of stream " + streamId + " from " + address);
            return;
        }
        images.computeIfAbsent(key(streamId, address), key -> new AtomicInteger()).incrementAndGet();
    }

    void onUnavailable(final Image image)
    {
        final String key = key(image.subscription().streamId(), address(image.sourceIdentity()));
        final AtomicInteger count = images.get(key);
        if (count != null && count.decrementAndGet() <= 0)
        {
            images.remove(key, count);
        }
    }

    private int longestTerm(final int streamId)
    {
        if (streamId == config.controlStreamId())
        {
            return config.controlTermLength();
        }
        if (streamId == config.dataStreamId())
        {
            return config.dataTermLength();
        }
        if (streamId == config.bulkStreamId())
        {
            return config.bulkTermLength();
        }
        return isClientStream(streamId) ? config.clientStreams().termLength() : -1;
    }

    private int count(final int streamId, final String address)
    {
        final AtomicInteger count = images.get(key(streamId, address));
        return count == null ? 0 : count.get();
    }

    private static String key(final int streamId, final String address)
    {
        return streamId + "@" + address;
    }

    /**
     * The address part of an Aeron source identity ("host:port", "[v6]:port") or of a configured host, as
     * InetAddress writes it.
     */
    private static String address(final String identity)
    {
        String host = identity;
        if (host.startsWith("["))
        {
            host = host.substring(1, host.indexOf(']'));
        }
        else if (host.indexOf(':') == host.lastIndexOf(':') && host.indexOf(':') >= 0)
        {
            host = host.substring(0, host.indexOf(':')); // host:port; a bare IPv6 address has several colons
        }
        try
        {
            return InetAddress.getByName(host).getHostAddress(); // a literal address: no lookup
        }
        catch (final UnknownHostException ex)
        {
            return host;
        }
    }
}
