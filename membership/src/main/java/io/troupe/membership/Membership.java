package io.troupe.membership;

import io.aeron.cluster.service.Cluster;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.interconnect.LiveDriver;
import io.troupe.membership.internal.ClientListener;
import io.troupe.membership.internal.ClientSettings;
import io.troupe.membership.internal.ElectionWatch;
import io.troupe.membership.internal.MembershipClient;
import io.troupe.membership.internal.MembershipIdle;
import io.troupe.membership.internal.MembershipProof;
import io.troupe.membership.internal.Voter;
import io.troupe.membership.internal.VoterCounts;
import io.troupe.membership.internal.VoterSettings;
import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import io.troupe.membership.table.VoterAddress;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SystemNanoClock;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A node's membership: its own media driver, the voter it runs if it is one, and the client that joins, renews the
 * lease and follows the member table. Start it, {@link #awaitJoined} (the node id, assigned if the node brought
 * none), start the node's transport, then {@link #ready()}; {@link #leave(boolean)} before the node goes.
 */
public final class Membership implements AutoCloseable
{

    private final MembershipConfig config;
    private final MediaDriver driver;
    private final Voter voter;
    private final VoterCounts voterCounts;
    private final MembershipClient client;
    private final AgentRunner clientRunner;
    private final CountDownLatch decided = new CountDownLatch(1);
    private volatile int nodeId;
    private volatile String refused;
    private volatile List<Member> members = List.of();
    private final Subscribers subscribers = new Subscribers();

    /**
     * Who the node is and where it is reached: what it brings to the membership.
     *
     * @param nodeId      its node id, or 0 for one the service assigns.
     * @param incarnation this start's incarnation.
     * @param host        its interconnect host, as peers reach it.
     * @param port        its interconnect port.
     * @param clusterId   the cluster id.
     * @param secret      the cluster secret.
     * @param dataDir     its data directory (a voter keeps its log and snapshots under it).
     * @param aeronDir    the membership media driver's directory.
     */
    public record Identity(int nodeId, long incarnation, String host, int port, String clusterId, byte[] secret,
        File dataDir, String aeronDir)
    {
    }

    private Membership(final MembershipConfig config, final Identity identity, final MembershipEvents events,
        final ErrorHandler errors)
    {
        this.config = config.conclude();
        final IdleStrategy idle = MembershipIdle.strategy(config.maxIdlePark());
        if (LiveDriver.isAlive(Path.of(identity.aeronDir())))
        {
            throw new IllegalStateException("a media driver is running in " + identity.aeronDir() + ": is another " +
                "node using this membership directory? Give each node an Aeron directory of its own");
        }
        this.driver = MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(identity.aeronDir())
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(idle)
            // its name resolutions' thread idles the same way (Aeron's default back-off parks it 1 ms at most)
            .asyncExecutorIdleStrategy(MembershipIdle.strategy(config.maxIdlePark()))
            .termBufferSparseFile(true)
            .publicationTermBufferLength(256 * 1024)
            .ipcTermBufferLength(256 * 1024)
            .errorHandler(errors)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
        final MembershipProof proof = new MembershipProof(identity.secret(), identity.clusterId(),
            MembershipProof.votersDigest(this.config.voters()));
        final int voterIndex = config.voterIndex(identity.nodeId());
        this.voterCounts = new VoterCounts();
        Voter started = null;
        try
        {
            if (voterIndex >= 0)
            {
                started = Voter.launch(new VoterSettings(config.voters(), voterIndex,
                    new File(identity.dataDir(), "membership"), identity.aeronDir(), proof, config.lease(),
                    config.leaseCheck(), config.firstAssignedId(), config.maxMembers(), config.heartbeatTimeout(),
                    config.startupCanvass(), config.sessionTimeout(), config.maxIdlePark()), voterCounts, errors);
            }
            this.voter = started;
            this.client = new MembershipClient(new ClientSettings(config.voters(), proof, identity.nodeId(),
                identity.incarnation(), identity.host(), identity.port(), identity.host(), identity.aeronDir(),
                config.renewInterval(), config.safetyMargin(), config.joinTimeout(), config.retryInterval()),
                new Relay(events), SystemNanoClock.INSTANCE, errors);
            this.clientRunner = new AgentRunner(MembershipIdle.strategy(config.maxIdlePark()), errors, null,
                started == null ? client : new CompositeAgent(client, new ElectionWatch(started::electionState,
                    identity.nodeId(), SystemNanoClock.INSTANCE))
                {
                    @Override
                    public String roleName()
                    {
                        return client.roleName(); // the thread's name
                    }
                });
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(started, driver);
            if (voterIndex >= 0 && String.valueOf(ex.getMessage()).contains("Address already in use"))
            {
                final VoterAddress self = config.voters().get(voterIndex);
                throw new IllegalStateException("voter " + self.nodeId() + "'s ports " + self.host() + ":" +
                    self.port() + ".." + (self.port() + VoterAddress.PORTS - 1) + " are in use (is another node " +
                    self.nodeId() + " running on this host, or another program?)", ex);
            }
            throw ex;
        }
    }

    /**
     * Where a node keeps its membership's media driver: beside the Aeron directory of its transport.
     *
     * @param transportAeronDir the node's transport's Aeron directory.
     * @return the membership's Aeron directory.
     */
    public static String aeronDirBeside(final String transportAeronDir)
    {
        return transportAeronDir + "-membership";
    }

    /**
     * Starts a node's membership: it connects to the voters and joins on its own thread.
     *
     * @param config   the membership settings (voters configured).
     * @param identity who the node is.
     * @param events   who hears of changes and of a lost lease.
     * @param errors   where errors go.
     * @return the membership, joining.
     */
    public static Membership start(final MembershipConfig config, final Identity identity,
        final MembershipEvents events, final ErrorHandler errors)
    {
        final Membership membership = new Membership(config, identity, events, errors);
        AgentRunner.startOnThread(membership.clientRunner);
        return membership;
    }

    /**
     * Waits until the service recorded this node, or refused it.
     *
     * @param timeout how long to wait at most (the join timeout applies as well).
     * @return the node id.
     * @throws IllegalStateException saying why if the join was refused or took too long.
     */
    public int awaitJoined(final Duration timeout)
    {
        try
        {
            if (!decided.await(timeout.toMillis(), TimeUnit.MILLISECONDS))
            {
                throw new IllegalStateException("not joined within " + timeout.toMillis() + " ms");
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while joining", ex);
        }
        if (refused != null)
        {
            throw new IllegalStateException(refused);
        }
        return nodeId;
    }

    /**
     * This node serves now: JOINING becomes UP.
     *
     * @return completes when the service recorded it.
     */
    public CompletableFuture<Void> ready()
    {
        return client.ready();
    }

    /**
     * A graceful leave: LEAVING while the node drains ({@code done} false), then LEFT as it goes.
     *
     * @param done whether the node goes now.
     * @return completes when the service recorded it.
     */
    public CompletableFuture<Void> leave(final boolean done)
    {
        return client.leave(done);
    }

    /**
     * An operator's decision to down a member, recorded as a lapse is.
     *
     * @param member      its node id.
     * @param incarnation its incarnation, or 0 for the live one.
     * @return completes when recorded, or fails saying why not.
     */
    public CompletableFuture<Void> down(final int member, final long incarnation)
    {
        return client.down(member, incarnation);
    }

    /**
     * Where member events are sent from: the node's actor system, once it runs.
     *
     * @param system the node's actor system.
     */
    public void deliverEventsFrom(final ActorSystem system)
    {
        subscribers.deliverFrom(system);
    }

    /**
     * Tells an actor of this node of every member change from now on ({@link MemberUp}, {@link MemberLeft},
     * {@link MemberDowned}), and at once of each member up now. Subscribing twice changes nothing.
     *
     * @param subscriber the actor.
     * @throws IllegalStateException if the node's actor system does not run yet, or there are too many subscribers.
     */
    public void subscribe(final ActorId subscriber)
    {
        final List<Member> up = new ArrayList<>();
        for (final Member member : members)
        {
            if (member.status() == MemberStatus.UP)
            {
                up.add(member);
            }
        }
        subscribers.subscribe(subscriber, up);
    }

    /**
     * Stops telling an actor of member changes.
     *
     * @param subscriber the actor.
     * @return whether it was subscribed.
     */
    public boolean unsubscribe(final ActorId subscriber)
    {
        return subscribers.unsubscribe(subscriber);
    }

    /**
     * The live members as this node last heard them.
     *
     * @return an immutable list, in node id order.
     */
    public List<Member> members()
    {
        return members;
    }

    /**
     * The epoch of this node's view.
     *
     * @return -1 before the first table.
     */
    public long epoch()
    {
        return client.epoch();
    }

    /**
     * Whether this node runs a voter.
     *
     * @return true if it is one of the voters.
     */
    public boolean isVoter()
    {
        return voter != null;
    }

    /**
     * This node's voter's role.
     *
     * @return its role, or null if it is no voter.
     */
    public Cluster.Role role()
    {
        return voter == null ? null : voter.service().role();
    }

    /**
     * Lease renewals the service accepted.
     *
     * @return the count.
     */
    public long renewals()
    {
        return client.renewals();
    }

    /**
     * Renewals that could not be sent (no session with the service, back-pressure).
     *
     * @return the count.
     */
    public long renewalFailures()
    {
        return client.renewalFailures();
    }

    /**
     * Messages from the membership service this node dropped: without its session's tag, or replayed.
     *
     * @return the count.
     */
    public long noticesRejected()
    {
        return client.noticesRejected();
    }

    /**
     * What this node's voter has counted.
     *
     * @param figure which figure.
     * @return its count, or 0 if this node is no voter.
     */
    long voterFigure(final VoterCounts.Figure figure)
    {
        return voter == null ? 0 : voterCounts.get(figure);
    }

    /**
     * The settings.
     *
     * @return the config.
     */
    public MembershipConfig config()
    {
        return config;
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(clientRunner, voter, driver);
    }

    /** Hears the client on its thread: records the join and the view, and passes changes on. */
    private final class Relay implements ClientListener
    {
        private final MembershipEvents events;

        private Relay(final MembershipEvents events)
        {
            this.events = events;
        }

        @Override
        public void onJoined(final int id, final long epoch)
        {
            nodeId = id;
            decided.countDown();
        }

        @Override
        public void onChange(final Member member)
        {
            members = List.copyOf(client.members());
            events.onChange(member);
            subscribers.publish(member);
        }

        @Override
        public void onRefused(final String why)
        {
            refused = why;
            decided.countDown();
        }

        @Override
        public void onLeaseLost(final String why)
        {
            events.onLeaseLost(why);
        }
    }
}
