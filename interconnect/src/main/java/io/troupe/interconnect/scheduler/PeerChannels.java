package io.troupe.interconnect.scheduler;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The connected peers and their channels, open or closed, and the order an offer lists them in. Owned by the
 * scheduler's thread.
 */
final class PeerChannels
{
    /** A connected peer: one incarnation of a session with it. */
    static final class Peer
    {
        final int nodeId;
        final AtomicLong gauge;
        int channels;
        boolean[] busy;
        int inFlight;
        /** Smoothed round trip of its responses, ns (0 before the first). */
        long rttNs;

        Peer(final int nodeId, final int channels, final AtomicLong gauge)
        {
            this.nodeId = nodeId;
            this.channels = channels;
            this.busy = new boolean[channels];
            this.gauge = gauge;
        }

        boolean isOpen(final int index)
        {
            return index < channels && !busy[index];
        }

        /** A message went out on a channel. */
        void close(final int index)
        {
            busy[index] = true;
            inFlight++;
            gauge.lazySet(inFlight);
        }

        /** A channel's message ended; whether the channel counts (it may have been retired by a smaller count). */
        boolean open(final int index)
        {
            busy[index] = false;
            inFlight--;
            gauge.lazySet(inFlight);
            return index < channels;
        }

        /** A response came after {@code rttNs}: the smoothed round trip moves an eighth of the way. */
        void onRoundTrip(final long sampleNs)
        {
            rttNs = rttNs == 0 ? sampleNs : rttNs + (sampleNs - rttNs) / 8;
        }
    }

    private final Map<Integer, Peer> peers = new HashMap<>();
    private final Map<Integer, Integer> channelsByPeer = new HashMap<>();
    private final int defaultChannels;

    PeerChannels(final int defaultChannels)
    {
        this.defaultChannels = defaultChannels;
    }

    boolean contains(final int nodeId)
    {
        return peers.containsKey(nodeId);
    }

    Peer get(final int nodeId)
    {
        return peers.get(nodeId);
    }

    /** Whether this is the peer connected now (not an earlier session of its node). */
    boolean isConnected(final Peer peer)
    {
        return peers.get(peer.nodeId) == peer;
    }

    /** A session came up: the peer with its channels (the count set for it, or the default), all open. */
    Peer add(final int nodeId, final AtomicLong gauge)
    {
        final Peer peer = new Peer(nodeId, channelsByPeer.getOrDefault(nodeId, defaultChannels), gauge);
        peers.put(nodeId, peer);
        return peer;
    }

    Peer remove(final int nodeId)
    {
        return peers.remove(nodeId);
    }

    /**
     * Sets a peer's channel count, now and for its later sessions; a closed channel beyond a smaller count is retired
     * when it opens.
     *
     * @return whether channels opened (the peer is connected and has more now).
     */
    boolean setChannels(final int nodeId, final int count)
    {
        channelsByPeer.put(nodeId, count);
        final Peer peer = peers.get(nodeId);
        if (peer == null)
        {
            return false;
        }
        if (count > peer.busy.length)
        {
            peer.busy = Arrays.copyOf(peer.busy, count);
        }
        final boolean grew = count > peer.channels;
        peer.channels = count;
        return grew;
    }

    boolean isOpen(final Channel channel)
    {
        final Peer peer = peers.get(channel.nodeId());
        return peer != null && peer.isOpen(channel.index());
    }

    /** Every open channel of every connected peer, least loaded peer first, then lowest round trip. */
    List<Channel> open()
    {
        final List<Peer> order = new ArrayList<>(peers.values());
        order.sort((a, b) ->
        {
            final long loadA = (long)a.inFlight * Math.max(1, b.channels);
            final long loadB = (long)b.inFlight * Math.max(1, a.channels);
            if (loadA != loadB)
            {
                return Long.compare(loadA, loadB);
            }
            return a.rttNs != b.rttNs ? Long.compare(a.rttNs, b.rttNs) : Integer.compare(a.nodeId, b.nodeId);
        });
        final List<Channel> open = new ArrayList<>();
        for (final Peer peer : order)
        {
            for (int i = 0; i < peer.channels; i++)
            {
                if (!peer.busy[i])
                {
                    open.add(new Channel(peer.nodeId, i));
                }
            }
        }
        return open;
    }
}
