package io.troupe.actor;


import java.util.ArrayList;
import java.util.List;
import java.lang.invoke.VarHandle;

/** 128 bytes ahead of the fields every charge and repayment reads. */
abstract class AccountPadLeft
{
    long p00;
    long p01;
    long p02;
    long p03;
    long p04;
    long p05;
    long p06;
    long p07;
    long p08;
    long p09;
    long p10;
    long p11;
    long p12;
    long p13;
    long p14;
    long p15;
}

/** What every charge and repayment reads; written rarely (threshold changes, a waiter registering). */
abstract class AccountHotFields extends AccountPadLeft
{
    /** Charges minus repayments minus write-offs, striped by thread. */
    final StripedDebt debt = new StripedDebt();
    volatile long threshold;
    /** Set while some actor waits for {@link FundsCleared}; read by every repayment. */
    volatile boolean hasWaiters;
}

/** 128 bytes behind them, so that no field another thread writes can share their cache line. */
abstract class AccountPadRight extends AccountHotFields
{
    long q00;
    long q01;
    long q02;
    long q03;
    long q04;
    long q05;
    long q06;
    long q07;
    long q08;
    long q09;
    long q10;
    long q11;
    long q12;
    long q13;
    long q14;
    long q15;
}

/**
 * A credit account of this node: how much outstanding work, system-wide, one activity (an external source: a
 * client session, a socket, an Aeron image) has caused. Every envelope charged to it adds its cost to the debt
 * until the envelope is handled; an ingress actor stops reading its source while the debt is at or above the
 * threshold (see {@link #ensureClearFunds}). Thread-safe.
 *
 * <p>The debt is striped by thread ({@link StripedDebt}): an account many threads charge at once (the node's
 * account, fed by every send from outside a handler) gives each thread a cell of its own, padded apart, so a
 * charge is a plain store with no atomic instruction and no cache line shared with another sender. Reading the
 * debt sums the cells, which {@link #debt}, {@link #ensureClearFunds} and a repayment while someone waits do.
 * A repayment adds to the repaying thread's cell and then fences, so that it and a waiter registering at the
 * same time cannot miss each other. Workers repay in batches, once per activation per account, so the debt may
 * overstate what is outstanding by the cost of the events a worker has handled in its current activation (at
 * most {@code eventsPerActivation} events).
 *
 * <p>Opened by {@link FlowControl#openAccount}; {@link #close} when the source is gone (events still charged
 * to it repay it as usual).
 */
public final class CreditAccount extends AccountPadRight implements Chargeable
{    private final FlowControl flow;
    private final long id;
    private final int ownerNode;
    /** Guarded by this. */
    private final List<ActorId> waiters = new ArrayList<>(1);
    private volatile boolean closed;
    private long waits;
    private long clearedNotices;
    private long writtenOff;

    CreditAccount(final FlowControl flow, final long id, final int ownerNode, final long threshold)
    {
        this.flow = flow;
        this.id = id;
        this.ownerNode = ownerNode;
        this.threshold = FlowControlConfig.checkThreshold(threshold);
    }

    @Override
    public int ownerNode()
    {
        return ownerNode;
    }

    @Override
    public long accountId()
    {
        return id;
    }

    /**
     * The outstanding cost of the work this account's source has caused: charges minus repayments minus
     * write-offs. Events repaid before their charge was counted (another node's, whose report lags) may make it
     * briefly negative.
     *
     * @return the debt.
     */
    public long debt()
    {
        return debt.sum();
    }

    /**
     * The debt at or above which the account is in debt.
     *
     * @return the threshold, 1 or more.
     */
    public long threshold()
    {
        return threshold;
    }

    /**
     * Changes the threshold; waiters are told at once if the debt is now below it.
     *
     * @param threshold 1 or more.
     * @throws IllegalArgumentException if less than 1.
     */
    public void threshold(final long threshold)
    {
        this.threshold = FlowControlConfig.checkThreshold(threshold);
        if (hasWaiters && debt() < threshold)
        {
            notifyWaiters();
        }
    }

    /**
     * Whether the debt is below the threshold.
     *
     * @return true if clear.
     */
    public boolean isClear()
    {
        return debt() < threshold;
    }

    /**
     * Non-blocking check before an ingress reads its source: true at once if the debt is below the threshold;
     * otherwise false, and the waiter receives one {@link FundsCleared} event as soon as the debt falls below
     * the threshold again (at once if it already has). A waiter that asks again before that is registered once.
     *
     * <p>The debt read here is a sum of per-thread cells, not a snapshot: while three or more threads charge and
     * repay, one read may see a total the debt never had (one thread's charge counted, another's earlier
     * repayment not yet), so an answer near the threshold may go either way. No wake-up is lost for it: a waiter
     * told "in debt" gets its {@link FundsCleared} once a read sees the debt below the threshold
     * ({@code CreditAccountLincheckTest} checks both).
     *
     * @param waiter the actor to tell.
     * @return true if the source may be read now.
     */
    public boolean ensureClearFunds(final ActorId waiter)
    {
        if (debt() < threshold)
        {
            return true;
        }
        synchronized (this)
        {
            waits++;
            if (!waiters.contains(waiter))
            {
                waiters.add(waiter);
            }
            hasWaiters = true;
        }
        // a repayment between the first check and hasWaiters may have missed us: look again. Dekker-safe with
        // repay(): it adds to its cell and fences before reading hasWaiters, and we write hasWaiters (volatile)
        // before summing the cells (volatile reads), so one of the two sees the other.
        if (debt() < threshold)
        {
            notifyWaiters();
        }
        return false;
    }

    @Override
    public void charge(final long cost)
    {
        debt.add(cost);
    }

    @Override
    public void repay(final long cost)
    {
        debt.add(-cost);
        // Dekker with ensureClearFunds: our add must be visible before we read hasWaiters, as its write of
        // hasWaiters is before it sums the cells
        VarHandle.fullFence();
        if (hasWaiters && debt() < threshold)
        {
            notifyWaiters();
        }
    }

    /**
     * Forgets debt that can never be repaid (it was held by a node that disconnected), and counts it.
     *
     * @param amount the debt to forget.
     */
    public void writeOff(final long amount)
    {
        synchronized (this)
        {
            writtenOff += amount;
        }
        flow.onWrittenOff(amount);
        repay(amount);
    }

    /**
     * Times {@link #ensureClearFunds} found the account in debt.
     *
     * @return the count.
     */
    public synchronized long waits()
    {
        return waits;
    }

    /**
     * {@link FundsCleared} events sent.
     *
     * @return the count.
     */
    public synchronized long clearedNotices()
    {
        return clearedNotices;
    }

    /**
     * Debt written off because the node holding it disconnected.
     *
     * @return the total.
     */
    public synchronized long writtenOff()
    {
        return writtenOff;
    }

    /** Stops this account being found by id (by other nodes' repayments); events charged to it still repay it. */
    public void close()
    {
        closed = true;
        flow.onClosed(this);
    }

    /**
     * Whether {@link #close} was called.
     *
     * @return true if closed.
     */
    public boolean isClosed()
    {
        return closed;
    }

    private void notifyWaiters()
    {
        final ActorId[] toTell;
        final long now;
        synchronized (this)
        {
            now = debt();
            if (waiters.isEmpty() || now >= threshold)
            {
                return;
            }
            toTell = waiters.toArray(new ActorId[0]);
            waiters.clear();
            hasWaiters = false;
            clearedNotices += toTell.length;
        }
        for (final ActorId waiter : toTell)
        {
            flow.notifyCleared(waiter, new FundsCleared(id, now));
        }
    }

    @Override
    public String toString()
    {
        return "CreditAccount{" + ownerNode + ":" + Long.toHexString(id) + ", debt=" + debt() + ", threshold=" +
            threshold + (closed ? ", closed" : "") + '}';
    }
}
