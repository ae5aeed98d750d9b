package io.troupe.actor;

import org.agrona.collections.Int2IntHashMap;

import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * A node's credit accounts: opens them, finds them by id, knows what an envelope costs, and holds the node's
 * own account, charged for events sent from outside any handler and for sends while handling an uncharged
 * event. One per actor system; thread-safe.
 *
 * <p>Account ids start at a random epoch in the upper 32 bits, so that a restarted node does not take
 * repayments meant for its previous incarnation's accounts.
 */
public final class FlowControl
{
    private final boolean enabled;
    private final int nodeId;
    private final long defaultThreshold;
    private final int defaultCost;
    private final Int2IntHashMap typeCosts;
    private final boolean hasTypeCosts;
    private final BiConsumer<ActorId, FundsCleared> notifier;
    private final ConcurrentHashMap<Long, CreditAccount> accounts = new ConcurrentHashMap<>();
    private final AtomicLong nextId;
    private final AtomicLong opened = new AtomicLong();
    private final AtomicLong clearedNotices = new AtomicLong();
    private final CreditAccount nodeAccount;
    private final long flushBound;
    /** Shadows of other nodes' accounts, by owner node, then account id. */
    private final ConcurrentHashMap<Integer, ConcurrentHashMap<Long, ShadowAccount>> shadows =
        new ConcurrentHashMap<>();
    private final AtomicLong unknownAccounts = new AtomicLong();
    private final AtomicLong shadowDebtDropped = new AtomicLong();
    private final AtomicLong writtenOff = new AtomicLong();
    private final AtomicLong generation = new AtomicLong();
    private final AtomicLong shadowsForgotten = new AtomicLong();
    private final AtomicLong shadowsRefused = new AtomicLong();
    private final int maxShadowsPerOwner;
    /** Shadows with a delta to flush, each queued once until the flush takes it. */
    private final ConcurrentLinkedQueue<ShadowAccount> flushQueue = new ConcurrentLinkedQueue<>();
    /** The flushing thread's snapshot of the queue. */
    private final ArrayList<ShadowAccount> flushing = new ArrayList<>();
    private final long shadowIdleTimeoutNs;
    /** Sweeps of idle shadows so far; written by the flushing thread only. */
    private volatile long sweeps;
    private volatile boolean flushRequested;
    /** A shadow's repayments reached the flush bound since the last flush: due soon, not at once. */
    private volatile boolean repaymentFlushRequested;
    private volatile Runnable flushRequester = () -> { };

    /**
     * Creates the node's flow control. Runtime use: the actor system makes one.
     *
     * @param config   the settings (copied).
     * @param nodeId   this node.
     * @param notifier sends a {@link FundsCleared} event, uncharged, to a waiting actor.
     */
    public FlowControl(final FlowControlConfig config, final int nodeId,
        final BiConsumer<ActorId, FundsCleared> notifier)
    {
        this.enabled = config.enabled();
        this.nodeId = nodeId;
        this.defaultThreshold = config.defaultThreshold();
        this.defaultCost = config.defaultCost();
        this.typeCosts = new Int2IntHashMap(config.typeCosts());
        this.hasTypeCosts = !typeCosts.isEmpty();
        this.notifier = notifier;
        this.nextId = new AtomicLong((long)(ThreadLocalRandom.current().nextInt() & 0x7FFF_FFFF) << 32);
        this.flushBound = config.flushBound();
        this.shadowIdleTimeoutNs = config.shadowIdleTimeout().toNanos();
        this.maxShadowsPerOwner = config.maxShadowsPerOwner();
        this.nodeAccount = openAccount(defaultThreshold);
    }

    /**
     * Whether envelopes are charged at all.
     *
     * @return false if flow control is off.
     */
    public boolean isEnabled()
    {
        return enabled;
    }

    /**
     * Opens an account with the node's default threshold.
     *
     * @return the account.
     */
    public CreditAccount openAccount()
    {
        return openAccount(defaultThreshold);
    }

    /**
     * Opens an account.
     *
     * @param threshold the debt at or above which it is in debt, 1 or more.
     * @return the account.
     * @throws IllegalArgumentException if the threshold is less than 1.
     */
    public CreditAccount openAccount(final long threshold)
    {
        final CreditAccount account = new CreditAccount(this, nextId.incrementAndGet(), nodeId, threshold);
        accounts.put(account.accountId(), account);
        opened.incrementAndGet();
        return account;
    }

    /**
     * An open account of this node by id.
     *
     * @param accountId the id.
     * @return the account, or null if there is none or it was closed.
     */
    public CreditAccount account(final long accountId)
    {
        return accounts.get(accountId);
    }

    /**
     * The node's own account: charged for events sent from outside any handler without an account, and for
     * sends made while handling an event that was charged to nothing.
     *
     * @return the account.
     */
    public CreditAccount nodeAccount()
    {
        return nodeAccount;
    }

    /**
     * What an envelope of a type costs when its send gives no cost.
     *
     * @param type the event type id.
     * @return the type's cost, or the default.
     */
    public int costOf(final int type)
    {
        return hasTypeCosts ? typeCostOr(type) : defaultCost;
    }

    /**
     * The cost of every event type, when no type has a cost of its own: a worker's context keeps it, so that a
     * send reads nothing of this shared object.
     *
     * @return the default cost, or -1 when some types have their own.
     */
    public int uniformCost()
    {
        return hasTypeCosts ? -1 : defaultCost;
    }

    /**
     * The threshold of accounts opened without one.
     *
     * @return the threshold.
     */
    public long defaultThreshold()
    {
        return defaultThreshold;
    }

    /**
     * Accounts opened since start, the node's own included.
     *
     * @return the count.
     */
    public long accountsOpened()
    {
        return opened.get();
    }

    /**
     * Accounts open now.
     *
     * @return the count.
     */
    public int openAccounts()
    {
        return accounts.size();
    }

    /**
     * Visits every open account, the node's own among them: for readers such as the node's counters, which may run
     * on any thread. Weakly consistent: an account opened or closed meanwhile may or may not be visited.
     *
     * @param visitor called once per account.
     */
    public void forEachOpenAccount(final Consumer<CreditAccount> visitor)
    {
        accounts.values().forEach(visitor);
    }

    /**
     * {@link FundsCleared} events sent since start.
     *
     * @return the count.
     */
    public long clearedNotices()
    {
        return clearedNotices.get();
    }

    /**
     * What an envelope that arrived from another node is charged to: this node's account if it owns it (null if
     * there is no such open account, counted), else this node's shadow of the owner's account.
     *
     * @param ownerNode the owner named in the frame.
     * @param accountId the account named in the frame.
     * @return the account or shadow, or null.
     */
    public Chargeable resolve(final int ownerNode, final long accountId)
    {
        if (ownerNode == nodeId)
        {
            final CreditAccount account = accounts.get(accountId);
            if (account == null)
            {
                unknownAccounts.incrementAndGet();
            }
            return account;
        }
        final ConcurrentHashMap<Long, ShadowAccount> ofOwner = shadows.computeIfAbsent(ownerNode,
            owner -> new ConcurrentHashMap<>());
        final ShadowAccount shadow = ofOwner.get(accountId);
        if (shadow != null)
        {
            return shadow;
        }
        if (ofOwner.size() >= maxShadowsPerOwner)
        {
            shadowsRefused.incrementAndGet(); // the arrival is charged to this node's own account instead
            return null;
        }
        return ofOwner.computeIfAbsent(accountId, id -> newShadow(ownerNode, id));
    }

    /**
     * Arrivals that named one more account of an owner whose shadows were at
     * {@link FlowControlConfig#maxShadowsPerOwner}, and were charged to this node's own account instead.
     *
     * @return the count.
     */
    public long shadowsRefused()
    {
        return shadowsRefused.get();
    }

    private ShadowAccount newShadow(final int ownerNode, final long accountId)
    {
        final ShadowAccount shadow = new ShadowAccount(this, ownerNode, accountId);
        shadow.activeInSweep = sweeps;
        return shadow;
    }

    /**
     * Changes whenever an account is closed or shadows are dropped. A caller that keeps what {@link #resolve}
     * returned (the transport remembers the last account an arrival named, so a stream of events from one source
     * costs no map lookup) may reuse it for the same owner and id as long as the generation is unchanged.
     *
     * @return the generation.
     */
    public long generation()
    {
        return generation.get();
    }

    /**
     * This node's shadow of another node's account, if it has one.
     *
     * @param ownerNode the owner.
     * @param accountId the account.
     * @return the shadow, or null.
     */
    public ShadowAccount shadow(final int ownerNode, final long accountId)
    {
        final ConcurrentHashMap<Long, ShadowAccount> ofOwner = shadows.get(ownerNode);
        return ofOwner == null ? null : ofOwner.get(accountId);
    }

    /**
     * Hands the pending delta of every shadow that changed since the last flush to the sink (the transport's
     * flush); a delta the sink refuses goes with the next flush, and a delta of a shadow whose owner was lost is
     * dropped (counted in {@link #shadowDebtDropped}). Clears the flush request. One thread only: the flushing
     * thread (the interconnect agent's).
     *
     * @param sink where the deltas go.
     * @return the number of deltas taken.
     */
    public int drainShadows(final ShadowDeltaSink sink)
    {
        flushRequested = false;
        repaymentFlushRequested = false;
        ShadowAccount queued;
        while ((queued = flushQueue.poll()) != null)
        {
            flushing.add(queued);
        }
        final long sweep = sweeps;
        int taken = 0;
        for (int i = 0, size = flushing.size(); i < size; i++)
        {
            final ShadowAccount shadow = flushing.get(i);
            shadow.activeInSweep = sweep;
            final long delta = shadow.drain();
            if (delta == 0)
            {
                continue;
            }
            if (shadow.isDropped())
            {
                shadowDebtDropped.addAndGet(Math.abs(delta));
            }
            else if (sink.accept(shadow, delta))
            {
                taken++;
            }
            else
            {
                shadow.restore(delta);
            }
        }
        flushing.clear();
        return taken;
    }

    /**
     * Forgets the shadows that had nothing to flush since the previous sweep, so that a node does not keep a
     * shadow of every account that ever sent it an event. A forgotten shadow that an event still charged to it
     * changes later is flushed all the same; a new event naming the account gets a new shadow. The flushing
     * thread calls this every {@link FlowControlConfig#shadowIdleTimeout}, so a shadow is forgotten after one to
     * two timeouts without a change.
     *
     * @return the number of shadows forgotten.
     */
    public int sweepIdleShadows()
    {
        final long sweep = sweeps;
        int forgotten = 0;
        for (final Map.Entry<Integer, ConcurrentHashMap<Long, ShadowAccount>> ofOwner : shadows.entrySet())
        {
            for (final ShadowAccount shadow : ofOwner.getValue().values())
            {
                if (shadow.activeInSweep < sweep && !shadow.isQueued() && shadow.pending() == 0 &&
                    ofOwner.getValue().remove(shadow.accountId(), shadow))
                {
                    forgotten++;
                }
            }
        }
        if (forgotten > 0)
        {
            generation.incrementAndGet();
            shadowsForgotten.addAndGet(forgotten);
        }
        sweeps = sweep + 1;
        return forgotten;
    }

    /**
     * How often the flushing thread should call {@link #sweepIdleShadows}.
     *
     * @return nanoseconds.
     */
    public long shadowIdleTimeoutNs()
    {
        return shadowIdleTimeoutNs;
    }

    /**
     * Idle shadows forgotten so far.
     *
     * @return the count.
     */
    public long shadowsForgotten()
    {
        return shadowsForgotten.get();
    }

    /**
     * Forgets the shadows of a node that disconnected: it writes off whatever this node held, so the pending
     * deltas are dropped (their size counted), and so is whatever events still charged to those shadows repay
     * later. The flushing thread only.
     *
     * @param ownerNode the node.
     * @return the sum of the absolute pending deltas dropped.
     */
    public long dropShadowsOf(final int ownerNode)
    {
        final ConcurrentHashMap<Long, ShadowAccount> ofOwner = shadows.remove(ownerNode);
        if (ofOwner == null)
        {
            return 0;
        }
        generation.incrementAndGet();
        long dropped = 0;
        for (final ShadowAccount shadow : ofOwner.values())
        {
            shadow.markDropped();
            dropped += Math.abs(shadow.drain());
        }
        shadowDebtDropped.addAndGet(dropped);
        return dropped;
    }

    /**
     * Shadows held now, of all owners.
     *
     * @return the count.
     */
    public int shadowCount()
    {
        int count = 0;
        for (final ConcurrentHashMap<Long, ShadowAccount> ofOwner : shadows.values())
        {
            count += ofOwner.size();
        }
        return count;
    }

    /**
     * Frames from other nodes charged to an account of this node that is not open (closed, or of an earlier
     * incarnation).
     *
     * @return the count.
     */
    public long unknownAccounts()
    {
        return unknownAccounts.get();
    }

    /**
     * Pending shadow deltas dropped because their owner disconnected.
     *
     * @return the sum of their absolute values.
     */
    public long shadowDebtDropped()
    {
        return shadowDebtDropped.get();
    }

    /**
     * The pending delta at which a shadow asks for a flush at once.
     *
     * @return the bound.
     */
    public long flushBound()
    {
        return flushBound;
    }

    /**
     * Whether a shadow asked for a flush since the last {@link #drainShadows} because its charges reached the flush
     * bound: the owner understates the account's debt by that much, so the flush is due at once.
     *
     * @return true if a flush is due now.
     */
    public boolean isFlushRequested()
    {
        return flushRequested;
    }

    /**
     * Whether a shadow's repayments reached the flush bound since the last {@link #drainShadows}. The owner then
     * overstates the account's debt, which only holds its source back a little longer, so the transport may wait a
     * little (a fraction of its flush period since its last flush) and report many repayments in one frame rather
     * than one frame per bound's worth: at a million repaid events a second, a bound of 64 would otherwise cost the
     * owner some 15,000 frames a second.
     *
     * @return true if repayments are waiting to be flushed.
     */
    public boolean isRepaymentFlushRequested()
    {
        return repaymentFlushRequested;
    }

    /**
     * Sets what wakes the transport when a shadow asks for a flush. Runtime use.
     *
     * @param requester called on the charging thread; must not block.
     */
    public void onFlushRequest(final Runnable requester)
    {
        this.flushRequester = requester == null ? () -> { } : requester;
    }

    void requestFlush()
    {
        if (!flushRequested)
        {
            flushRequested = true;
            flushRequester.run();
        }
    }

    void requestRepaymentFlush()
    {
        if (!repaymentFlushRequested)
        {
            repaymentFlushRequested = true;
            flushRequester.run();
        }
    }

    /**
     * Debt of this node's accounts written off since start, because the nodes holding it disconnected.
     *
     * @return the total.
     */
    public long writtenOff()
    {
        return writtenOff.get();
    }

    void queueForFlush(final ShadowAccount shadow)
    {
        flushQueue.offer(shadow);
    }

    void onWrittenOff(final long amount)
    {
        writtenOff.addAndGet(amount);
    }

    void onClosed(final CreditAccount account)
    {
        accounts.remove(account.accountId(), account);
        generation.incrementAndGet();
    }

    void notifyCleared(final ActorId waiter, final FundsCleared event)
    {
        clearedNotices.incrementAndGet();
        notifier.accept(waiter, event);
    }

    private int typeCostOr(final int type)
    {
        final int cost = typeCosts.get(type);
        return cost < 0 ? defaultCost : cost;
    }

    @Override
    public String toString()
    {
        return "FlowControl{node=" + nodeId + ", enabled=" + enabled + ", open=" + accounts.size() + '}';
    }
}
