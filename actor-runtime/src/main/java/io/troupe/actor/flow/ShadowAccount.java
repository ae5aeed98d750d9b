package io.troupe.actor.flow;

import java.util.concurrent.atomic.AtomicLong;

/**
 * This node's shadow of another node's credit account: charges (events charged to the account that arrive
 * here, and the fan-out they cause) and repayments (events handled here, or sent on to another node) made on
 * this node accumulate as a net delta, which the transport flushes to the owner in batches. Once the pending
 * delta reaches the flush bound in either direction the shadow asks for a flush at once. Thread-safe.
 */
public final class ShadowAccount implements Chargeable
{
    private final FlowControl flow;
    private final int ownerNode;
    private final long accountId;
    private final AtomicLong pending = new AtomicLong();

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
     * Takes the pending delta for a flush.
     *
     * @return the delta, now 0 here.
     */
    long drain()
    {
        return pending.getAndSet(0);
    }

    /**
     * Puts back a delta a flush could not send.
     *
     * @param delta the delta.
     */
    void restore(final long delta)
    {
        pending.addAndGet(delta);
    }

    private void add(final long delta)
    {
        final long now = pending.addAndGet(delta);
        if (now >= flow.flushBound() || -now >= flow.flushBound())
        {
            flow.requestFlush();
        }
    }

    @Override
    public String toString()
    {
        return "ShadowAccount{" + ownerNode + ":" + Long.toHexString(accountId) + ", pending=" + pending.get() + '}';
    }
}
