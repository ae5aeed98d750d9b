package io.troupe.interconnect;

import io.aeron.Publication;
import io.troupe.interconnect.seal.FrameSeal;
import io.aeron.ExclusivePublication;
import io.troupe.actor.ActorId;
import io.troupe.memquota.Account;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayDeque;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Everything the interconnect knows about one peer node. The session's state is its {@link PeerSession}'s (a
 * superclass rather than a field, so that a sender's read of {@link #isEstablished} stays one load on the peer
 * it found, as before); the rest is owned by the interconnect agent. Senders read only {@link #isEstablished}
 * and {@link #outbound}, and bump the sender-side counters.
 */
final class Peer extends PeerSession
{
    /** Buckets of the sticky-bulk table (a power of 2); a collision only sends more frames on the bulk stream. */
    static final int PAIR_BUCKETS = 4096;

    final PeerAddress address;
    final Account account;
    final FailureDetector detector;
    final RetryBackoff backoff;
    ExclusivePublication control;
    ExclusivePublication data;
    ExclusivePublication bulk;

    volatile OutboundQueue outbound;

    /** Verified HELLOs of this peer's id answered: at most a burst, then a steady rate. */
    final TokenBucket hellos = new TokenBucket(Sessions.HELLO_BURST, Sessions.HELLO_REFILL_NS);
    /** REFUSEs sent to this peer's address, separately: a flood of forged steps cannot use up the HELLO budget. */
    final TokenBucket refusalsSent = new TokenBucket(Sessions.HELLO_BURST, Sessions.HELLO_REFILL_NS);

    OutboundFrame pending;
    /** Data-stream frames packed for the next offer (see {@link OutboundBatch}); set when the publication is. */
    OutboundBatch batch;
    /** Frames for the bulk stream, in order, waiting for the bulk publication. */
    final ArrayDeque<OutboundFrame> bulkLane = new ArrayDeque<>();
    /** Per pair bucket: frames of the bucket in the bulk lane. */
    final int[] bulkLaneCount = new int[PAIR_BUCKETS];
    long bulkLaneBytes;
    /** How much of the bulk lane's first frame has gone out as chunks. */
    int chunkOffset;
    final InFlight dataInFlight = new InFlight();
    final InFlight bulkInFlight = new InFlight();
    /** Per pair bucket: the bulk-stream position the peer must have acked before the pair may use data again. */
    final long[] bulkUntil = new long[PAIR_BUCKETS];
    /** Per pair bucket: the data-stream position the peer must have acked before the pair may use bulk. */
    final long[] dataUntil = new long[PAIR_BUCKETS];
    long bulkAcked;
    long dataAcked;
    /** Stream positions after the last frame sent in this session, for a closing node to wait for their acks. */
    long bulkSent;
    long dataSent;
    long receivedDataPosition;
    long receivedBulkPosition;
    /** Tracked envelopes received and not yet handled here, per stream: acks stop short of the first. */
    final Receipts dataReceipts = new Receipts();
    final Receipts bulkReceipts = new Receipts();
    long ackedDataPositionSent;
    long ackedBulkPositionSent;
    long nextAckNs;
    /** The control stream's position after the goodbye, once said; read by the closer after the agent stopped. */
    long goodbyePosition;
    long heartbeatSequence;
    final Set<ActorId> subscribers = new LinkedHashSet<>();
    InboundChunks chunks;
    /** Where the peer's inbound data and bulk streams stood when last looked at (see {@link StreamStallWatch}). */
    final StreamStallWatch.State dataStall = new StreamStallWatch.State();
    final StreamStallWatch.State bulkStall = new StreamStallWatch.State();
    long nextStallCheckNs;
    /** Directory updates waiting for the control publication (see {@link DirectorySender}). */
    final ArrayDeque<DirectorySender.Job> directoryJobs = new ArrayDeque<>();
    /**
     * The peer's last heartbeat in this session, echoed in ours so it can measure the round trip: its
     * {@code sendTimeNs} (the peer's clock; 0: none yet) and when it arrived (our clock).
     */
    long peerHeartbeatSendTimeNs;
    long peerHeartbeatReceivedNs;
    /** Round trips measured from the peer's echoes of our heartbeats, in this session. */
    final RttEstimator rtt;

    // ---- counters: agent-written volatile fields, or atomics for the senders
    volatile int bulkLaneSize;
    volatile long eventsOut;
    volatile long bytesOut;
    volatile long eventsIn;
    volatile long bytesIn;
    volatile long backPressured;
    volatile long rejectedFrames;
    volatile long handshakesRefused;
    /** The last refusal either way since the last session came up ({@link PeerCounters#refusal}), or null. */
    volatile String refusal;
    volatile long lostUnsure;
    volatile long lostQueued;
    volatile long rttLastNs;
    volatile long rttSmoothedNs;
    volatile long rttMinNs;
    volatile int subscriberCount;
    final AtomicLong shed = new AtomicLong();
    final AtomicLong refusedDown = new AtomicLong();

    Peer(final PeerAddress address, final boolean initiator, final Account account, final FailureDetector detector,
        final RetryBackoff backoff, final PeerSession.Index index)
    {
        super(address.nodeId(), initiator, index);
        this.address = address;
        this.account = account;
        this.detector = detector;
        this.backoff = backoff;
        this.rtt = new RttEstimator(detector.timeoutNs());
    }

    /**
     * A heartbeat arrived from the peer: remember it for our next heartbeat's echo, and measure the round trip
     * if it echoes one of ours. On our clock: we sent the echoed heartbeat at {@code echoTimeNs}, the peer held
     * it {@code echoDelayNs} before its answer left, and the answer is here {@code nowNs}.
     *
     * @param sendTimeNs  the heartbeat's send time, on the peer's clock.
     * @param echoTimeNs  the send time of our heartbeat it echoes, 0 if none.
     * @param echoDelayNs how long the peer held our heartbeat, on its clock.
     * @param nowNs       our clock now.
     */
    void onHeartbeat(final long sendTimeNs, final long echoTimeNs, final long echoDelayNs, final long nowNs)
    {
        peerHeartbeatSendTimeNs = sendTimeNs;
        peerHeartbeatReceivedNs = nowNs;
        if (echoTimeNs != 0 && rtt.onSample(nowNs - echoTimeNs - echoDelayNs))
        {
            // written in the reverse of the order counters() reads them: a reader never sees min above the others
            rttMinNs = rtt.minNs();
            rttSmoothedNs = rtt.smoothedNs();
            rttLastNs = rtt.lastNs();
        }
    }

    /** The session ended: no echo of an earlier session's heartbeat, and round trips start afresh. */
    void resetRtt()
    {
        peerHeartbeatSendTimeNs = 0;
        peerHeartbeatReceivedNs = 0;
        rtt.reset();
        rttMinNs = 0;
        rttSmoothedNs = 0;
        rttLastNs = 0;
    }

    /**
     * Seals a message with the session's key and offers it; its sequence number is used only if it was taken.
     *
     * @return the offer's result: the new position, or a negative {@link io.aeron.Publication} code.
     */
    long offerSealed(
        final int stream,
        final ExclusivePublication publication,
        final DirectBuffer body,
        final int offset,
        final int length,
        final UnsafeBuffer sealBuffer)
    {
        final FrameSeal.Sealer sealer = sealer();
        if (sealer == null)
        {
            return Publication.NOT_CONNECTED;
        }
        final int sealed = sealer.seal(stream, publication.streamId(), body, offset, length, sealBuffer);
        final long position = publication.offer(sealBuffer, 0, sealed);
        if (position > 0)
        {
            sealer.sent(stream);
        }
        return position;
    }

    PeerCounters counters()
    {
        final OutboundQueue queue = outbound;
        final boolean established = isEstablished(); // first: what follows is at least as new
        return new PeerCounters(nodeId, established, incarnation(), eventsOut, bytesOut, eventsIn, bytesIn,
            backPressured, (queue == null ? 0 : queue.size()) + bulkLaneSize, sessionsUp(), sessionsDown(),
            rejectedFrames, handshakesRefused, shed.get(), refusedDown.get(), lostUnsure, lostQueued, rttLastNs,
            rttSmoothedNs, rttMinNs, subscriberCount, refusal);
    }
}
