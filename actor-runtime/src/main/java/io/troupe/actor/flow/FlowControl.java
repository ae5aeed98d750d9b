package io.troupe.actor.flow;

import io.troupe.actor.ActorId;
import org.agrona.collections.Int2IntHashMap;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

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

    /**
     * Creates the node's flow control. Runtime use: the actor system makes one.
     *
     * @param config   the settings (copied).
     * @param nodeId   this node.
     * @param notifier sends a {@link FundsCleared} event, uncharged, to a waiting actor.
     */
    public FlowControl(final FlowControlConfig config, final int nodeId, final BiConsumer<ActorId, FundsCleared> notifier)
    {
        this.enabled = config.enabled();
        this.nodeId = nodeId;
        this.defaultThreshold = config.defaultThreshold();
        this.defaultCost = config.defaultCost();
        this.typeCosts = new Int2IntHashMap(config.typeCosts());
        this.hasTypeCosts = !typeCosts.isEmpty();
        this.notifier = notifier;
        this.nextId = new AtomicLong((long)(ThreadLocalRandom.current().nextInt() & 0x7FFF_FFFF) << 32);
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
     * {@link FundsCleared} events sent since start.
     *
     * @return the count.
     */
    public long clearedNotices()
    {
        return clearedNotices.get();
    }

    void onClosed(final CreditAccount account)
    {
        accounts.remove(account.accountId(), account);
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
