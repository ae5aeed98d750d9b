package io.troupe.interconnect;

import io.aeron.Image;
import io.troupe.actor.AgentErrorLog;
import io.troupe.interconnect.seal.HandshakeAuth;
import io.troupe.interconnect.seal.FrameSeal;
import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.Envelope;
import io.troupe.actor.UndeliveredReason;
import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.serialization.wire.GoodbyeReason;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The interconnect's one thread: runs the Aeron client conductor, polls the three inbound streams, runs the
 * sessions (handshake, heartbeats, failure detection, acks), and drains each peer's outbound queue into its
 * publications. Owns every session's state; senders reach it only through the peers' outbound queues and the
 * command queue.
 */
final class InterconnectAgent implements Agent
{
    private static final Logger LOG = LoggerFactory.getLogger(InterconnectAgent.class);
    private static final int FRAGMENT_LIMIT = 64;

    final InterconnectConfig config;
    final ActorSystem system;
    /** The system's transport side: what arrives from peers, and the notices about them, go in here. */
    final ActorSystemSpi host;
    final int nodeId;
    final long incarnation;
    final NanoClock clock;
    /** The clock at the start of the current duty cycle: one read per cycle, not one per received frame. */
    long cycleNs;
    /** A gap between two duty cycles longer than this means this node stood still (see {@link #doWork}). */
    private final long failureTimeoutNs;
    /** This node's peers: the agent adds and removes them; senders find them there. */
    final PeerRoster roster;
    /** Applies the peers added and removed at run time. */
    final PeerMembership membership;
    final Sessions sessions;
    final FrameEncoder encoder = new FrameEncoder();
    /** Credit accounts across nodes: deltas to owners, debt held by peers. */
    final RemoteCredit credit;
    final UnsafeBuffer scratch;
    /** Where outgoing messages are sealed before they are offered ({@link Peer#offerSealed}). */
    final UnsafeBuffer sealBuffer;
    /** The longest sealed message a peer with this node's configuration sends; longer ones are rejected unopened. */
    final int largestSealedMessage;
    /** Largest body one offer may carry on the bulk stream, seal excluded; larger frames go as chunks. */
    final int bulkMessageLimit;
    /** The Undelivered and node notices to actors of this node, and the peers' subscribers. */
    final NodeNotices notices;
    /** What happens around a session's coming up and going down. */
    final SessionLifecycle lifecycle;
    /** Inbound streams found stalled (each ended the session with its peer). */
    final AtomicLong streamsStalled = new AtomicLong();
    /** Times this node renewed its publications to a peer that found a stream of ours stalled. */
    final AtomicLong publicationsRenewed = new AtomicLong();
    /** Handshake steps left unanswered because the peer's data or bulk stream had no image here yet. */
    final AtomicLong handshakeStepsDeferred = new AtomicLong();
    private final PeerPublications publications;
    /** Sends the service directory's updates to peers (see {@link Interconnect#sendDirectoryUpdate}). */
    final DirectorySender directory;
    /** Hears the peers' directory updates; null until the service directory sets one. */
    volatile DirectoryListener directoryListener;
    private final StreamStallWatch stallWatch;
    /** Large frames dropped half assembled because the memory quota could not hold them (each ended a session). */
    final AtomicLong chunkFramesDropped = new AtomicLong();
    /** What arrived and was dropped, by reason (shared with the guard, which counts refused images). */
    final Rejections rejections;
    private final AgentInvoker driverInvoker;
    private final AgentInvoker clientInvoker;
    private final Subscription controlSubscription;
    private final Subscription dataSubscription;
    private final Subscription bulkSubscription;
    private final FragmentAssembler controlAssembler;
    private final FragmentAssembler dataAssembler;
    private final FragmentAssembler bulkAssembler;
    final InboundFrames inbound;
    private final ManyToOneConcurrentArrayQueue<Runnable> commands = new ManyToOneConcurrentArrayQueue<>(4096);
    private static final Agent[] NO_DUTIES = new Agent[0];
    /** Other agents whose duty cycles run in this one's (the node's client ingress); changed by commands only. */
    private Agent[] duties = NO_DUTIES;
    private final ErrorHandler dutyErrors;
    private final ErrorHandler transportErrors;
    private final long heartbeatIntervalNs;
    private final long ackIntervalNs;
    private volatile boolean closing;
    private volatile boolean killed;
    /** Set by {@link Interconnect#close()}: compute {@link #flushed} every duty cycle. */
    private volatile boolean lingering;
    /** Whether every established peer has acknowledged everything queued and sent to it (while lingering). */
    private volatile boolean flushed;
    /** Why the Aeron client closed under the agent ({@link #transportClosed}), or null while it is open. */
    volatile String transportLostReason;
    /** Hears once that the transport is gone; set by the owner before the agent runs. */
    volatile Consumer<String> onTransportLost = why -> { };

    /**
     * Pooled outbound frames: senders take them in {@link Interconnect#send}, this agent gives them back. As many
     * small frames are kept as one peer's outbound queue holds, so a sender that keeps a queue full allocates none.
     */
    final OutboundFramePool frames;
    /** Moves each peer's queued frames onto its publications. */
    final OutboundSender outboundSender;

    InterconnectAgent(
        final InterconnectConfig config,
        final ActorSystem system,
        final long incarnation,
        final NanoClock clock,
        final PeerRoster roster,
        final AgentInvoker driverInvoker,
        final AgentInvoker clientInvoker,
        final Subscription controlSubscription,
        final Subscription dataSubscription,
        final Subscription bulkSubscription,
        final HandshakeAuth auth,
        final EventCodecRegistry codecs,
        final Rejections rejections,
        final PeerPublications publications,
        final CountersReader counters)
    {
        this.publications = publications;
        this.stallWatch = new StreamStallWatch(counters, config.failureTimeout().toNanos());
        this.failureTimeoutNs = config.failureTimeout().toNanos();
        this.rejections = rejections;
        this.config = config;
        this.frames = new OutboundFramePool(config.outboundQueueCapacity());
        this.system = system;
        this.host = ActorSystemSpi.of(system);
        this.nodeId = system.nodeId();
        this.incarnation = incarnation;
        this.clock = clock;
        this.dutyErrors = new AgentErrorLog(LOG, "node " + system.nodeId() + ": a duty on the interconnect thread",
            system.errorRecorder());
        this.transportErrors = new AgentErrorLog(LOG, "node " + system.nodeId() + ": transport",
            system.errorRecorder());
        this.roster = roster;
        this.membership = new PeerMembership(this);
        this.driverInvoker = driverInvoker;
        this.clientInvoker = clientInvoker;
        this.controlSubscription = controlSubscription;
        this.dataSubscription = dataSubscription;
        this.bulkSubscription = bulkSubscription;
        this.bulkMessageLimit = InterconnectConfig.maxMessageLength(config.bulkTermLength()) - FrameSeal.OVERHEAD;
        this.scratch = new UnsafeBuffer(new byte[Math.max(64 * 1024, bulkMessageLimit)]);
        this.largestSealedMessage =
            Math.max(Math.max(64 * 1024, InterconnectConfig.maxMessageLength(config.bulkTermLength())),
            InterconnectConfig.maxMessageLength(config.dataTermLength()));
        this.sealBuffer = new UnsafeBuffer(new byte[largestSealedMessage + FrameSeal.OVERHEAD]);
        this.sessions = new Sessions(this, auth, codecs);
        this.inbound = new InboundFrames(this, codecs);
        this.controlAssembler = new FragmentAssembler(inbound::onControlFragment);
        this.dataAssembler = new FragmentAssembler(inbound::onDataFragment);
        this.bulkAssembler = new FragmentAssembler(inbound::onBulkFragment);

        this.heartbeatIntervalNs = config.heartbeatInterval().toNanos();
        this.ackIntervalNs = config.ackInterval().toNanos();
        this.credit = new RemoteCredit(this, system.flow(), config.creditFlushInterval().toNanos());
        this.outboundSender = new OutboundSender(this);
        this.notices = new NodeNotices(this);
        this.lifecycle = new SessionLifecycle(this);
        this.directory = new DirectorySender(this, InterconnectConfig.maxMessageLength(config.controlTermLength()));
    }

    @Override
    public String roleName()
    {
        return "troupe-interconnect-" + nodeId;
    }

    @Override
    public void onStart()
    {
        final long nowNs = clock.nanoTime();
        cycleNs = nowNs;
        for (final Peer peer : roster.all())
        {
            peer.detector.reset(nowNs);
            peer.retryHelloAt(nowNs);
        }
    }

    @Override
    public int doWork()
    {
        final long nowNs = clock.nanoTime();
        if (nowNs - cycleNs > failureTimeoutNs)
        {
            stoodStill(nowNs, nowNs - cycleNs); // before any frame that waited meanwhile is read
        }
        cycleNs = nowNs;
        int work = driverInvoker == null ? 0 : driverInvoker.invoke();
        work += clientInvoker.invoke();
        if (clientInvoker.isClosed())
        {
            // commands still run (a duty's removal waits for one); one that needs Aeron throws and is logged
            return transportClosed() + commands.drain(Runnable::run, 64);
        }
        work += commands.drain(Runnable::run, 64);
        work += controlSubscription.poll(controlAssembler, FRAGMENT_LIMIT);
        work += dataSubscription.poll(dataAssembler, FRAGMENT_LIMIT);
        work += bulkSubscription.poll(bulkAssembler, FRAGMENT_LIMIT);
        for (final Agent duty : duties)
        {
            work += runDuty(duty);
        }
        for (final Peer peer : roster.all())
        {
            work += sessions.onTick(peer, nowNs);
            if (peer.chunks != null && peer.chunks.reclaimRequested() && peer.chunks.onReclaimed())
            {
                lifecycle.chunksDropped(peer);
                work++;
            }
            if (peer.isUp())
            {
                work += outboundSender.drain(peer);
                work += sendAcks(peer, nowNs);
                if (!peer.directoryJobs.isEmpty())
                {
                    work += directory.drain(peer);
                }
                if (nowNs - peer.nextStallCheckNs >= 0)
                {
                    work += checkStalls(peer, nowNs);
                }
            }
        }
        work += credit.onTick(nowNs);
        work += membership.drainRetiring();
        if (lingering)
        {
            flushed = allAcknowledged();
        }
        return work;
    }

    /**
     * The node's Aeron client has closed under it: its media driver stopped, or one of the two timed the other out.
     * Nothing can be sent or received any more, and every Aeron object the agent holds is closed. The first time:
     * every session ends as if its peer had failed (what was in flight and queued becomes
     * {@code Undelivered(DISCONNECTED)}), the error is recorded, and {@link #onTransportLost} hears why, once. From
     * then a cycle runs only the agent's commands and touches no Aeron object of its own (each would throw), so new
     * sends to peers fail fast.
     *
     * @return 1 the first time, 0 after.
     */
    private int transportClosed()
    {
        if (lingering)
        {
            flushed = true; // nothing more can be acknowledged
        }
        if (transportLostReason != null)
        {
            return 0;
        }
        final String why = "the node's Aeron client has closed (its media driver stopped or timed out, or timed this " +
            "node out): no peer can be reached";
        transportLostReason = why;
        transportErrors.onError(new IllegalStateException(why));
        for (final Peer peer : roster.all())
        {
            lifecycle.sessionLost(peer, why);
        }
        onTransportLost.accept(why);
        return 1;
    }

    /**
     * This node's own cycle did not run for longer than the failure timeout (the process stood still: a long GC
     * pause, SIGSTOP, a paused container or VM). Every peer's failure detector has ended its session with this node
     * by now, so this node ends its side too, at once, and starts new handshakes: otherwise frames its peers sent
     * before they gave up, read only now, would keep a session alive here that the peer has ended (a one-sided
     * session, until this node's own detector noticed the silence that follows).
     */
    private void stoodStill(final long nowNs, final long stillNs)
    {
        for (final Peer peer : roster.all())
        {
            if (peer.isUp())
            {
                lifecycle.sessionLost(peer, "this node stood still for " + stillNs / 1_000_000 + " ms, longer than " +
                    "the failure timeout: its peers have ended their sessions with it");
                renewPublications(peer, "this node stood still");
                peer.backoff.reset();
                peer.retryHelloAt(nowNs);
            }
        }
    }

    private int runDuty(final Agent duty)
    {
        try
        {
            return duty.doWork();
        }
        catch (final Exception | Error ex)
        {
            dutyErrors.onError(ex); // the duty goes on next cycle, and so does this agent's own work
            return 0;
        }
    }

    /** On this agent's thread (a command): runs the duty's cycle in every cycle of this agent from now on. */
    void addDuty(final Agent duty)
    {
        final Agent[] more = Arrays.copyOf(duties, duties.length + 1);
        more[duties.length] = duty;
        duties = more;
    }

    /**
     * On this agent's thread: stops running the duty and closes it ({@link Agent#onClose}); false if it was not here.
     */
    boolean removeDuty(final Agent duty)
    {
        for (int i = 0; i < duties.length; i++)
        {
            if (duties[i] == duty)
            {
                final Agent[] fewer = new Agent[duties.length - 1];
                System.arraycopy(duties, 0, fewer, 0, i);
                System.arraycopy(duties, i + 1, fewer, i, duties.length - i - 1);
                duties = fewer;
                closeDuty(duty);
                return true;
            }
        }
        return false;
    }

    private void closeDuty(final Agent duty)
    {
        try
        {
            duty.onClose();
        }
        catch (final RuntimeException | Error ex)
        {
            dutyErrors.onError(ex);
        }
    }

    /** Asks the agent to report, every duty cycle from now on, whether its peers have everything it sent. */
    void linger()
    {
        lingering = true;
    }

    /** While lingering: whether every established peer has acknowledged all that was queued for it. */
    boolean isFlushed()
    {
        return flushed;
    }

    private boolean allAcknowledged()
    {
        for (final Peer peer : roster.all())
        {
            if (peer.isUp() && (peer.pending != null || !peer.batch.isEmpty() ||
                peer.outbound.size() > 0 ||
                !peer.bulkLane.isEmpty() ||
                peer.dataAcked < peer.dataSent || peer.bulkAcked < peer.bulkSent))
            {
                return false;
            }
        }
        return true;
    }

    /** Runs a command on the agent thread (subscriptions and the like); false if the queue is full. */
    boolean command(final Runnable command)
    {
        return commands.offer(command);
    }

    // ------------------------------------------------------------------ acks

    private int sendAcks(final Peer peer, final long nowNs)
    {
        if (nowNs - peer.nextAckNs < 0)
        {
            return 0;
        }
        peer.nextAckNs = nowNs + ackIntervalNs;
        return flushAcks(peer);
    }

    /**
     * Ends an established session from this side: the last acks first, on the same stream, so that the peer does not
     * report as lost what this node has, then the goodbye.
     *
     * @return whether the goodbye was taken by the control publication.
     */
    boolean sayGoodbye(final Peer peer, final GoodbyeReason reason, final String detail)
    {
        flushAcks(peer);
        return sessions.sendGoodbye(peer, reason, detail);
    }

    /**
     * Acknowledges, now, what has arrived from a peer since the last ack, up to the first tracked envelope the
     * actor system is not done with yet.
     */
    private int flushAcks(final Peer peer)
    {
        int work = 0;
        final long data = peer.dataReceipts.ackable(peer.receivedDataPosition);
        if (data != peer.ackedDataPositionSent && sessions.sendAck(peer, config.dataStreamId(), data))
        {
            peer.ackedDataPositionSent = data;
            work++;
        }
        final long bulk = peer.bulkReceipts.ackable(peer.receivedBulkPosition);
        if (bulk != peer.ackedBulkPositionSent && sessions.sendAck(peer, config.bulkStreamId(), bulk))
        {
            peer.ackedBulkPositionSent = bulk;
            work++;
        }
        return work;
    }

    /**
     * Says goodbye to every connected peer and reports what is still queued as SHUTDOWN. The last acks go out
     * first, on the same stream, so that the peer does not report events this node has as lost.
     */
    void close()
    {
        closing = true;
        for (final Peer peer : roster.all())
        {
            if (peer.isUp())
            {
                if (sayGoodbye(peer, GoodbyeReason.SHUTDOWN, "node " + nodeId + " is shutting down"))
                {
                    peer.goodbyePosition = peer.control.position();
                }
                peer.sessionLost("this node is shutting down");
            }
            final Consumer<Envelope> unsure =
                envelope -> notices.undelivered(envelope, UndeliveredReason.SHUTDOWN, true);
            peer.dataInFlight.failAll(unsure);
            peer.bulkInFlight.failAll(unsure);
            lifecycle.failQueued(peer, UndeliveredReason.SHUTDOWN);
        }
    }

    boolean isClosing()
    {
        return closing;
    }

    @Override
    public void onClose()
    {
        final Agent[] closing = duties;
        duties = NO_DUTIES;
        for (final Agent duty : closing)
        {
            closeDuty(duty); // before the goodbyes: a duty's own (the client ingress's) go out first
        }
        if (!killed)
        {
            close();
        }
    }

    void skipGoodbyes()
    {
        killed = true;
    }

    /** Looks at the peer's inbound data and bulk streams, once a heartbeat interval (see {@link StreamStallWatch}). */
    private int checkStalls(final Peer peer, final long nowNs)
    {
        peer.nextStallCheckNs = nowNs + heartbeatIntervalNs;
        String stalled = stallWatch.check(dataSubscription, peer.sessionId(), peer.dataStall, nowNs);
        if (stalled == null)
        {
            stalled = stallWatch.check(bulkSubscription, peer.sessionId(), peer.bulkStall, nowNs);
        }
        if (stalled == null)
        {
            return 0;
        }
        streamsStalled.incrementAndGet();
        peer.dataStall.reset();
        peer.bulkStall.reset();
        lifecycle.streamDamaged(peer, stalled);
        return 1;
    }

    /**
     * Whether this node has images of the data and bulk streams a peer publishes under Aeron session
     * {@code sessionId}. A handshake step that would let the peer start a session is answered only once it has: a
     * publication whose receiver restarted still counts as connected until its status messages time out, and what
     * it sends before the new receiver's driver has made an image of it is lost unseen (the image joins at the
     * position it is made at). The streams' images come within a heartbeat of the driver hearing them.
     */
    boolean hearsStreamsOf(final int sessionId)
    {
        if (dataSubscription.imageBySessionId(sessionId) != null &&
            bulkSubscription.imageBySessionId(sessionId) != null)
        {
            return true;
        }
        handshakeStepsDeferred.incrementAndGet();
        return false;
    }

    /**
     * Opens our publications to a peer anew, under a fresh Aeron session id, so that the next session does not
     * inherit streams that may be broken: when the peer found a stream of ours damaged (a hole), and when a session
     * ended in silence (the peer went, or this node or the network stood still). After a silence the peer's driver
     * lets its images of our old streams time out and then keeps their session id cooling down for a while, ignoring
     * its setup: a fresh id gets images at once, so the next handshake is not kept waiting for them
     * ({@link #hearsStreamsOf}).
     */
    void renewPublications(final Peer peer, final String why)
    {
        final int sessionId = publications.renew(peer);
        publicationsRenewed.incrementAndGet();
        LOG.debug("node {}: publications to node {} renewed (Aeron session {}): {}", nodeId, peer.nodeId, sessionId,
            why);
    }

    /** Counts something that arrived and was dropped. */
    void reject(final FrameRejection reason)
    {
        rejections.count(reason);
    }

    /**
     * An image went away (client conductor, this thread): the fragments of a message it left half assembled are
     * dropped with their buffer.
     */
    void onImageUnavailable(final Image image)
    {
        final int streamId = image.subscription().streamId();
        final FragmentAssembler assembler = streamId == config.controlStreamId() ? controlAssembler :
            streamId == config.dataStreamId() ? dataAssembler : streamId == config.bulkStreamId() ? bulkAssembler :
            null;
        if (assembler != null)
        {
            assembler.freeSessionBuffer(image.sessionId());
        }
    }
}
