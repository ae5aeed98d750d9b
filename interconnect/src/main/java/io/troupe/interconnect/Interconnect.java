package io.troupe.interconnect;

import io.troupe.actor.spi.RemoteTransport;
import io.aeron.Image;
import io.troupe.actor.Undelivered;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.Envelope;
import io.troupe.actor.UndeliveredReason;
import io.troupe.memquota.CollapseReason;
import io.troupe.memquota.CollapsedException;
import io.troupe.memquota.MemoryQuotaException;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.serialization.wire.DirectoryEntry;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Makes an {@link ActorSystem} part of a cluster: embeds (or connects to) an Aeron media driver, opens one
 * inbound endpoint and, per peer, a publication on each of the control, data and bulk streams, runs the
 * sessions on its agent thread, and carries envelopes for other nodes ({@link RemoteTransport}).
 *
 * <p>Sending never blocks: an envelope for another node is encoded on the sending thread and queued for its
 * peer in an {@code OutboundQueue} of the node's memory quota; the agent drains the queues into the
 * publications. Thread safe.
 */
public final class Interconnect implements RemoteTransport, AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(Interconnect.class);
    /** Actors one peer's {@code NodeConnected}/{@code NodeDisconnected} may be told to at most. */
    public static final int MAX_SUBSCRIBERS_PER_PEER = 65_536;

    private final ActorSystem system;
    private final InterconnectConfig config;
    private final InterconnectAgent agent;
    private final InterconnectCounters counters;
    /** What this node's driver lets in: also counts the images of the client ingress's subscriptions. */
    private final ImageGuard guard;
    private final AgentIdle agentIdle;
    /** Whether the caller runs the duty cycles ({@link #dutyCycle()}) rather than a thread of our own. */
    private final boolean callerDriven;
    private boolean started;
    /** This node's peers: senders find theirs here. */
    private final PeerRoster peers;
    /** Checks and queues the changes of peers ({@link #addPeer}, {@link #removePeer}). */
    private final PeerChanges changes;
    private final long incarnation;
    private final int largestEventBytes;
    /** Encodes what senders send, on their own threads. */
    private final OutboundEncoder encoder;
    /** Takes the transport down: {@link #close()} and {@link #kill()}. */
    private final InterconnectShutdown shutdown;
    private volatile boolean closed;

    /**
     * The facade over what {@link InterconnectStartup} wired; the encoder, the counters and the changes of peers
     * are its own.
     */
    Interconnect(
        final ActorSystem system,
        final InterconnectConfig config,
        final EventCodecRegistry codecs,
        final long incarnation,
        final PeerRoster peers,
        final InterconnectAgent agent,
        final ImageGuard guard,
        final AgentIdle agentIdle,
        final boolean callerDriven,
        final InterconnectShutdown shutdown)
    {
        this.callerDriven = callerDriven;
        this.system = system;
        this.config = config;
        this.incarnation = incarnation;
        this.largestEventBytes = config.maxEventBytes();
        this.encoder = new OutboundEncoder(codecs, largestEventBytes);
        this.guard = guard;
        this.peers = peers;
        this.agent = agent;
        this.counters = new InterconnectCounters(agent);
        this.changes = new PeerChanges(agent, guard, config.peers());
        this.agentIdle = agentIdle;
        this.shutdown = shutdown;
    }

    /**
     * Starts the interconnect of a node and attaches it to the node's actor system.
     *
     * @param system the node's actor system (its node id is the interconnect's).
     * @param config the settings; concluded here.
     * @param codecs the codecs of every event type that crosses nodes.
     * @return the running interconnect.
     * @throws IllegalArgumentException if a setting is invalid.
     */
    public static Interconnect start(final ActorSystem system, final InterconnectConfig config,
        final EventCodecRegistry codecs)
    {
        return InterconnectStartup.start(system, config, codecs, SystemNanoClock.INSTANCE, false);
    }

    /**
     * Starts an interconnect whose duty cycles the caller runs, one at a time, with {@link #dutyCycle()}, on a
     * clock the caller controls: for deterministic tests of handshakes, heartbeats, failure detection and acks
     * (advance the clock, run a cycle, look). Nothing runs between calls, except the media driver when it has a
     * thread of its own ({@link InterconnectConfig#driverOnAgentThread} false); with the driver on the agent's
     * thread, each cycle runs the driver's duty cycle too. Sends are accepted and queued as usual.
     *
     * @param system the node's actor system.
     * @param config the settings; concluded here.
     * @param codecs the codecs of every event type that crosses nodes.
     * @param clock  the clock the agent reads once per duty cycle (the media driver keeps its own).
     * @return the interconnect, attached to the system, not yet run.
     * @throws IllegalArgumentException if a setting is invalid.
     */
    public static Interconnect startCallerDriven(
        final ActorSystem system,
        final InterconnectConfig config,
        final EventCodecRegistry codecs,
        final NanoClock clock)
    {
        return InterconnectStartup.start(system, config, codecs, clock, true);
    }

    @Override
    public UndeliveredReason send(final Envelope envelope)
    {
        final Peer peer = peers.find(envelope.recipient().nodeId());
        if (peer == null || !peer.isEstablished() || closed)
        {
            if (peer != null)
            {
                peer.refusedDown.incrementAndGet();
            }
            return UndeliveredReason.DISCONNECTED;
        }
        final OutboundFramePool frames = agent.frames;
        final OutboundFrame outbound = frames.acquire();
        try
        {
            encoder.encode(envelope, outbound);
        }
        catch (final RuntimeException ex)
        {
            frames.release(outbound);
            throw ex;
        }
        outbound.describe(envelope.isTracked() ? envelope : null, pairHash(envelope.sender(), envelope.recipient()),
            envelope.account(), envelope.cost());
        try
        {
            // an Undelivered may use the room kept for notices: a tracked event must end reported, flood or not
            if (!peer.outbound.send(outbound, envelope.type() == Undelivered.TYPE))
            {
                frames.release(outbound);
                peer.shed.incrementAndGet();
                return UndeliveredReason.SHED;
            }
        }
        catch (final CollapsedException ex)
        {
            frames.release(outbound);
            // a queue closed because its peer was removed refuses as a send to any node that is not a peer
            return ex.reason() == CollapseReason.RECEIVER_DROPPED ? UndeliveredReason.DISCONNECTED :
                UndeliveredReason.COLLAPSED;
        }
        catch (final MemoryQuotaException ex)
        {
            frames.release(outbound);
            return UndeliveredReason.DISCONNECTED;
        }
        // queued: the frame answers for the cost from now on (handed on when written, repaid if dropped)
        envelope.takeRepayment();
        agentIdle.signal();
        return null;
    }

    private static int pairHash(final ActorId sender, final ActorId recipient)
    {
        final long mixed = sender.raw1() * 0x9E37_79B9_7F4A_7C15L ^ recipient.raw1() * 0xC2B2_AE3D_27D4_EB4FL ^
            sender.raw2() ^ (recipient.raw2() << 1);
        return (int)(mixed ^ (mixed >>> 32));
    }

    @Override
    public void subscribe(final int nodeId, final ActorId subscriber)
    {
        if (!agent.command(() -> agent.notices.subscribe(nodeId, subscriber)))
        {
            LOG.warn("node {}: interconnect command queue full; subscription of {} to node {} dropped",
                system.nodeId(), subscriber, nodeId);
        }
        agentIdle.signal();
    }

    @Override
    public void unsubscribe(final int nodeId, final ActorId subscriber)
    {
        agent.command(() -> agent.notices.unsubscribe(nodeId, subscriber));
        agentIdle.signal();
    }

    /**
     * Whether a session with a node is up.
     *
     * @param nodeId the node.
     * @return true if connected.
     */
    public boolean isConnected(final int nodeId)
    {
        final Peer peer = peers.find(nodeId);
        return peer != null && peer.isEstablished();
    }

    /**
     * Makes a node a peer of this one while it runs: publications to it open and, if this node has the lower id, its
     * handshakes start. Applied on the interconnect's thread, in order with every other change of peers; the peer
     * must name this node among its own (configured or added) for a session to come up. Any thread.
     *
     * @param address where the node listens.
     * @return completes once the peer is added (on the interconnect's thread); exceptionally if that failed.
     * @throws IllegalArgumentException if the address is invalid, names this node, or the node is a peer already.
     * @throws IllegalStateException    if the interconnect is closed or its command queue is full.
     */
    public CompletableFuture<Void> addPeer(final PeerAddress address)
    {
        final CompletableFuture<Void> applied = changes.add(address, () -> closed);
        agentIdle.signal();
        return applied;
    }

    /**
     * Removes a peer while the node runs: its session, if up, ends with a goodbye; what was sent to it and not
     * acknowledged, or still queued, is reported {@code Undelivered(DISCONNECTED)} (untracked events are dropped
     * and counted, {@link InterconnectCounters#lostToRemovedPeers}); the credit it held is written off; its
     * handshakes stop; its publications close; {@link #peerCounters} no longer lists it; and a send to its node is
     * refused as to any node that is not a peer. Applied on the interconnect's thread, in order with every other
     * change of peers. Any thread.
     *
     * @param nodeId the peer's node id.
     * @return completes once the peer is removed (on the interconnect's thread); exceptionally if that failed.
     * @throws IllegalArgumentException if the node is not a peer.
     * @throws IllegalStateException    if the interconnect is closed or its command queue is full.
     */
    public CompletableFuture<Void> removePeer(final int nodeId)
    {
        final CompletableFuture<Void> applied = changes.remove(nodeId, () -> closed);
        agentIdle.signal();
        return applied;
    }

    /**
     * This node's incarnation: new on every start.
     *
     * @return the incarnation.
     */
    public long incarnation()
    {
        return incarnation;
    }

    /**
     * The largest encoded event that may be sent to another node.
     *
     * @return bytes.
     */
    public int largestEventBytes()
    {
        return largestEventBytes;
    }

    /**
     * The node-wide counters: what was refused, dropped or renewed, and why.
     *
     * @return the counters, read on any thread.
     */
    public InterconnectCounters counters()
    {
        return counters;
    }

    /**
     * Per-peer counters.
     *
     * @return one entry per peer (configured, or added and not removed).
     */
    public List<PeerCounters> peerCounters()
    {
        final List<PeerCounters> list = new ArrayList<>();
        for (final Peer peer : peers.all())
        {
            list.add(peer.counters());
        }
        return list;
    }

    /**
     * Sets who hears the directory updates peers send (the service directory); see {@link DirectoryListener}. What
     * peers sent before a listener was set (a session comes up as soon as the interconnect runs, and a peer sends
     * its snapshot at once) waits, per peer and in order, and goes to the listener first.
     *
     * @param listener the listener, or null for none (updates then wait for one, up to a bound per peer; past it
     *                 they are dropped and counted, and a listener set later has that peer's session ended so that a
     *                 new one resends its snapshot).
     */
    public void directoryListener(final DirectoryListener listener)
    {
        agent.directoryListener = listener;
        if (listener != null)
        {
            agent.command(agent.inbound.directory::listenerSet);
        }
    }

    /**
     * Sends this node's directory, or a change to it, to a peer on its control stream: in order with every
     * earlier update to that peer, split into frames that fit a control message (the parts of a snapshot share its
     * version). An update for a peer with no session up is dropped: send a snapshot when the next session starts
     * ({@code NodeConnected}). Any thread.
     *
     * @param nodeId   the peer.
     * @param version  this node's directory version the update brings the peer to.
     * @param snapshot whether the entries are the whole directory (they replace what the peer holds of this node).
     * @param entries  services of this node ({@code ServiceId} of this node's id) and actors of this node.
     * @return false if the peer is not configured or the interconnect's command queue is full (try again).
     * @throws IllegalArgumentException if an entry names another node's service or actor.
     */
    public boolean sendDirectoryUpdate(final int nodeId, final long version, final boolean snapshot,
        final List<DirectoryEntry> entries)
    {
        final int own = system.nodeId();
        for (final DirectoryEntry entry : entries)
        {
            if (entry.service().nodeId() != own || entry.actor().nodeId() != own || entry.actor().isService())
            {
                throw new IllegalArgumentException("a directory update of node " + own + " names only its own " +
                    "services and actors, not " + entry);
            }
        }
        final Peer peer = peers.find(nodeId);
        if (peer == null)
        {
            return false;
        }
        final List<DirectoryEntry> copy = List.copyOf(entries);
        return agent.command(() -> agent.directory.queue(peer, version, snapshot, copy));
    }

    /**
     * Runs another agent's duty cycle on the interconnect's thread, inside each of the interconnect's own, from
     * the next cycle on: for an agent that reads and writes Aeron streams of the node's media driver (the node's
     * client ingress), so that what arrives is read in the cycle that received it and what it offers is sent in
     * the next, with no hand-off between threads. The duty must not block (it runs beside the node's sessions) and
     * should use Aeron's asynchronous calls; an exception it throws is logged and the cycle goes on. It is closed
     * ({@code Agent.onClose}) on this thread by {@link #removeDuty} or when the interconnect closes, before the
     * interconnect's own goodbyes.
     *
     * @param duty the agent.
     * @throws IllegalStateException if the interconnect is closed or its command queue is full.
     */
    public void addDuty(final Agent duty)
    {
        Objects.requireNonNull(duty, "duty");
        if (closed || !agent.command(() -> agent.addDuty(duty)))
        {
            throw new IllegalStateException(closed ? "the interconnect is closed" :
                "the interconnect's command queue is full");
        }
        agentIdle.signal();
    }

    /**
     * Stops running a duty and closes it on the interconnect's thread, waiting until it is closed (or the
     * interconnect closed it already).
     *
     * @param duty    the agent given to {@link #addDuty}.
     * @param timeout how long to wait for the interconnect's thread.
     * @return true if it was closed within the timeout.
     * @throws InterruptedException if interrupted while waiting.
     */
    public boolean removeDuty(final Agent duty, final Duration timeout)
        throws InterruptedException
    {
        final CountDownLatch done = new CountDownLatch(1);
        if (closed || !agent.command(() ->
        {
            agent.removeDuty(duty);
            done.countDown();
        }))
        {
            return closed;
        }
        agentIdle.signal();
        return done.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Makes sure the interconnect's thread runs a cycle soon (a duty has work from another thread). Any thread. */
    public void wake()
    {
        agentIdle.signal();
    }

    /**
     * Tells the image guard that an image of a client stream appeared on a subscription of the node's client ingress
     * (its {@code AvailableImageHandler}), so that the images per source address stay bounded
     * ({@link ClientStreamSettings#imagesPerAddress}); with an external driver, an image beyond the bound is
     * rejected here.
     *
     * @param image the image.
     */
    public void clientImageAvailable(final Image image)
    {
        guard.onAvailable(image);
    }

    /**
     * Tells the image guard that an image of a client stream went away.
     *
     * @param image the image.
     */
    public void clientImageUnavailable(final Image image)
    {
        guard.onUnavailable(image);
    }

    /**
     * The settings in use.
     *
     * @return the concluded config.
     */
    public InterconnectConfig config()
    {
        return config;
    }

    /**
     * Why the node's Aeron client closed under this interconnect (its media driver stopped, or the client and the
     * driver timed each other out), or null while the transport works. Once set, every session has ended, sends to
     * other nodes fail fast with {@code Undelivered(DISCONNECTED)}, and nothing reconnects: the owner should stop
     * the node (a node process does, and exits with 1).
     *
     * @return the reason, or null.
     */
    public String transportLost()
    {
        return agent.transportLostReason;
    }

    /**
     * Sets who hears, once, that the transport is gone ({@link #transportLost}); if it is gone already, the listener
     * hears at once. The listener runs on the interconnect's thread (or the caller's) and must not block: start the
     * node's close on a thread of its own.
     *
     * @param listener takes the reason.
     */
    public void onTransportLost(final Consumer<String> listener)
    {
        final AtomicBoolean told = new AtomicBoolean();
        final Consumer<String> once = why ->
        {
            if (told.compareAndSet(false, true))
            {
                listener.accept(why);
            }
        };
        agent.onTransportLost = once;
        final String already = agent.transportLostReason;
        if (already != null)
        {
            once.accept(already);
        }
    }


    /**
     * Runs one duty cycle of the agent on the calling thread (the first call starts it): receives, runs the
     * sessions' timers against the clock given at start, sends and acknowledges. Only for an interconnect
     * started with {@link #startCallerDriven}, and only from one thread at a time.
     *
     * @return the work done (0 if there was nothing to do).
     * @throws IllegalStateException if the interconnect runs its own thread, or is closed.
     */
    public int dutyCycle()
    {
        if (!callerDriven)
        {
            throw new IllegalStateException("this interconnect runs its own duty cycle; start it with " +
                "startCallerDriven");
        }
        if (closed)
        {
            throw new IllegalStateException("the interconnect is closed");
        }
        if (!started)
        {
            started = true;
            agent.onStart();
        }
        return agent.doWork();
    }

    /** For tests of a caller-driven interconnect: a peer's session state, read on the thread that drives it. */
    Peer peerState(final int nodeId)
    {
        return peers.find(nodeId);
    }

    /** For tests: HELLOs this node has sent (first tries and retries), read racily. */
    long hellosSent()
    {
        return agent.sessions.hellosSent;
    }

    /** For tests: the agent's credit ledger (read racily; only while credit traffic is quiet). */
    RemoteCredit agentCredit()
    {
        return agent.credit;
    }

    /** For tests: stops as a killed process would, without goodbyes and without reporting anything. */
    void kill()
    {
        closed = true;
        shutdown.kill(this);
    }

    /**
     * Refuses new sends, lingers until every connected peer has acknowledged what was queued and sent to it
     * (for at most the failure timeout, after which a silent peer would be declared down anyway), then says
     * goodbye to every peer, reports what is still queued or
     * unacknowledged as {@link UndeliveredReason#SHUTDOWN}, detaches from the actor system, and closes Aeron
     * and the embedded driver (whose directory is removed). The linger matters because a goodbye travels on
     * the control stream and events on the others: without it, a peer could read the goodbye, end the session
     * and drop events sent before it.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        shutdown.close(this);
    }
}
