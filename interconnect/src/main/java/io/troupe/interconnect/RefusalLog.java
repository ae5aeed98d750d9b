package io.troupe.interconnect;

import org.agrona.collections.Int2ObjectHashMap;

import java.util.Objects;

/**
 * Keeps a refused or failing handshake from flooding the log: remembers, per peer node id, the last reason
 * logged, so that a reason is logged once and again only when it changes. Counting every refusal is the
 * caller's job; this only decides what reaches the log.
 *
 * <p>Node ids come from the wire, so the number of peers remembered is bounded: once {@code maxPeers} are
 * remembered, the reasons of further peers are not logged (they are still counted by the caller) until a peer
 * is {@link #clear(int) cleared}.
 *
 * <p>Not thread safe: used from the interconnect agent's thread.
 */
final class RefusalLog
{
    /** Peers remembered by {@link #RefusalLog()}. */
    public static final int DEFAULT_MAX_PEERS = 1024;

    private final int maxPeers;
    private final Int2ObjectHashMap<String> lastReasonByNodeId = new Int2ObjectHashMap<>();

    /**
     * Creates a log that remembers up to {@value #DEFAULT_MAX_PEERS} peers.
     */
    public RefusalLog()
    {
        this(DEFAULT_MAX_PEERS);
    }

    /**
     * Creates a log that remembers up to {@code maxPeers} peers.
     *
     * @param maxPeers how many peers' reasons are remembered at most.
     * @throws IllegalArgumentException if {@code maxPeers} is not positive.
     */
    public RefusalLog(final int maxPeers)
    {
        if (maxPeers <= 0)
        {
            throw new IllegalArgumentException("maxPeers = " + maxPeers + " must be positive");
        }
        this.maxPeers = maxPeers;
    }

    /**
     * Whether to log a refusal; if so the reason is remembered as the last one logged for the peer.
     *
     * @param nodeId the peer's node id.
     * @param reason why the handshake was refused or failed.
     * @return true if the reason differs from the last one logged for this peer (or none was), and the peer is
     * remembered or there is room to remember it.
     * @throws NullPointerException if the reason is null.
     */
    public boolean shouldLog(final int nodeId, final String reason)
    {
        Objects.requireNonNull(reason, "reason");
        final String lastReason = lastReasonByNodeId.get(nodeId);
        if (reason.equals(lastReason) || (lastReason == null && lastReasonByNodeId.size() >= maxPeers))
        {
            return false;
        }

        lastReasonByNodeId.put(nodeId, reason);
        return true;
    }

    /**
     * Forgets the peer's last reason, e.g. when a session with it succeeds: its next refusal is logged.
     *
     * @param nodeId the peer's node id.
     */
    public void clear(final int nodeId)
    {
        lastReasonByNodeId.remove(nodeId);
    }

    /**
     * How many peers' reasons are remembered.
     *
     * @return the count, at most {@code maxPeers}.
     */
    public int size()
    {
        return lastReasonByNodeId.size();
    }
}
