package io.troupe.interconnect;

import io.troupe.actor.Envelope;
import io.troupe.actor.Chargeable;
import io.troupe.memquota.QueuedElement;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One encoded envelope frame on its way to a peer, with what the interconnect needs once it is written or
 * dropped. Frames are pooled ({@link OutboundFramePool}): a sender fills one, the agent hands it back once its
 * bytes are copied into a datagram or it is dropped, so the steady-state remote send allocates no frame and no
 * byte array. A frame belongs to one thread at a time (the sender, the queue, then the agent). It carries its
 * own queue link and enqueue stamp, so queuing it allocates nothing either.
 */
final class OutboundFrame implements QueuedElement
{
    /** Nominal bookkeeping cost of a queued frame, on top of its bytes. */
    static final int OVERHEAD_BYTES = 64;

    private static final byte[] NO_BYTES = new byte[0];
    private static final VarHandle NEXT;

    static
    {
        try
        {
            NEXT = MethodHandles.lookup().findVarHandle(OutboundFrame.class, "next", OutboundFrame.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** The encoded frame is {@code bytes[0, length)}; the array may be longer (it is reused). */
    byte[] bytes = NO_BYTES;
    int length;
    Envelope tracked;
    int pairHash;
    Chargeable account;
    int cost;
    private long enqueuedNs;
    /** The next frame in its {@link OutboundQueue}. */
    @SuppressWarnings("unused") // accessed through NEXT
    private volatile OutboundFrame next;

    /**
     * Makes room for a frame of {@code frameLength} bytes and wraps {@code buffer} around exactly them.
     *
     * @param frameLength the encoded length.
     * @param buffer      the encoder's buffer, re-wrapped.
     */
    void wrapForEncoding(final int frameLength, final UnsafeBuffer buffer)
    {
        if (bytes.length < frameLength)
        {
            bytes = new byte[frameLength];
        }
        length = frameLength;
        buffer.wrap(bytes, 0, frameLength);
    }

    /**
     * Sets what the frame answers for.
     *
     * @param trackedEnvelope the envelope if it is tracked, else null.
     * @param pairKey         the (sender, recipient) hash that keeps a pair's frames in order.
     * @param chargedTo       the account the envelope is charged to, or null.
     * @param charge          its cost.
     * @return this frame.
     */
    OutboundFrame describe(final Envelope trackedEnvelope, final int pairKey, final Chargeable chargedTo,
        final int charge)
    {
        this.tracked = trackedEnvelope;
        this.pairHash = pairKey;
        this.account = chargedTo;
        this.cost = charge;
        return this;
    }

    /** Sets the link to the next frame: null before the frame is queued, the successor once it is linked. */
    void linkNext(final OutboundFrame successor)
    {
        NEXT.setRelease(this, successor);
    }

    /** The next frame in the queue, as its sender published it; null if none yet. */
    OutboundFrame next()
    {
        return (OutboundFrame)NEXT.getAcquire(this);
    }

    void repay()
    {
        if (account != null)
        {
            account.repay(cost);
        }
    }

    /** Forgets what the frame answered for, before it goes back to the pool. */
    void clear()
    {
        tracked = null;
        account = null;
        cost = 0;
        length = 0;
    }

    @Override
    public void enqueuedAt(final long nowNs)
    {
        enqueuedNs = nowNs;
    }

    @Override
    public long enqueuedNs()
    {
        return enqueuedNs;
    }

    @Override
    public long memoryCost()
    {
        return length + OVERHEAD_BYTES;
    }
}
