package io.troupe.node;

import io.troupe.actor.ActorSystem;
import io.troupe.interconnect.Interconnect;
import io.troupe.interconnect.InterconnectConfig;
import io.troupe.interconnect.PeerAddress;
import io.troupe.membership.Membership;
import io.troupe.membership.MembershipConfig;
import io.troupe.membership.MembershipEvents;
import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import io.troupe.node.client.ClientIngress;
import io.troupe.registry.ClusterEndpoints;
import io.troupe.registry.RegistryCodecs;
import org.agrona.ErrorHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A node's part in the membership: it joins before the node serves, keeps the interconnect's peers the live
 * members (a session is opened to each member that joins and closed for each that leaves or is downed), tells the
 * service when the node serves and when it leaves, and stops the node when its lease is lost. The member changes
 * arrive on the membership's thread and the start-up's reconciliation on the starting thread: both change the
 * peers under this object's lock (a few times per membership change, never on a message path).
 */
final class NodeMembership implements MembershipEvents, AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(NodeMembership.class);
    /** How long a leave may take to be recorded before the node goes anyway (its lease then lapses as LEFT). */
    private static final long LEAVE_WAIT_MS = 2_000;

    /** The id the node joined as (0 while it joins). */
    private volatile int nodeId;
    private final Membership membership;
    /** The incarnation each peer was added for: a newer one of the same node replaces it. */
    private final Map<Integer, Long> peers = new HashMap<>();
    /** What stops the node when its lease is lost; null until the node is up ({@link #attach}). */
    private Consumer<String> onLeaseLost;
    /** Why the lease was lost before the node was up, if it was: the node stops as soon as it is. */
    private String lostBeforeAttach;
    private Interconnect interconnect;
    private ClientIngress clients;

    private NodeMembership(final Membership membership)
    {
        this.membership = membership;
    }

    /**
     * Starts the node's membership and waits until the service recorded the node.
     *
     * @param config      the node's config (membership enabled).
     * @param nodeId      the id the node asks for: its configured one, the one assigned at its last start, or 0 for
     *                    one the membership assigns.
     * @param incarnation this start's incarnation.
     * @param errors      where errors go.
     * @return the membership, joined.
     * @throws NodeStartException saying why the node could not join.
     */
    static NodeMembership join(final NodeConfig config, final int nodeId, final long incarnation,
        final ErrorHandler errors)
    {
        final MembershipConfig settings = config.membershipConfig();
        final InterconnectConfig transport = config.interconnectConfig().conclude(config.nodeId());
        final String who = nodeId == 0 ? "the node" : "node " + nodeId;
        // the membership's thread may report before the object exists: nothing is followed before attach anyway
        final AtomicReference<NodeMembership> self = new AtomicReference<>();
        final MembershipEvents relay = new MembershipEvents()
        {
            @Override
            public void onChange(final Member member)
            {
                final NodeMembership target = self.get();
                if (target != null)
                {
                    target.onChange(member);
                }
            }

            @Override
            public void onLeaseLost(final String why)
            {
                final NodeMembership target = self.get();
                if (target != null)
                {
                    target.onLeaseLost(why);
                }
            }
        };
        final Membership membership;
        try
        {
            membership = Membership.start(settings, new Membership.Identity(nodeId, incarnation,
                transport.bindHost(), transport.bindPort(), transport.clusterId(), transport.clusterSecret(),
                config.dataDir().toFile(), Membership.aeronDirBeside(transport.aeronDir())), relay, errors);
        }
        catch (final RuntimeException ex)
        {
            throw new NodeStartException(who + " could not start its membership: " + ex.getMessage(), ex);
        }
        final NodeMembership joining = new NodeMembership(membership);
        self.set(joining);
        try
        {
            final int joinedAs = membership.awaitJoined(settings.joinTimeout().plusSeconds(5));
            LOG.info("node {}: joined the membership (epoch {}{}{})", joinedAs, membership.epoch(),
                nodeId == 0 ? ", its id assigned" : "", membership.isVoter() ? ", a voter" : "");
            joining.nodeId = joinedAs;
            return joining;
        }
        catch (final RuntimeException ex)
        {
            membership.close();
            throw new NodeStartException(who + " could not join the cluster: " + ex.getMessage(), ex);
        }
    }

    /**
     * The node's transport is up: every live member becomes a peer, and from now on each change does.
     *
     * @param system    the node's actor system: member events to subscribers are sent from it.
     * @param transport the interconnect.
     * @param leaseLost what stops the node when its lease is lost.
     */
    void attach(final ActorSystem system, final Interconnect transport, final Consumer<String> leaseLost)
    {
        membership.deliverEventsFrom(system);
        synchronized (this)
        {
            this.onLeaseLost = leaseLost;
            if (lostBeforeAttach != null)
            {
                leaseLost.accept(lostBeforeAttach); // the node stops: it follows no member and never says ready
                return;
            }
            this.interconnect = transport;
            for (final Member member : membership.members())
            {
                update(member);
            }
        }
    }

    /**
     * The node admits clients (after {@link #attach}): the ingress learns where clients reach the cluster, now and
     * at each change.
     *
     * @param ingress the client ingress.
     */
    synchronized void admitClients(final ClientIngress ingress)
    {
        this.clients = ingress;
        tellClients();
    }

    /**
     * The node serves: JOINING becomes UP. Does not wait.
     *
     * @return completes when the service recorded it.
     */
    CompletableFuture<Void> ready()
    {
        synchronized (this)
        {
            if (lostBeforeAttach != null)
            {
                return CompletableFuture.failedFuture(new IllegalStateException(lostBeforeAttach));
            }
        }
        return membership.ready();
    }

    /**
     * The node starts to drain: LEAVING, so that the others know it goes. Waits a little for the record.
     */
    void leaving()
    {
        await(membership.leave(false), "leaving");
    }

    /**
     * The node has drained and goes: LEFT.
     */
    void left()
    {
        await(membership.leave(true), "left");
    }

    private void await(final CompletableFuture<Void> recorded, final String what)
    {
        try
        {
            recorded.get(LEAVE_WAIT_MS, TimeUnit.MILLISECONDS);
        }
        catch (final ExecutionException | TimeoutException ex)
        {
            LOG.warn("node {}: the membership did not record it as {} ({}); its lease lapses instead", nodeId, what,
                ex.getCause() == null ? ex : ex.getCause().getMessage());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The id the node joined as.
     *
     * @return the configured or assigned id.
     */
    int nodeId()
    {
        return nodeId;
    }

    /**
     * The membership, for the node's operations (members, down).
     *
     * @return the membership.
     */
    Membership membership()
    {
        return membership;
    }

    @Override
    public void onChange(final Member member)
    {
        synchronized (this)
        {
            if (interconnect != null)
            {
                update(member);
                tellClients();
            }
        }
    }

    /** The client ingress learns where clients reach the cluster now: the members up. */
    private void tellClients()
    {
        if (clients == null)
        {
            return;
        }
        final List<String> endpoints = new ArrayList<>();
        for (final Member member : membership.members())
        {
            if (member.status() == MemberStatus.UP && endpoints.size() < RegistryCodecs.MAX_ENDPOINTS)
            {
                endpoints.add(member.host() + ':' + member.port());
            }
        }
        clients.endpoints(new ClusterEndpoints(membership.epoch(), endpoints));
    }

    private void update(final Member member)
    {
        if (member.nodeId() == nodeId)
        {
            return;
        }
        try
        {
            updatePeer(member);
        }
        catch (final RuntimeException ex) // the interconnect is closing, or its command queue is full
        {
            LOG.warn("node {}: could not follow the change of member {}: {}", nodeId, member, ex.getMessage());
        }
    }

    private void updatePeer(final Member member)
    {
        final Long known = peers.get(member.nodeId());
        if (member.status().isLive())
        {
            if (known == null)
            {
                peers.put(member.nodeId(), member.incarnation());
                interconnect.addPeer(new PeerAddress(member.nodeId(), member.host(), member.port()));
                LOG.info("node {}: member {} is a peer", nodeId, member);
            }
            else if (known != member.incarnation())
            {
                peers.put(member.nodeId(), member.incarnation()); // a restart: the session follows the new one
            }
        }
        else if (known != null && known == member.incarnation())
        {
            peers.remove(member.nodeId());
            interconnect.removePeer(member.nodeId());
            LOG.info("node {}: member {} is no peer any more", nodeId, member);
        }
    }

    @Override
    public void onLeaseLost(final String why)
    {
        final Consumer<String> stop;
        synchronized (this)
        {
            stop = onLeaseLost;
            if (stop == null)
            {
                lostBeforeAttach = why;
                return;
            }
        }
        stop.accept(why);
    }

    @Override
    public void close()
    {
        membership.close();
    }
}
