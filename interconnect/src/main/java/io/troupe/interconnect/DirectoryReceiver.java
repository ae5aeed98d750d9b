package io.troupe.interconnect;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;
import io.troupe.serialization.wire.DirectoryEntry;
import io.troupe.serialization.wire.DirectoryOp;
import io.troupe.serialization.wire.DirectoryUpdateFrame;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The receiving side of the service directory's channel: checks each verified {@code DirectoryUpdate} a peer sends
 * (a node announces only its own services and actors, in its own session) and hands what passes to the
 * {@link DirectoryListener}. Owned by the interconnect agent's thread; {@link DirectorySender} is the sending side.
 */
final class DirectoryReceiver
{
    private static final Logger LOG = LoggerFactory.getLogger(DirectoryReceiver.class);

    private final InterconnectAgent agent;
    /** Entries of directory updates naming another node's service or actor, or an unknown operation. */
    final AtomicLong directoryEntriesRefused = new AtomicLong();
    private boolean loggedListenerFailure;

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
        final DirectoryListener listener = agent.directoryListener;
        if (listener == null)
        {
            return; // no directory on this node
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
        try
        {
            listener.onDirectoryUpdate(new DirectoryUpdate(peer.nodeId, peer.incarnation(), frame.directoryVersion(),
                frame.snapshot(), entries));
        }
        catch (final RuntimeException ex)
        {
            if (!loggedListenerFailure)
            {
                loggedListenerFailure = true;
                LOG.warn("node {}: the directory listener failed on an update from node {} (further failures are not " +
                    "logged)", agent.nodeId, peer.nodeId, ex);
            }
        }
    }
}
