package io.troupe.interconnect;

import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.actor.Envelope;
import io.troupe.actor.UndeliveredReason;
import io.troupe.memquota.CollapsedException;
import io.troupe.serialization.wire.FrameEncoder;
import io.aeron.Publication;
import io.troupe.serialization.wire.WireFormat;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.function.Consumer;

/**
 * The agent's sending side: moves each peer's queued frames onto its data and bulk publications, packed into
 * datagram-sized batches, large frames chunked, back-pressure kept as state for the next duty cycle. Owned by
 * the interconnect agent's thread, as is every peer field it touches; split out of {@link InterconnectAgent}
 * so that the agent's duty cycle and session handling read apart from the send path.
 */
final class OutboundSender
{
    private static final int DRAIN_LIMIT = 256;

    private final InterconnectAgent agent;
    private final InterconnectConfig config;
    private final OutboundFramePool frames;
    private final RemoteCredit credit;
    private final FrameEncoder encoder;
    private final UnsafeBuffer scratch;
    private final UnsafeBuffer sendBuffer = new UnsafeBuffer(new byte[0]);
    /** Largest message one offer may carry on the bulk stream; larger frames go as chunks. */
    private final int bulkMessageLimit;
    /** Bytes the bulk lane of a peer may hold (one frame is always let in). */
    private final long bulkLaneLimitBytes;
    /** What a collapsed queue's frames go through. */
    private final Consumer<OutboundFrame> dropCollapsed = this::onCollapsedFrame;

    OutboundSender(final InterconnectAgent agent)
    {
        this.agent = agent;
        this.config = agent.config;
        this.frames = agent.frames;
        this.credit = agent.credit;
        this.encoder = agent.encoder;
        this.scratch = agent.scratch;
        this.bulkMessageLimit = agent.bulkMessageLimit;
        this.bulkLaneLimitBytes = 2L * config.bulkTermLength();
    }


    /**
     * Drains a peer's outbound queue: frames for the data stream are packed, in queue order, into messages of
     * up to one datagram ({@link OutboundBatch}); frames for the bulk stream move to the peer's bulk lane and go
     * out as the bulk publication allows, so a large event being pushed back does not hold up small events of
     * other pairs. A pair with a frame in the lane, or one on the bulk stream not yet acknowledged, keeps to
     * the bulk stream: FIFO per pair.
     */
    int drain(final Peer peer)
    {
        int sent = drainBulkLane(peer);
        if (!offerBatch(peer))
        {
            return sent; // the window is closed: what is queued waits behind the batch
        }
        final OutboundBatch batch = peer.batch;
        final OutboundQueue queue = peer.outbound;
        while (sent < DRAIN_LIMIT)
        {
            OutboundFrame frame = peer.pending;
            if (frame == null)
            {
                try
                {
                    frame = queue.receive();
                }
                catch (final CollapsedException ex)
                {
                    replaceCollapsedQueue(peer, queue);
                    break;
                }
                if (frame == null)
                {
                    break;
                }
            }
            final int bucket = frame.pairHash & (Peer.PAIR_BUCKETS - 1);
            if (frame.length > config.bulkThresholdBytes() || peer.bulkLaneCount[bucket] > 0 ||
                peer.bulkUntil[bucket] > peer.bulkAcked)
            {
                if (peer.bulkLaneBytes > 0 && peer.bulkLaneBytes + frame.length > bulkLaneLimitBytes)
                {
                    peer.pending = frame; // the lane is full: wait for it (and keep what follows in order)
                    break;
                }
                peer.pending = null;
                peer.bulkLane.addLast(frame);
                peer.bulkLaneCount[bucket]++;
                peer.bulkLaneBytes += frame.length;
                continue;
            }
            if (!batch.accepts(frame) && !offerBatch(peer))
            {
                peer.pending = frame;
                break;
            }
            peer.pending = null;
            batch.add(frame, bucket);
            frames.release(frame); // its bytes, account and tracked envelope are in the batch now
            peer.dataUntil[bucket] = Long.MAX_VALUE; // not on the wire yet: the pair's bulk frames wait
            sent++;
        }
        queue.releaseTaken(); // the taken frames' bytes, in one release per drain
        offerBatch(peer);
        sent += drainBulkLane(peer);
        peer.bulkLaneSize = peer.bulkLane.size();
        return sent;
    }

    /** Offers the peer's batch, if it holds anything; false if it was pushed back (and is kept). */
    private boolean offerBatch(final Peer peer)
    {
        final OutboundBatch batch = peer.batch;
        if (batch.isEmpty())
        {
            return true;
        }
        final long position = peer.offerSealed(FrameSeal.DATA, peer.data, batch.buffer(), 0, batch.length(),
            agent.sealBuffer);
        if (position < 0)
        {
            countPushBack(peer, position);
            return false;
        }
        peer.dataSent = position;
        for (int i = 0; i < batch.frames(); i++)
        {
            peer.dataUntil[batch.bucket(i)] = position;
        }
        for (final Envelope tracked : batch.tracked())
        {
            peer.dataInFlight.add(position, tracked);
        }
        for (int i = 0; i < batch.chargedCount(); i++)
        {
            credit.onHandOff(peer.nodeId, batch.chargedAccount(i), batch.chargedCost(i));
        }
        peer.eventsOut += batch.frames();
        peer.bytesOut += batch.frameBytes();
        batch.clear();
        return true;
    }

    private int drainBulkLane(final Peer peer)
    {
        int sent = 0;
        OutboundFrame frame;
        while (sent < DRAIN_LIMIT && (frame = peer.bulkLane.peekFirst()) != null)
        {
            final int bucket = frame.pairHash & (Peer.PAIR_BUCKETS - 1);
            if (peer.chunkOffset == 0 && peer.dataUntil[bucket] > peer.dataAcked)
            {
                // the receiver polls the streams separately: wait until the pair's earlier data-stream
                // frames are acknowledged, or this one could be handled before them
                break;
            }
            final long position = frame.length > bulkMessageLimit ?
                offerChunks(peer, frame) : offer(peer, frame);
            if (position < 0)
            {
                countPushBack(peer, position);
                break;
            }
            peer.bulkLane.pollFirst();
            peer.bulkLaneCount[bucket]--;
            peer.bulkLaneBytes -= frame.length;
            peer.bulkUntil[bucket] = position;
            peer.bulkSent = position;
            if (frame.tracked != null)
            {
                peer.bulkInFlight.add(position, frame.tracked);
            }
            if (frame.account != null)
            {
                credit.onHandOff(peer.nodeId, frame.account, frame.cost);
            }
            peer.eventsOut++;
            peer.bytesOut += frame.length;
            frames.release(frame);
            sent++;
        }
        return sent;
    }

    private static void countPushBack(final Peer peer, final long position)
    {
        if (position == Publication.BACK_PRESSURED || position == Publication.ADMIN_ACTION)
        {
            peer.backPressured++;
        }
    }

    private long offer(final Peer peer, final OutboundFrame frame)
    {
        sendBuffer.wrap(frame.bytes, 0, frame.length);
        return peer.offerSealed(FrameSeal.BULK, peer.bulk, sendBuffer, 0, frame.length, agent.sealBuffer);
    }

    /**
     * Sends a frame too large for one message as chunks on the bulk stream, resuming where a push-back
     * stopped the previous attempt. Returns the position after the last chunk, or a negative offer result.
     */
    private long offerChunks(final Peer peer, final OutboundFrame frame)
    {
        final int sliceLength = bulkMessageLimit - WireFormat.CHUNK_OVERHEAD;
        sendBuffer.wrap(frame.bytes, 0, frame.length);
        long position = 0;
        while (peer.chunkOffset < frame.length)
        {
            final int length = Math.min(sliceLength, frame.length - peer.chunkOffset);
            final int chunkLength = encoder.encodeChunk(scratch, 0, frame.length, peer.chunkOffset, sendBuffer,
                peer.chunkOffset, length);
            position = peer.offerSealed(FrameSeal.BULK, peer.bulk, scratch, 0, chunkLength, agent.sealBuffer);
            if (position < 0)
            {
                return position; // the chunks so far are out; the rest follow on a later cycle, in order
            }
            peer.chunkOffset += length;
        }
        peer.chunkOffset = 0;
        return position;
    }

    void replaceCollapsedQueue(final Peer peer, final OutboundQueue collapsed)
    {
        // the memory quota reclaimed it: its frames become Undelivered(COLLAPSED), then a fresh queue opens on
        // the same account, once no sender can still be linking into the old one (else on a later cycle)
        if (collapsed.drainCollapsed(dropCollapsed) && peer.outbound == collapsed)
        {
            peer.outbound = agent.roster.newOutboundQueue(peer);
        }
    }

    private void onCollapsedFrame(final OutboundFrame frame)
    {
        if (frame.tracked != null)
        {
            agent.notices.undelivered(frame.tracked, UndeliveredReason.COLLAPSED, false);
        }
        frame.repay();
        frames.release(frame);
    }
}
