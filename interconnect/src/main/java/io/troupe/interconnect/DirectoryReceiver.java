package io.troupe.interconnect;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;
import io.troupe.serialization.wire.DirectoryEntry;
import io.troupe.serialization.wire.DirectoryOp;
import io.troupe.serialization.wire.DirectoryUpdateFrame;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntHashSet;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The receiving side of the service directory's channel: checks each verified {@code DirectoryUpdate} a peer sends
 * (a node announces only its own services and actors, in its own session) and hands what passes to the
 * {@link DirectoryListener}. Owned by the interconnect agent's thread; {@link DirectorySender} is the sending side.
 *
 * <p>A node's sessions come up as soon as its interconnect runs, and its service directory sets the listener a
 * moment later: a peer that was up first sends its snapshot at once, and it sends it only once per session. So what
 * arrives while no listener is set waits here, per peer and in order (at most {@link #MAX_WAITING} updates a peer,
 * for the current session only), and goes to the listener as soon as one is set. Past the bound the peer's updates
 * are dropped and counted; if a listener comes after all, that peer's session is ended, so that the next one starts
 * with a whole snapshot rather than a view that silently lacks some.
 */
final class DirectoryReceiver
{
    private static final Logger LOG = LoggerFactory.getLogger(DirectoryReceiver.class);

    private final InterconnectAgent agent;
    /** Entries of directory updates naming another node's service or actor, or an unknown operation. */
    final AtomicLong directoryEntriesRefused = new AtomicLong();
    /** Updates that may wait for a listener, per peer. */
    static final int MAX_WAITING = 4096;

    private boolean loggedListenerFailure;
    /** Per peer node id: updates of its current session that arrived before a listener was set, in order. */
    private final Int2ObjectHashMap<ArrayDeque<DirectoryUpdate>> waiting = new Int2ObjectHashMap<>();
    /** Peers whose updates overflowed {@link #waiting} in their current session. */
    private final IntHashSet overflowed = new IntHashSet();
    /** Updates that waited for a listener (any thread may read it). */
    final AtomicLong held = new AtomicLong();

    DirectoryReceiver(final InterconnectAgent agent)
    {
        this.agent = agent;
    }

    /** A verified directory update from an established peer. */
    void onUpdate(final Peer peer, final DirectoryUpdateFrame frame)
    {
        if (frame.nodeId() != peer.nodeId || frame.incarnation() != peer.incarnation())
        {
            peer.rejectedFrames++;
            agent.reject(FrameRejection.MALFORMED); // a node announces its own directory, in its own session
            return;
        }
        final int count = frame.count();
        final List<DirectoryEntry> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            final ActorId service = frame.service(i);
            final ActorId actor = frame.actor(i);
            final DirectoryOp op = frame.op(i);
            if (!(service instanceof ServiceId name) || service.nodeId() != peer.nodeId || actor.isService() ||
                actor.nodeId() != peer.nodeId || op == DirectoryOp.UNKNOWN)
            {
                directoryEntriesRefused.incrementAndGet();
                continue;
            }
            entries.add(new DirectoryEntry(name, actor, op));
        }
        final DirectoryUpdate update = new DirectoryUpdate(peer.nodeId, peer.incarnation(), frame.directoryVersion(),
            frame.snapshot(), entries);
        final DirectoryListener listener = agent.directoryListener;
        if (listener == null)
        {
            hold(peer, update);
            return;
        }
        handOver(listener);
        call(listener, update);
    }

    /**
     * A listener was set: what waited for one goes to it, in order, and a peer whose updates were dropped meanwhile
     * has its session ended (the next one starts with a snapshot). The agent's thread.
     *
     * @return the updates handed over.
     */
    int listenerSet()
    {
        final DirectoryListener listener = agent.directoryListener;
        return listener == null ? 0 : handOver(listener);
    }

    /** The session with a peer ended: what it sent and was not heard yet is stale (the next session resends). */
    void onSessionLost(final Peer peer)
    {
        waiting.remove(peer.nodeId);
        overflowed.remove(peer.nodeId);
    }

    private void hold(final Peer peer, final DirectoryUpdate update)
    {
        if (overflowed.contains(peer.nodeId))
        {
            agent.directory.updatesDropped.incrementAndGet();
            return;
        }
        final ArrayDeque<DirectoryUpdate> queue = waiting.computeIfAbsent(peer.nodeId, id -> new ArrayDeque<>());
        if (queue.size() >= MAX_WAITING)
        {
            agent.directory.updatesDropped.addAndGet(queue.size() + 1L);
            waiting.remove(peer.nodeId);
            overflowed.add(peer.nodeId);
            return;
        }
        queue.add(update);
        held.incrementAndGet();
    }

    private int handOver(final DirectoryListener listener)
    {
        int handed = 0;
        if (!waiting.isEmpty())
        {
            for (final ArrayDeque<DirectoryUpdate> queue : waiting.values())
            {
                DirectoryUpdate update;
                while ((update = queue.poll()) != null)
                {
                    call(listener, update);
                    handed++;
                }
            }
            waiting.clear();
        }
        if (!overflowed.isEmpty())
        {
            final IntHashSet.IntIterator nodes = overflowed.iterator();
            while (nodes.hasNext())
            {
                final Peer peer = agent.roster.byId(nodes.nextValue());
                if (peer != null && peer.isUp())
                {
                    agent.lifecycle.streamDamaged(peer, "more than " + MAX_WAITING + " of its directory updates " +
                        "came before this node's directory was ready");
                }
            }
            overflowed.clear();
        }
        return handed;
    }

    private void call(final DirectoryListener listener, final DirectoryUpdate update)
    {
        try
        {
            listener.onDirectoryUpdate(update);
        }
        catch (final RuntimeException ex)
        {
            if (!loggedListenerFailure)
            {
                loggedListenerFailure = true;
                LOG.warn("node {}: the directory listener failed on an update from node {} (further failures are not " +
                    "logged)", agent.nodeId, update.nodeId(), ex);
            }
        }
    }
}
