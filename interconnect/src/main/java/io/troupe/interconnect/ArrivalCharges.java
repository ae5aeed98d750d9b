package io.troupe.interconnect;

import io.troupe.actor.Chargeable;
import io.troupe.actor.Envelope;
import io.troupe.actor.FlowControl;
import io.troupe.serialization.wire.EnvelopeFrame;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Credit on the receiving side: which account an arriving event is charged to, and how much (see
 * {@link #charge}). Owned by the interconnect agent's thread, which reads the arrivals ({@link InboundFrames}).
 */
final class ArrivalCharges
{
    /** The largest cost an arriving frame may charge; larger ones are clamped (counted). */
    static final int MAX_REMOTE_COST = 1 << 20;

    private final InterconnectAgent agent;
    /** Arrivals charged to an account of a node this one has no session with: charged to this node's instead. */
    final AtomicLong foreignOwners = new AtomicLong();
    /** Arrivals whose cost was outside 0..{@link #MAX_REMOTE_COST}, clamped. */
    final AtomicLong clampedCosts = new AtomicLong();
    /** The account the last charged arrival named (see {@link #resolve}). */
    private Chargeable lastAccount;
    private int lastOwner;
    private long lastAccountId;
    private long lastGeneration;

    ArrivalCharges(final InterconnectAgent agent)
    {
        this.agent = agent;
    }

    private boolean hasSession(final int nodeId)
    {
        final Peer peer = agent.roster.byId(nodeId);
        return peer != null && peer.isUp();
    }

    /**
     * Charges an arriving event to the account its frame names: this node's own account if it owns it, else this
     * node's shadow of the owner's, whose net delta goes back to the owner. An event from the owner itself is
     * not charged again: the owner kept the debt when it wrote the frame and counts it as held by this node
     * until this node's repayment reaches it. An uncharged frame, one naming an account this node does not have
     * open, one naming an owner this node has no session with, or one past the shadows kept per owner
     * ({@code FlowControlConfig.maxShadowsPerOwner}) is charged to the node's own account when it is sent on. A
     * cost outside 0..{@link #MAX_REMOTE_COST} is clamped.
     */
    void charge(final Envelope envelope, final EnvelopeFrame frame, final Peer from)
    {
        final int owner = frame.accountOwnerNode();
        final FlowControl flow = agent.system.flow();
        if (owner == 0 || !flow.isEnabled())
        {
            return;
        }
        if (owner != from.nodeId && owner != agent.nodeId && !hasSession(owner))
        {
            // an owner this node has no session with: its shadow could never report nor be written off
            foreignOwners.incrementAndGet();
            return;
        }
        final Chargeable account = resolve(flow, owner, frame.accountId());
        if (account == null)
        {
            return;
        }
        final int named = frame.cost();
        final int cost = named < 0 ? 0 : Math.min(named, MAX_REMOTE_COST);
        if (cost != named)
        {
            clampedCosts.incrementAndGet();
        }
        if (owner == from.nodeId)
        {
            envelope.carryCharge(account, cost);
        }
        else
        {
            envelope.chargeTo(account, cost);
        }
    }

    /** {@link FlowControl#resolve}, remembering the last answer while the flow control's generation holds. */
    private Chargeable resolve(final FlowControl flow, final int owner, final long accountId)
    {
        final long generation = flow.generation();
        if (lastAccount != null && owner == lastOwner && accountId == lastAccountId && generation == lastGeneration)
        {
            return lastAccount;
        }
        final Chargeable account = flow.resolve(owner, accountId);
        lastOwner = owner;
        lastAccountId = accountId;
        lastGeneration = generation;
        lastAccount = account;
        return account;
    }
}
