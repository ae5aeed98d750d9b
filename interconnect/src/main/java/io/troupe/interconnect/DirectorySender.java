package io.troupe.interconnect;

import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.serialization.wire.DirectoryEntry;
import io.troupe.serialization.wire.WireFormat;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sends the directory updates the service directory hands the interconnect ({@link Interconnect#sendDirectoryUpdate})
 * to one peer on its control stream, sealed, in order, split into frames that fit a control message: the parts of
 * one snapshot share its version and all say snapshot. A frame the control publication pushes back is tried again
 * on the next duty cycle. An update for a peer without a session is dropped (the directory sends a whole snapshot
 * when the next session starts); a peer that lets {@link #MAX_PENDING} updates pile up has its session ended, so
 * that it never goes on with a view that silently lacks some. Owned by the interconnect agent.
 */
final class DirectorySender
{
    /** Updates that may wait for one peer. */
    static final int MAX_PENDING = 4096;

    /** One update on its way, as far as it went. */
    static final class Job
    {
        final long version;
        final boolean snapshot;
        final List<DirectoryEntry> entries;
        int next;

        Job(final long version, final boolean snapshot, final List<DirectoryEntry> entries)
        {
            this.version = version;
            this.snapshot = snapshot;
            this.entries = entries;
        }
    }

    private final InterconnectAgent agent;
    private final int entriesPerFrame;
    final AtomicLong updatesDropped = new AtomicLong();

    DirectorySender(final InterconnectAgent agent, final int controlMessageLimit)
    {
        this.agent = agent;
        final int room = controlMessageLimit - FrameSeal.OVERHEAD - WireFormat.DIRECTORY_UPDATE_EMPTY_LENGTH;
        this.entriesPerFrame = Math.max(1,
            Math.min(WireFormat.MAX_GROUP_ENTRIES, room / WireFormat.DIRECTORY_ENTRY_LENGTH));
    }

    /** Queues an update for a peer; dropped (and counted) if no session is up. */
    void queue(final Peer peer, final long version, final boolean snapshot, final List<DirectoryEntry> entries)
    {
        if (!peer.isUp())
        {
            updatesDropped.incrementAndGet();
            return;
        }
        if (peer.directoryJobs.size() >= MAX_PENDING)
        {
            updatesDropped.addAndGet(peer.directoryJobs.size() + 1);
            peer.directoryJobs.clear();
            agent.lifecycle.streamDamaged(peer, MAX_PENDING + " directory updates waited for its control stream");
            return;
        }
        peer.directoryJobs.add(new Job(version, snapshot, entries));
    }

    /** Sends what waits for an established peer, as far as its control publication takes it. */
    int drain(final Peer peer)
    {
        int work = 0;
        Job job;
        while ((job = peer.directoryJobs.peek()) != null)
        {
            final int end = Math.min(job.entries.size(), job.next + entriesPerFrame);
            final int length = agent.encoder.encodeDirectoryUpdate(agent.scratch, 0, agent.nodeId, agent.incarnation,
                job.version, job.snapshot, job.entries.subList(job.next, end));
            if (peer.offerSealed(FrameSeal.CONTROL, peer.control, agent.scratch, 0, length, agent.sealBuffer) <= 0)
            {
                return work; // pushed back: the rest on a later cycle, in order
            }
            work++;
            job.next = end;
            if (job.next >= job.entries.size())
            {
                peer.directoryJobs.poll();
            }
        }
        return work;
    }

    /** The session with the peer ended: what waited goes (the next session starts with a snapshot). */
    void onSessionLost(final Peer peer)
    {
        updatesDropped.addAndGet(peer.directoryJobs.size());
        peer.directoryJobs.clear();
    }
}
