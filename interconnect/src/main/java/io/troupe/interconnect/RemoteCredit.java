package io.troupe.interconnect;

import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.actor.Chargeable;
import io.troupe.actor.CreditAccount;
import io.troupe.actor.FlowControl;
import io.troupe.actor.ShadowAccount;
import io.troupe.actor.ShadowDeltaSink;
import io.troupe.serialization.wire.CreditDeltasFrame;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.serialization.wire.WireFormat;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * Credit accounts across nodes, owned by the interconnect agent's thread.
 *
 * <p>As the owner of accounts: remembers how much of each account's debt each peer holds (the events handed to
 * it, plus the net deltas it reports: its charges minus its repayments), applies those deltas, and when the
 * session with a peer ends writes that debt off, so ingress never waits on a dead node. As the holder of shadows:
 * every flush period, or at once when a shadow's pending delta reaches the flush bound, sends each owner one
 * {@code CreditDeltas} frame (or more) on the control stream with the net delta of every shadow of its
 * accounts; a delta that cannot be sent now stays pending.
 */
final class RemoteCredit implements ShadowDeltaSink
{
    /** Entries per {@code CreditDeltas} frame: 20 bytes each, well within a control message. */
    static final int ENTRIES_PER_FRAME = 128;

    private final InterconnectAgent agent;
    private final FlowControl flow;
    private final long flushPeriodNs;
    /** Debt of this node's accounts held by each peer. */
    private final Int2ObjectHashMap<Long2ObjectHashMap<Held>> heldByPeer = new Int2ObjectHashMap<>();
    /** The entry {@link #held} found last, and its peer; forgotten when the peer's entries go. */
    private Held lastHeld;
    private int lastHeldPeer;
    private final Int2ObjectHashMap<Batch> batches = new Int2ObjectHashMap<>();
    private long nextFlushNs;
    /** When the last flush ran: repayments that reached the bound wait until a quarter period has passed since. */
    private long lastFlushNs;
    private final long repaymentGapNs;
    private long nextSweepNs;
    long deltasSent;
    long framesSent;
    long deltasApplied;
    long deltasForUnknownAccounts;
    long deltasDroppedOwnerDown;
    long writtenOff;

    RemoteCredit(final InterconnectAgent agent, final FlowControl flow, final long flushPeriodNs)
    {
        this.agent = agent;
        this.flow = flow;
        this.flushPeriodNs = flushPeriodNs;
        this.repaymentGapNs = flushPeriodNs / 4;
    }

    /**
     * Flushes the shadows' pending deltas if the period has passed, a shadow's charges reached the flush bound, or its
     * repayments did and a quarter period has passed since the last flush.
     *
     * @param nowNs the agent's clock.
     * @return work done.
     */
    int onTick(final long nowNs)
    {
        int work = 0;
        if (nowNs - nextSweepNs >= 0)
        {
            nextSweepNs = nowNs + flow.shadowIdleTimeoutNs();
            work += flow.sweepIdleShadows();
        }
        if (nowNs - nextFlushNs < 0 && !flow.isFlushRequested() &&
            !(flow.isRepaymentFlushRequested() && nowNs - lastFlushNs >= repaymentGapNs))
        {
            return work;
        }
        lastFlushNs = nowNs;
        nextFlushNs = nowNs + flushPeriodNs;
        final int taken = flow.drainShadows(this);
        for (final Batch batch : batches.values())
        {
            if (batch.count > 0)
            {
                send(batch);
            }
        }
        return work + taken;
    }

    @Override
    public boolean accept(final ShadowAccount shadow, final long delta)
    {
        final int ownerNode = shadow.ownerNode();
        final Peer peer = agent.roster.byId(ownerNode);
        if (peer == null || !peer.isUp())
        {
            // no session with the owner: it writes off what this node held, so the delta has nothing to correct
            deltasDroppedOwnerDown++;
            return true;
        }
        Batch batch = batches.get(ownerNode);
        if (batch == null)
        {
            batch = new Batch(peer);
            batches.put(ownerNode, batch);
        }
        if (batch.count == ENTRIES_PER_FRAME && !send(batch))
        {
            return false;
        }
        batch.add(shadow, delta);
        return true;
    }

    /** Sends a batch; on back pressure its deltas go back to their shadows for the next flush. */
    private boolean send(final Batch batch)
    {
        final FrameEncoder encoder = agent.encoder;
        final UnsafeBuffer scratch = agent.scratch;
        final int length = encoder.encodeCreditDeltas(scratch, 0, agent.nodeId, agent.incarnation, batch.owners,
            batch.accountIds, batch.deltas, batch.count);
        final boolean sent = batch.peer.offerSealed(FrameSeal.CONTROL, batch.peer.control, scratch, 0, length,
            agent.sealBuffer) > 0;
        if (sent)
        {
            deltasSent += batch.count;
            framesSent++;
        }
        else
        {
            for (int i = 0; i < batch.count; i++)
            {
                batch.shadows[i].restore(batch.deltas[i]);
            }
        }
        batch.clear();
        return sent;
    }

    /**
     * Applies a peer's report for this node's accounts.
     *
     * @param peer  the established peer it came from.
     * @param frame the frame.
     */
    void onDeltas(final Peer peer, final CreditDeltasFrame frame)
    {
        for (int i = 0; i < frame.count(); i++)
        {
            final long delta = frame.delta(i);
            final CreditAccount account = frame.accountOwnerNode(i) == agent.nodeId ?
                flow.account(frame.accountId(i)) : null;
            if (account == null)
            {
                deltasForUnknownAccounts++;
                continue;
            }
            held(peer.nodeId, account).amount += delta;
            if (delta > 0)
            {
                account.charge(delta);
            }
            else
            {
                account.repay(-delta);
            }
            deltasApplied++;
        }
    }

    /**
     * A frame charged to an account was written to a peer's publication. If this node owns the account, the
     * debt stays and the peer answers for it (the peer does not charge it again on arrival, and its repayment
     * comes back as a delta); a shadow is repaid here, and the peer charges its own shadow on arrival.
     *
     * @param peerNodeId the peer.
     * @param account    the account.
     * @param cost       the cost.
     */
    void onHandOff(final int peerNodeId, final Chargeable account, final int cost)
    {
        if (account instanceof CreditAccount && account.ownerNode() == agent.nodeId)
        {
            held(peerNodeId, (CreditAccount)account).amount += cost;
        }
        else
        {
            account.repay(cost);
        }
    }

    private Held held(final int peerNodeId, final CreditAccount account)
    {
        // a stream hands off frames of one account to one peer: two hash lookups per frame for the same entry
        final Held last = lastHeld;
        if (last != null && last.account == account && lastHeldPeer == peerNodeId)
        {
            return last;
        }
        final Held found = lookUpHeld(peerNodeId, account);
        lastHeld = found;
        lastHeldPeer = peerNodeId;
        return found;
    }

    private Held lookUpHeld(final int peerNodeId, final CreditAccount account)
    {
        Long2ObjectHashMap<Held> held = heldByPeer.get(peerNodeId);
        if (held == null)
        {
            held = new Long2ObjectHashMap<>();
            heldByPeer.put(peerNodeId, held);
        }
        Held entry = held.get(account.accountId());
        if (entry == null)
        {
            entry = new Held(account);
            held.put(account.accountId(), entry);
        }
        return entry;
    }

    /**
     * The session with a peer ended: the debt it held on this node's accounts is written off, and this node's
     * shadows of its accounts are dropped.
     *
     * @param peerNodeId the peer.
     */
    void onSessionLost(final int peerNodeId)
    {
        lastHeld = null;
        final Long2ObjectHashMap<Held> held = heldByPeer.remove(peerNodeId);
        if (held != null)
        {
            for (final Held entry : held.values())
            {
                if (entry.amount > 0)
                {
                    entry.account.writeOff(entry.amount);
                    writtenOff += entry.amount;
                }
            }
        }
        final Batch batch = batches.remove(peerNodeId);
        if (batch != null)
        {
            batch.clear(); // the owner writes off what this node held: nothing left to correct
        }
        flow.dropShadowsOf(peerNodeId);
    }

    /**
     * The debt of one of this node's accounts that a peer holds, as far as its reports have told.
     *
     * @param peerNodeId the peer.
     * @param accountId  the account.
     * @return the debt.
     */
    long heldBy(final int peerNodeId, final long accountId)
    {
        final Long2ObjectHashMap<Held> held = heldByPeer.get(peerNodeId);
        final Held entry = held == null ? null : held.get(accountId);
        return entry == null ? 0 : entry.amount;
    }

    /** A peer's share of one account's debt. */
    private static final class Held
    {
        final CreditAccount account;
        long amount;

        Held(final CreditAccount account)
        {
            this.account = account;
        }
    }

    /** The deltas for one owner being gathered into a frame. */
    private static final class Batch
    {
        final Peer peer;
        final int[] owners = new int[ENTRIES_PER_FRAME];
        final long[] accountIds = new long[ENTRIES_PER_FRAME];
        final long[] deltas = new long[ENTRIES_PER_FRAME];
        final ShadowAccount[] shadows = new ShadowAccount[ENTRIES_PER_FRAME];
        int count;

        Batch(final Peer peer)
        {
            this.peer = peer;
        }

        void add(final ShadowAccount shadow, final long delta)
        {
            owners[count] = shadow.ownerNode();
            accountIds[count] = shadow.accountId();
            deltas[count] = delta;
            shadows[count] = shadow;
            count++;
        }

        void clear()
        {
            Arrays.fill(shadows, 0, count, null);
            count = 0;
        }
    }

    static
    {
        if (ENTRIES_PER_FRAME > WireFormat.MAX_GROUP_ENTRIES)
        {
            throw new ExceptionInInitializerError("too many credit entries per frame");
        }
    }
}
