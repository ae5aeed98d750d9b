package io.troupe.membership.internal;

import io.aeron.cluster.client.EgressListener;
import io.aeron.logbuffer.Header;
import io.aeron.security.AuthenticationException;
import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import io.troupe.membership.internal.sbe.ReplyCode;
import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A node's membership: it connects to the membership service (any voter; Aeron Cluster finds the leader and
 * follows it when it changes; the {@link ServiceSession} holds the connection), joins, keeps the member view in
 * step and tells the {@link ClientListener} of each change, renews the lease, and says when the node must stop
 * because it cannot (a partition from the voters' majority, or the service downed it). An Agrona agent: everything
 * runs on its thread, including its Aeron client's conductor; other threads reach it through {@link #ready()},
 * {@link #leave(boolean)} and {@link #down(int, long)}.
 */
public final class MembershipClient implements Agent, Notices.Listener, EgressListener
{
    private static final Logger LOG = LoggerFactory.getLogger(MembershipClient.class);
    /** The longest a joining node's attempt to connect may take before it starts another. */
    private static final long FIRST_CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private enum State
    {
        CONNECTING, JOINING, MEMBER, ENDED
    }

    private final ClientSettings settings;
    private final ClientListener listener;
    private final NanoClock clock;
    private final Requests requests = new Requests();
    private final Notices notices = new Notices(this);
    private final MemberView view = new MemberView();
    private final List<Member> changes = new ArrayList<>();
    private final ManyToOneConcurrentLinkedQueue<Runnable> commands = new ManyToOneConcurrentLinkedQueue<>();
    private final Long2Future pending = new Long2Future();
    private final long startedNs;
    private final ServiceSession session;
    private State state = State.CONNECTING;
    private LeaseKeeper lease;
    private int nodeId;
    private long nextCorrelationId = 1;
    private long joinCorrelationId;
    private long joinSentNs;
    /** Set by {@link #ready()}: the node serves, and Ready is sent until the view has it UP. */
    private CompletableFuture<Void> upWanted;
    private long nextReadyNs;
    /**
     * Set once the node asked to be recorded LEFT: it goes, so it renews no more, and the service's word that its
     * incarnation has ended is what it asked for, not a lost lease.
     */
    private boolean going;
    private volatile long epoch = -1;
    private volatile long renewals;
    private volatile long renewalFailures;

    /**
     * A client, not yet connected: it connects on its first duty cycles.
     *
     * @param settings what it needs.
     * @param listener who hears of the membership.
     * @param clock    its clock.
     * @param errors   where its Aeron client's errors go (never Aeron's default, which exits the process when the
     *                 driver stops answering).
     */
    public MembershipClient(final ClientSettings settings, final ClientListener listener, final NanoClock clock,
        final ErrorHandler errors)
    {
        this.settings = settings;
        this.listener = listener;
        this.clock = clock;
        this.nodeId = settings.nodeId();
        this.startedNs = clock.nanoTime();
        this.session = new ServiceSession(settings, errors, this);
    }

    @Override
    public void onStart()
    {
        session.open();
    }

    @Override
    public int doWork()
    {
        if (session.driverGone())
        {
            return driverGone(clock.nanoTime());
        }
        int work = session.invokeConductor();
        Runnable command;
        while ((command = commands.poll()) != null)
        {
            command.run();
            work++;
        }
        final long nowNs = clock.nanoTime();
        if (lease != null && !going && state != State.ENDED && lease.lapsed(nowNs))
        {
            // whatever the session does: a member reconnecting after losing it is as cut off as one that cannot
            // get a renewal through, and must stop before the service could down it
            end(() -> listener.onLeaseLost("node " + nodeId + " could not renew its membership lease in time " +
                "(cut off from the voters' majority?): it stops before the cluster may down it"));
            return work + 1;
        }
        switch (state)
        {
            case CONNECTING -> work += connect(nowNs);
            case JOINING, MEMBER -> work += serve(nowNs);
            default ->
            {
            }
        }
        return work;
    }

    /** The membership media driver stopped answering: nothing can be sent; the lease runs out. */
    private int driverGone(final long nowNs)
    {
        if (state == State.ENDED)
        {
            return 0;
        }
        if (lease != null ? lease.lapsed(nowNs) : nowNs - startedNs > settings.joinTimeout().toNanos())
        {
            end(() -> listener.onLeaseLost("node " + nodeId + "'s membership media driver stopped: it cannot " +
                "renew its lease"));
            return 1;
        }
        return 0;
    }

    private int connect(final long nowNs)
    {
        // a joining node is a JVM just started, on a host it may share: its first connect (drivers, JIT, the
        // service's answer) may take seconds, and an attempt cut short costs a retry. A member that lost its
        // session has less than its lease left: short attempts, so one stuck on a voter gone is soon given up
        final long timeoutNs = lease == null ? Math.min(settings.joinTimeout().toNanos(), FIRST_CONNECT_TIMEOUT_NS) :
            settings.retryInterval().toNanos() * 4;
        switch (session.connect(nowNs, timeoutNs))
        {
            case WAITING ->
            {
                return 0;
            }
            case CONNECTING ->
            {
                return 1;
            }
            case CONNECTED -> connected(nowNs);
            default -> connectFailed(nowNs, session.failure());
        }
        return 1;
    }

    private void connected(final long nowNs)
    {
        LOG.info("membership: node {} connected to the service (leader {})", nodeId, session.leaderMemberId());
        if (lease == null)
        {
            state = State.JOINING;
            sendJoin(nowNs);
        }
        else
        {
            state = State.MEMBER;
            renew(nowNs);
            sync();
        }
    }

    private void connectFailed(final long nowNs, final RuntimeException ex)
    {
        if (lease == null && ex instanceof AuthenticationException)
        {
            end(() -> listener.onRefused("the membership service at " + settings.voters() + " rejected node " +
                nodeId + ": is troupe.cluster-secret or troupe.cluster-id ('" + settings.proof().clusterId() +
                "') not the cluster's, or troupe.membership.voters (or seeds) not the voters' list, in their " +
                "order? A voter's log says which (" + ex.getMessage() + ")"));
        }
        else if (lease == null && nowNs - startedNs > settings.joinTimeout().toNanos())
        {
            end(() -> listener.onRefused("could not join the membership service at " + settings.voters() +
                " within " + settings.joinTimeout().toMillis() + " ms: " + ex.getMessage()));
        }
        else
        {
            LOG.warn("membership: node {} could not connect to the service: {}", nodeId, ex.getMessage());
        }
    }

    private int serve(final long nowNs)
    {
        int work = session.poll();
        if (state == State.ENDED)
        {
            return work;
        }
        if (session.lost())
        {
            LOG.warn("membership: node {} lost its session with the service; connecting again", nodeId);
            state = State.CONNECTING;
            return work + 1;
        }
        if (state == State.JOINING && nowNs - joinSentNs > settings.retryInterval().toNanos())
        {
            sendJoin(nowNs); // the same correlation: a join the service took already is answered again
            work++;
        }
        if (lease != null && !going)
        {
            if (lease.renewDue(nowNs))
            {
                renew(nowNs);
                work++;
            }
            work += sendReadyUntilUp(nowNs);
        }
        return work;
    }

    private void sendJoin(final long nowNs)
    {
        if (joinCorrelationId == 0)
        {
            joinCorrelationId = nextCorrelationId++;
        }
        joinSentNs = nowNs;
        offer(requests.join(joinCorrelationId, settings.nodeId(), settings.incarnation(), settings.host(),
            settings.port()));
    }

    private void renew(final long nowNs)
    {
        final long correlationId = nextCorrelationId++;
        if (offer(requests.renew(correlationId, nodeId, settings.incarnation())))
        {
            lease.sent(correlationId, nowNs);
        }
        else
        {
            renewalFailures++;
            lease.notSent(nowNs, settings.retryInterval().toNanos() / 4);
        }
    }

    private void sync()
    {
        offer(requests.sync(nextCorrelationId++));
    }

    private boolean offer(final int length)
    {
        return session.offer(requests.buffer(), length);
    }

    private void end(final Runnable tell)
    {
        state = State.ENDED;
        pending.failAll("the membership client ended");
        if (upWanted != null)
        {
            upWanted.completeExceptionally(new IllegalStateException("the membership client ended"));
        }
        tell.run();
    }

    @Override
    public void onMessage(final long clusterSessionId, final long timestamp, final DirectBuffer buffer,
        final int offset, final int length, final Header header)
    {
        notices.onMessage(buffer, offset, length);
    }

    @Override
    public void onReply(final long correlationId, final long replyEpoch, final long leaseMs, final int replyNodeId,
        final ReplyCode code, final String detail)
    {
        if (state == State.ENDED)
        {
            return;
        }
        if (correlationId == joinCorrelationId && lease == null)
        {
            onJoinReply(replyEpoch, leaseMs, replyNodeId, code, detail);
            return;
        }
        if (pending.complete(correlationId, code, detail))
        {
            return;
        }
        if (code == ReplyCode.OK)
        {
            if (lease != null && lease.accepted(correlationId))
            {
                renewals++;
            }
        }
        else if ((code == ReplyCode.INCARNATION_ENDED || code == ReplyCode.UNKNOWN_MEMBER) && going)
        {
            end(() -> LOG.info("membership: node {} (incarnation {}) left", nodeId, settings.incarnation()));
        }
        else if (code == ReplyCode.INCARNATION_ENDED || code == ReplyCode.UNKNOWN_MEMBER)
        {
            end(() -> listener.onLeaseLost("the membership service ended node " + nodeId + "'s incarnation " +
                settings.incarnation() + ": " + detail));
        }
        if (replyEpoch > view.epoch() && view.epoch() >= 0)
        {
            sync(); // a change did not reach this node
        }
    }

    private void onJoinReply(final long replyEpoch, final long leaseMs, final int replyNodeId, final ReplyCode code,
        final String detail)
    {
        if (code != ReplyCode.OK)
        {
            end(() -> listener.onRefused("the membership service refused node " + settings.nodeId() + " (" + code +
                "): " + detail));
            return;
        }
        nodeId = replyNodeId;
        final long leaseNs = leaseMs * 1_000_000L;
        lease = new LeaseKeeper(leaseNs, settings.renewInterval().toNanos(), settings.safetyMargin().toNanos());
        lease.granted(joinSentNs);
        state = State.MEMBER;
        LOG.info("membership: node {} (incarnation {}) joined at epoch {}, lease {} ms", nodeId,
            settings.incarnation(), replyEpoch, leaseMs);
        listener.onJoined(nodeId, replyEpoch);
    }

    @Override
    public void onChanged(final Member member)
    {
        changes.clear();
        final MemberView.Applied applied = view.changed(member, changes);
        if (applied == MemberView.Applied.GAP)
        {
            sync();
        }
        tell();
    }

    @Override
    public void onTableMember(final long tableEpoch, final Member member, final long leaseAgeMs)
    {
        view.tableMember(tableEpoch, member);
    }

    @Override
    public void onTableEnd(final long tableEpoch, final long clusterTimeMs, final long leaseMs, final int memberCount,
        final int leaderMemberId)
    {
        changes.clear();
        if (view.tableEnd(tableEpoch, memberCount, changes) == MemberView.Applied.GAP)
        {
            sync();
        }
        tell();
    }

    private void tell()
    {
        epoch = view.epoch();
        for (final Member member : changes)
        {
            if (state == State.ENDED)
            {
                return;
            }
            listener.onChange(member);
            if (member.nodeId() == nodeId && member.incarnation() == settings.incarnation() &&
                member.status() == MemberStatus.DOWN)
            {
                end(() -> listener.onLeaseLost("the membership service downed node " + nodeId + " (incarnation " +
                    settings.incarnation() + ")"));
            }
        }
    }

    /**
     * Tells the service that this node, joined, now serves (JOINING to UP). Any thread.
     *
     * @return completes when the service recorded it.
     */
    public CompletableFuture<Void> ready()
    {
        final CompletableFuture<Void> done = new CompletableFuture<>();
        commands.offer(() ->
        {
            if (state != State.MEMBER || upWanted != null)
            {
                done.completeExceptionally(new IllegalStateException("node " + nodeId + " is not a joined member " +
                    "waiting to be up (" + state + ")"));
                return;
            }
            upWanted = done;
            nextReadyNs = clock.nanoTime();
        });
        return done;
    }

    /** Sends Ready until this node's view has it UP: one lost or refused for back-pressure is sent again. */
    private int sendReadyUntilUp(final long nowNs)
    {
        if (upWanted == null || upWanted.isDone() || nowNs - nextReadyNs < 0)
        {
            return 0;
        }
        final Member self = view.member(nodeId);
        if (self != null && self.incarnation() == settings.incarnation() && self.status() != MemberStatus.JOINING)
        {
            upWanted.complete(null);
            return 1;
        }
        offer(requests.ready(nextCorrelationId++, nodeId, settings.incarnation()));
        nextReadyNs = nowNs + settings.retryInterval().toNanos();
        return 1;
    }

    /**
     * Records a graceful leave: LEAVING (the node drains), or, {@code done}, LEFT (it goes). Any thread.
     *
     * @param done whether the node goes now.
     * @return completes when the service recorded it.
     */
    public CompletableFuture<Void> leave(final boolean done)
    {
        final CompletableFuture<Void> recorded = new CompletableFuture<>();
        commands.offer(() ->
        {
            going |= done;
            request(recorded, requests.leave(nextCorrelationId, nodeId, settings.incarnation(), done));
        });
        return recorded;
    }

    /**
     * An operator's decision: down a member. Any thread.
     *
     * @param member      its node id.
     * @param incarnation its incarnation, or 0 for the live one.
     * @return completes when the service recorded it, or fails saying why not.
     */
    public CompletableFuture<Void> down(final int member, final long incarnation)
    {
        final CompletableFuture<Void> recorded = new CompletableFuture<>();
        commands.offer(() -> request(recorded, requests.down(nextCorrelationId, member, incarnation, nodeId)));
        return recorded;
    }

    private void request(final CompletableFuture<Void> done, final int length)
    {
        if (state != State.MEMBER || !offer(length))
        {
            done.completeExceptionally(new IllegalStateException("node " + nodeId + " has no session with the " +
                "membership service now (" + state + "); try again"));
            return;
        }
        pending.put(nextCorrelationId++, done);
    }

    /**
     * The epoch of this node's view of the table.
     *
     * @return -1 before the first table.
     */
    public long epoch()
    {
        return epoch;
    }

    /**
     * The live members as this node sees them; call on the client's thread (a listener), or copy through it.
     *
     * @return a read-only view.
     */
    public Collection<Member> members()
    {
        return view.members();
    }

    /**
     * Lease renewals the service accepted.
     *
     * @return the count.
     */
    public long renewals()
    {
        return renewals;
    }

    /**
     * Renewals that could not be sent (no session, back-pressure).
     *
     * @return the count.
     */
    public long renewalFailures()
    {
        return renewalFailures;
    }

    /**
     * Messages from the service dropped because they did not carry the session's tag, or were replayed.
     *
     * @return the count.
     */
    public long noticesRejected()
    {
        return session.noticesRejected();
    }

    @Override
    public void onClose()
    {
        pending.failAll("the membership client closed");
        session.close();
    }

    @Override
    public String roleName()
    {
        return "troupe-membership-" + settings.nodeId();
    }
}
