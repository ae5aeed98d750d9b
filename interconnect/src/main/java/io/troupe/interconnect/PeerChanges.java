package io.troupe.interconnect;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * The API side of peers that change at run time ({@link Interconnect#addPeer}, {@link Interconnect#removePeer}):
 * checks a change on the caller's thread, so a wrong one throws there, and queues it for the agent
 * ({@link PeerMembership} applies it). It keeps the peers as the API has been told of them, changed only under its
 * lock together with the queueing of the change's command, so the agent applies changes in the order they were
 * accepted. That lock is taken only by these calls; the image guard learns of an added peer before its handshake
 * can start, and of a removed one once it is gone.
 */
final class PeerChanges
{
    private static final Logger LOG = LoggerFactory.getLogger(PeerChanges.class);

    private final InterconnectAgent agent;
    private final ImageGuard guard;
    private final int nodeId;
    /** Guarded by itself. */
    private final Map<Integer, PeerAddress> members = new HashMap<>();

    PeerChanges(final InterconnectAgent agent, final ImageGuard guard, final List<PeerAddress> configured)
    {
        this.agent = agent;
        this.guard = guard;
        this.nodeId = agent.nodeId;
        for (final PeerAddress address : configured)
        {
            members.put(address.nodeId(), address);
        }
    }

    /** See {@link Interconnect#addPeer}. */
    CompletableFuture<Void> add(final PeerAddress address, final BooleanSupplier closed)
    {
        InterconnectConfigChecks.checkPeer(address, nodeId);
        final CompletableFuture<Void> applied = new CompletableFuture<>();
        synchronized (members)
        {
            if (closed.getAsBoolean())
            {
                throw new IllegalStateException("the interconnect is closed");
            }
            if (members.containsKey(address.nodeId()))
            {
                throw new IllegalArgumentException("node " + address.nodeId() + " is a peer of node " + nodeId +
                    " already (" + members.get(address.nodeId()) + ")");
            }
            guard.addPeer(address); // before the handshake can start: its images are let in
            if (!agent.command(() -> apply(applied, () -> agent.membership.add(address))))
            {
                guard.removePeer(address);
                throw new IllegalStateException("the interconnect's command queue is full");
            }
            members.put(address.nodeId(), address);
        }
        return applied;
    }

    /** See {@link Interconnect#removePeer}. */
    CompletableFuture<Void> remove(final int peerNodeId, final BooleanSupplier closed)
    {
        final CompletableFuture<Void> applied = new CompletableFuture<>();
        synchronized (members)
        {
            if (closed.getAsBoolean())
            {
                throw new IllegalStateException("the interconnect is closed");
            }
            final PeerAddress address = members.get(peerNodeId);
            if (address == null)
            {
                throw new IllegalArgumentException("node " + peerNodeId + " is not a peer of node " + nodeId);
            }
            if (!agent.command(() -> apply(applied, () ->
            {
                agent.membership.remove(peerNodeId);
                guard.removePeer(address);
            })))
            {
                throw new IllegalStateException("the interconnect's command queue is full");
            }
            members.remove(peerNodeId);
        }
        return applied;
    }

    /** Runs a change on the agent's thread and completes its future: a failure is the caller's to see. */
    private void apply(final CompletableFuture<Void> applied, final Runnable change)
    {
        try
        {
            change.run();
            applied.complete(null);
        }
        catch (final RuntimeException ex)
        {
            LOG.warn("node {}: a change of peers failed", nodeId, ex);
            applied.completeExceptionally(ex);
        }
    }
}
