package io.troupe.actor;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This node's shadow of another node's credit account: charges (events charged to the account that arrive
 * here, and the fan-out they cause) and repayments (events handled here, or sent on to another node) made on
 * this node accumulate as a net delta, which the transport flushes to the owner in batches. Once the pending
 * charges reach the flush bound the shadow asks for a flush at once (the owner understates the debt until then);
 * once pending repayments do, for a flush soon (the owner overstates it, which only holds the source back; see
 * {@link FlowControl#isRepaymentFlushRequested}). Thread-safe.
 *
 * <p>A shadow with a pending delta is queued for the next flush (once, however many changes it sees), so a
 * flush visits only the shadows that changed. A shadow idle for a while is forgotten by its node (see
 * {@link FlowControl#sweepIdleShadows}); one that changes after that, because an event still charged to it is
 * handled, is queued and flushed all the same, so no delta is lost.
 */
public final class ShadowAccount implements Chargeable
{
    private final FlowControl flow;
    private final int ownerNode;
    private final long accountId;
    private final AtomicLong pending = new AtomicLong();
    private final AtomicBoolean queued = new AtomicBoolean();
    /** Set when the owner is lost: what accumulates from then on is dropped at the next flush. */
    private volatile boolean dropped;
    /** The sweep during which it last had a delta to flush; the flushing thread's only. */
    long activeInSweep;

    ShadowAccount(final FlowControl flow, final int ownerNode, final long accountId)
    {
        this.flow = flow;
        this.ownerNode = ownerNode;
        this.accountId = accountId;
    }

    @Override
    public int ownerNode()
    {
        return ownerNode;
    }

    @Override
    public long accountId()
    {
        return accountId;
    }

    @Override
    public void charge(final long cost)
    {
        add(cost);
    }

    @Override
    public void repay(final long cost)
    {
        add(-cost);
    }

    /**
     * The net delta not yet flushed to the owner.
     *
     * @return charges minus repayments since the last flush.
     */
    public long pending()
    {
        return pending.get();
    }

    /**
     * Puts back a delta that a flush took but could not send; it goes with the next flush.
     *
     * @param delta the delta.
     */
    public void restore(final long delta)
    {
        add(delta);
    }

    /**
     * Takes the pending delta for a flush; the flushing thread only. The shadow leaves the flush queue first, so
     * a change that races with the flush queues it again rather than being missed.
     *
     * @return the delta, now 0 here.
     */
    long drain()
    {
        queued.set(false);
        return pending.getAndSet(0);
    }

    boolean isQueued()
    {
        return queued.get();
    }

    boolean isDropped()
    {
        return dropped;
    }

    void markDropped()
    {
        dropped = true;
    }

    private void add(final long delta)
    {
        final long now = pending.addAndGet(delta);
        if (!queued.get() && queued.compareAndSet(false, true))
        {
            flow.queueForFlush(this);
        }
        if (now >= flow.flushBound())
        {
            flow.requestFlush(); // the owner understates the debt: report it at once
        }
        else if (-now >= flow.flushBound())
        {
            flow.requestRepaymentFlush(); // the owner overstates it: report soon, with what else is repaid meanwhile
        }
    }

    @Override
    public String toString()
    {
        return "ShadowAccount{" + ownerNode + ":" + Long.toHexString(accountId) + ", pending=" + pending.get() + '}';
    }
}
