package io.troupe.actor;

import io.troupe.memquota.ConfigurationException;
import org.agrona.collections.Int2IntHashMap;

import java.time.Duration;

/**
 * Settings of a node's credit flow control. Mutable builder; the node copies what it needs at start.
 */
public final class FlowControlConfig
{
    /** Default threshold of an account: in debt at 1,024 units outstanding. */
    public static final long DEFAULT_THRESHOLD = FlowControlSettings.DEFAULT_THRESHOLD.defaultValue();
    /** Default cost of an envelope. */
    public static final int DEFAULT_COST = 1;
    /** Default pending delta at which a shadow of another node's account is flushed at once. */
    public static final long DEFAULT_FLUSH_BOUND = FlowControlSettings.FLUSH_BOUND.defaultValue();
    /** How long a shadow may go without a change before its node forgets it, at least. */
    public static final Duration DEFAULT_SHADOW_IDLE_TIMEOUT = FlowControlSettings.SHADOW_IDLE_TIMEOUT.defaultValue();
    /** Default most shadows of one other node's accounts. */
    public static final int DEFAULT_MAX_SHADOWS_PER_OWNER = 4096;

    private boolean enabled = FlowControlSettings.ENABLED.defaultValue();
    private long defaultThreshold = DEFAULT_THRESHOLD;
    private int defaultCost = DEFAULT_COST;
    private long flushBound = DEFAULT_FLUSH_BOUND;
    private Duration shadowIdleTimeout = DEFAULT_SHADOW_IDLE_TIMEOUT;
    private int maxShadowsPerOwner = DEFAULT_MAX_SHADOWS_PER_OWNER;
    private final Int2IntHashMap typeCosts = new Int2IntHashMap(-1);

    /** Flow control on, threshold {@link #DEFAULT_THRESHOLD}, cost {@value #DEFAULT_COST} for every type. */
    public FlowControlConfig()
    {
    }

    /**
     * Flow control off: envelopes are charged to nothing and {@code ensureClearFunds} always succeeds.
     *
     * @return a new config.
     */
    public static FlowControlConfig disabled()
    {
        return new FlowControlConfig().enabled(false);
    }

    /**
     * Turns accounting on or off.
     *
     * @param enabled true to charge envelopes.
     * @return this.
     */
    public FlowControlConfig enabled(final boolean enabled)
    {
        this.enabled = enabled;
        return this;
    }

    /**
     * Sets the threshold of accounts opened without one.
     *
     * @param threshold 1 to 2^62.
     * @return this.
     * @throws IllegalArgumentException if out of range.
     */
    public FlowControlConfig defaultThreshold(final long threshold)
    {
        this.defaultThreshold = FlowControlSettings.DEFAULT_THRESHOLD.requireValid(threshold);
        return this;
    }

    /**
     * Sets the cost of envelopes whose type has no cost of its own.
     *
     * @param cost 0 or more.
     * @return this.
     * @throws IllegalArgumentException if negative.
     */
    public FlowControlConfig defaultCost(final int cost)
    {
        this.defaultCost = checkCost(cost);
        return this;
    }

    /**
     * Sets the cost of envelopes of one event type (a send may still give its own).
     *
     * @param type the event type id.
     * @param cost 0 or more.
     * @return this.
     * @throws IllegalArgumentException if negative.
     */
    public FlowControlConfig typeCost(final int type, final int cost)
    {
        typeCosts.put(type, checkCost(cost));
        return this;
    }

    /**
     * Sets the pending delta at which this node's shadow of another node's account asks for a flush at once
     * rather than at the transport's next periodic flush; the owner's view of its account lags this node's by
     * less than this per account, plus what changed since the last flush.
     *
     * @param bound 1 to 2^62.
     * @return this.
     * @throws IllegalArgumentException if out of range.
     */
    public FlowControlConfig flushBound(final long bound)
    {
        this.flushBound = FlowControlSettings.FLUSH_BOUND.requireValid(bound);
        return this;
    }

    long flushBound()
    {
        return flushBound;
    }

    /**
     * The most shadows this node keeps of one other node's accounts; an arrival naming one more is charged to
     * this node's own account instead, and counted ({@link FlowControl#shadowsRefused()}). Bounds what a peer
     * can make this node hold by naming account ids.
     *
     * @param max 1 to 16,777,216.
     * @return this.
     * @throws IllegalArgumentException if out of range.
     */
    public FlowControlConfig maxShadowsPerOwner(final int max)
    {
        if (max < 1 || max > (1 << 24))
        {
            throw new ConfigurationException("maxShadowsPerOwner", max, "1 to 16,777,216",
                "shadows per owner must be 1 to 16,777,216, was " + max);
        }
        this.maxShadowsPerOwner = max;
        return this;
    }

    int maxShadowsPerOwner()
    {
        return maxShadowsPerOwner;
    }

    /**
     * How long a shadow of another node's account may go without a change before this node forgets it (it is
     * forgotten after one to two timeouts; an event still charged to it is accounted for all the same).
     *
     * @param timeout 1 ms to 1 hour.
     * @return this.
     * @throws IllegalArgumentException if out of range.
     */
    public FlowControlConfig shadowIdleTimeout(final Duration timeout)
    {
        this.shadowIdleTimeout = FlowControlSettings.SHADOW_IDLE_TIMEOUT.requireValid(timeout);
        return this;
    }

    Duration shadowIdleTimeout()
    {
        return shadowIdleTimeout;
    }

    boolean enabled()
    {
        return enabled;
    }

    long defaultThreshold()
    {
        return defaultThreshold;
    }

    int defaultCost()
    {
        return defaultCost;
    }

    Int2IntHashMap typeCosts()
    {
        return typeCosts;
    }

    static long checkThreshold(final long threshold)
    {
        if (threshold < 1)
        {
            throw new ConfigurationException("threshold", threshold, "1 or more",
                "credit account threshold must be 1 or more, was " + threshold);
        }
        return threshold;
    }

    /**
     * Checks a cost.
     *
     * @param cost the cost.
     * @return the cost.
     * @throws IllegalArgumentException if negative.
     */
    public static int checkCost(final int cost)
    {
        if (cost < 0)
        {
            throw new ConfigurationException("cost", cost, "0 or more", "envelope cost must be 0 or more, was " + cost);
        }
        return cost;
    }

    @Override
    public String toString()
    {
        final StringBuilder costs = new StringBuilder();
        typeCosts.forEach((type, cost) -> costs.append(costs.length() == 0 ? "" : ", ")
            .append(EventTypes.describe(type)).append('=').append(cost));
        return "FlowControlConfig{enabled=" + enabled + ", defaultThreshold=" + defaultThreshold + ", defaultCost=" +
            defaultCost + ", flushBound=" + flushBound + ", shadowIdleTimeout=" + shadowIdleTimeout + ", typeCosts={" +
            costs + "}}";
    }
}
