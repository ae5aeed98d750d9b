package io.troupe.interconnect;

import io.troupe.actor.Envelope;
import io.troupe.memquota.HasMemoryCost;

/**
 * One encoded envelope frame waiting for a peer's publication. Encoded on the sending thread (user codecs
 * never run on the interconnect agent); the agent only copies bytes. The envelope is kept for tracked events
 * only, to report them {@code Undelivered} if the session dies.
 */
final class OutboundFrame implements HasMemoryCost
{
    /** Bytes an entry costs besides its frame: this object, the array header, the queue entry. */
    static final int OVERHEAD_BYTES = 64;

    final byte[] frame;
    final Envelope tracked;
    /** Hash of (sender, recipient): frames of one pair stay on one stream while an earlier bulk one is unacked. */
    final int pairHash;

    OutboundFrame(final byte[] frame, final Envelope tracked, final int pairHash)
    {
        this.frame = frame;
        this.tracked = tracked;
        this.pairHash = pairHash;
    }

    @Override
    public long memoryCost()
    {
        return frame.length + OVERHEAD_BYTES;
    }
}
