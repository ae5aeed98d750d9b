package io.troupe.interconnect;

import io.troupe.actor.ActorSystem;
import io.troupe.interconnect.seal.FrameSeal;
import org.agrona.collections.Int2ObjectHashMap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * This node's peers, and the one place they are added and removed: the interconnect agent's thread makes every
 * change (the configured peers are opened before it runs). The agent finds a peer by node id ({@link #byId}) and
 * by the Aeron session id of its publications ({@link #bySession}, kept by each peer's {@link PeerSession}).
 *
 * <p>Other threads: senders find a peer by node id in an immutable open-addressing table ({@link #find}) that the
 * agent replaces on every change, read with an opaque load (a plain load on x86 and ARM, which the JIT may not
 * hoist out of a loop): its arrays are final fields, so a thread that sees a table sees it whole, and one that
 * sees an old table a moment after a change sends as if the change had not happened yet (to a peer just added,
 * no session can be up; a peer just removed is no longer established, so the send is refused as to an unknown
 * node). Counters read {@link #all}, a copy-on-write array published through a volatile.
 */
final class PeerRoster implements PeerSession.Index
{
    private static final VarHandle TABLE;
    private static final Peer[] NONE = new Peer[0];

    static
    {
        try
        {
            TABLE = MethodHandles.lookup().findVarHandle(PeerRoster.class, "table", Table.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final InterconnectConfig config;
    private final ActorSystem system;
    private final PeerPublications publications;
    /** Read with {@link #TABLE} only: opaque by senders, release-written by the agent. */
    private Table table = Table.EMPTY;
    private volatile Peer[] all = NONE;
    private final Int2ObjectHashMap<Peer> byId = new Int2ObjectHashMap<>();
    /** Peer by the Aeron session id of its publications, once its handshake got that far. */
    private final Int2ObjectHashMap<Peer> bySession = new Int2ObjectHashMap<>();

    PeerRoster(final InterconnectConfig config, final ActorSystem system, final PeerPublications publications)
    {
        this.config = config;
        this.system = system;
        this.publications = publications;
    }

    /**
     * The peer of a node, for a sender on any thread: no lock, no allocation, no volatile read.
     *
     * @return the peer, or null if the node is not one.
     */
    Peer find(final int nodeId)
    {
        return ((Table)TABLE.getOpaque(this)).get(nodeId);
    }

    /** Every peer, on any thread (the agent's own changes are visible to it at once). */
    Peer[] all()
    {
        return all;
    }

    /** The peer of a node; the agent's thread. */
    Peer byId(final int nodeId)
    {
        return byId.get(nodeId);
    }

    /** The peer whose publications have this Aeron session id; the agent's thread. */
    Peer bySession(final int aeronSessionId)
    {
        return bySession.get(aeronSessionId);
    }

    @Override
    public void bind(final int aeronSessionId, final PeerSession session)
    {
        bySession.put(aeronSessionId, (Peer)session);
    }

    @Override
    public void unbind(final int aeronSessionId)
    {
        bySession.remove(aeronSessionId);
    }

    /**
     * Makes a peer: its publications (under {@code aeronSessionId}), its outbound queue on an account of its own,
     * its data-stream batch; and lists it. The agent's thread, or the constructor's before the agent runs.
     *
     * @throws IllegalStateException if the node is a peer already.
     */
    Peer open(final PeerAddress address, final int aeronSessionId)
    {
        if (byId.containsKey(address.nodeId()))
        {
            throw new IllegalStateException("node " + address.nodeId() + " is a peer already");
        }
        final Peer peer = new Peer(address, system.nodeId() < address.nodeId(), system.memoryQuota().newAccount(),
            new FailureDetector(config.heartbeatInterval().toNanos(), config.failureTimeout().toNanos()),
            new RetryBackoff(config.handshakeRetryMin().toNanos(), config.handshakeRetryMax().toNanos(),
                new SplittableRandom()), this);
        publications.open(peer, aeronSessionId);
        // a sealed batch fits one datagram
        peer.batch = new OutboundBatch(peer.data.maxPayloadLength() - FrameSeal.OVERHEAD, config.bulkThresholdBytes());
        peer.outbound = newOutboundQueue(peer);
        byId.put(peer.nodeId, peer);
        final Peer[] more = Arrays.copyOf(all, all.length + 1);
        more[all.length] = peer;
        publish(more);
        return peer;
    }

    /**
     * Unlists a removed peer and closes its publications (what they hold still goes out: the media driver drains a
     * closed publication). Its session and queue were ended before. The agent's thread.
     */
    void close(final Peer peer)
    {
        if (byId.get(peer.nodeId) != peer)
        {
            throw new IllegalStateException("node " + peer.nodeId + " is not a peer");
        }
        byId.remove(peer.nodeId);
        final Peer[] fewer = new Peer[all.length - 1];
        int at = 0;
        for (final Peer other : all)
        {
            if (other != peer)
            {
                fewer[at++] = other;
            }
        }
        publish(fewer);
        publications.close(peer);
    }

    /** A fresh outbound queue for a peer, on its account (at start, or after the memory quota reclaimed one). */
    OutboundQueue newOutboundQueue(final Peer peer)
    {
        return new OutboundQueue(peer.account, system.memoryQuota().clock(), config.outboundQueueCapacity());
    }

    private void publish(final Peer[] peers)
    {
        all = peers;
        TABLE.setRelease(this, Table.of(peers));
    }

    /** Peers by node id, immutable: open addressing with linear probing, at most half full. */
    private static final class Table
    {
        static final Table EMPTY = of(NONE);

        private final int[] ids;
        private final Peer[] peers;
        private final int mask;

        private Table(final int[] ids, final Peer[] peers)
        {
            this.ids = ids;
            this.peers = peers;
            this.mask = ids.length - 1;
        }

        static Table of(final Peer[] all)
        {
            int capacity = 2;
            while (capacity < 2 * all.length)
            {
                capacity <<= 1;
            }
            final int[] ids = new int[capacity];
            final Peer[] peers = new Peer[capacity];
            for (final Peer peer : all)
            {
                int slot = slot(peer.nodeId, capacity - 1);
                while (ids[slot] != 0)
                {
                    slot = (slot + 1) & (capacity - 1);
                }
                ids[slot] = peer.nodeId;
                peers[slot] = peer;
            }
            return new Table(ids, peers);
        }

        /** The peer of {@code nodeId}, or null; node id 0 is never a peer, so a 0 slot ends a probe. */
        Peer get(final int nodeId)
        {
            final int[] ids = this.ids;
            int slot = slot(nodeId, mask);
            int id;
            while ((id = ids[slot]) != 0)
            {
                if (id == nodeId)
                {
                    return peers[slot];
                }
                slot = (slot + 1) & mask;
            }
            return null;
        }

        private static int slot(final int nodeId, final int mask)
        {
            return nodeId & mask; // node ids are small and mostly consecutive: each its own slot
        }
    }
}
