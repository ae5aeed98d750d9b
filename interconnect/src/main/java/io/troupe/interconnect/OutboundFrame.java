package io.troupe.interconnect;

import io.troupe.actor.Envelope;
import io.troupe.actor.flow.Chargeable;
import io.troupe.memquota.HasMemoryCost;

/**
 * One encoded envelope frame waiting for a peer's publication. Encoded on the sending thread (user codecs
 * never run on the interconnect agent); the agent only copies bytes. The envelope is kept for tracked events
 * only, to report them {@code Undelivered} if the session dies. The credit account the event is charged to
 * stays charged while the frame waits: the agent hands the cost on when the frame is written (see
 * {@link RemoteCredit#onHandOff}), or repays it if the frame is dropped.
 */
final class OutboundFrame implements HasMemoryCost
{
    /** Bytes an entry costs besides its frame: this object, the array header, the queue entry. */
    static final int OVERHEAD_BYTES = 64;

    final byte[] frame;
    final Envelope tracked;
    /** Hash of (sender, recipient): frames of one pair stay on one stream while an earlier bulk one is unacked. */
    final int pairHash;
    /** The account the event is charged to, or null. */
    final Chargeable account;
    final int cost;

    OutboundFrame(final byte[] frame, final Envelope tracked, final int pairHash, final Chargeable account, final int cost)
    {
        this.frame = frame;
        this.tracked = tracked;
        this.pairHash = pairHash;
        this.account = account;
        this.cost = cost;
    }

    /** The frame will never be written: its cost goes back to its account. */
    void repay()
    {
        if (account != null)
        {
            account.repay(cost);
        }
    }

    @Override
    public long memoryCost()
    {
        return frame.length + OVERHEAD_BYTES;
    }
}
