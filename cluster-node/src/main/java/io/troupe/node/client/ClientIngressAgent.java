package io.troupe.node.client;

import io.aeron.Aeron;
import io.aeron.ChannelUriStringBuilder;
import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.AgentErrorLog;
import io.troupe.actor.Envelope;
import io.troupe.interconnect.Interconnect;
import io.troupe.interconnect.InterconnectConfig;
import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.registry.ClusterEndpoints;
import io.troupe.registry.ServiceRegistry;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.serialization.wire.GoodbyeReason;
import org.agrona.CloseHelper;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The client ingress's duty, run on the interconnect's thread in each of its cycles ({@code Interconnect.addDuty}):
 * runs its own Aeron client (connected to the node's media driver, every call asynchronous), reads the clients'
 * control stream (handshakes, heartbeats, goodbyes) and, for each open session whose credit account is clear, its
 * data stream; hands the events to the actor system as the session's proxy actor; and sends the clients what their
 * proxies hand back (replies, notices), sealed, packed into messages. Owns every session.
 */
final class ClientIngressAgent implements Agent
{
    private static final Logger LOG = LoggerFactory.getLogger(ClientIngress.class);
    private static final long HOUSEKEEPING_NS = 1_000_000L;
    private static final long ASK_SWEEP_NS = 100_000_000L;
    private static final int OUTBOX_CAPACITY = 65_536;
    private static final int OUTBOX_DRAIN = 1024;

    final ClientIngressConfig config;
    final ActorSystem system;
    final ServiceRegistry registry;
    final EventCodecRegistry codecs;
    final String clusterId;
    final int nodeId;
    final long incarnation;
    final int controlStreamId;
    final int dataStreamId;
    final int termLength;
    final int mtu;
    /** Largest sealed message either way, and the most a data message's body holds. */
    final int maxMessage;
    final int batchCapacity;
    /** Writes what goes to the clients: replies and notices packed and sealed, heartbeats, goodbyes. */
    final ClientOutbound outbound;
    private final long heartbeatIntervalNs;
    private final long failureTimeoutNs;
    final long askTimeoutNs;
    final Aeron aeron;
    private final AgentInvoker conductor;
    private final Subscription controlSubscription;
    private final Subscription dataSubscription;
    private final FragmentAssembler controlAssembler;
    final ClientHandshakes handshakes;
    /** Reads what the clients send: handshake steps, heartbeats, goodbyes and events. */
    private final ClientInbound inbound;
    /** Makes the thread that runs this agent's cycles (the interconnect's) run one soon. Any thread. */
    final Runnable waker;
    private final Int2ObjectHashMap<ClientSession> sessions = new Int2ObjectHashMap<>();
    private final List<ClientSession> sessionList = new ArrayList<>();
    private final ManyToOneConcurrentArrayQueue<Reply> outbox = new ManyToOneConcurrentArrayQueue<>(OUTBOX_CAPACITY);
    private final AtomicLongArray counts = new AtomicLongArray(ClientCounter.values().length);
    final AtomicInteger openSessions = new AtomicInteger();
    /** The open sessions, for other threads (the counters thread): added when a session opens, removed as it ends. */
    final ConcurrentHashMap<Integer, ClientSessionStats> openStats = new ConcurrentHashMap<>();
    final AtomicInteger pendingAsks = new AtomicInteger();
    private final Set<String> refusalsLogged = new HashSet<>();
    private long nowNs;
    private long nextHousekeepingNs;
    private volatile boolean intakeStopped;
    /** Where clients reach the cluster, as the membership last said (null: no membership, nothing to tell). */
    volatile ClusterEndpoints endpoints;

    ClientIngressAgent(
        final ClientIngressConfig config,
        final ActorSystem system,
        final InterconnectConfig transport,
        final long incarnation,
        final ServiceRegistry registry,
        final EventCodecRegistry codecs,
        final Interconnect interconnect)
    {
        this.waker = interconnect::wake;
        this.config = config;
        this.system = system;
        this.registry = registry;
        this.codecs = codecs;
        this.clusterId = transport.clusterId();
        this.nodeId = system.nodeId();
        this.incarnation = incarnation;
        this.controlStreamId = transport.clientStreams().controlStreamId();
        this.dataStreamId = transport.clientStreams().dataStreamId();
        this.termLength = transport.clientStreams().termLength();
        this.mtu = transport.mtuLength();
        this.maxMessage = InterconnectConfig.maxMessageLength(termLength);
        this.batchCapacity = maxMessage - FrameSeal.OVERHEAD;
        this.heartbeatIntervalNs = transport.heartbeatInterval().toNanos();
        this.failureTimeoutNs = transport.failureTimeout().toNanos();
        this.askTimeoutNs = config.askTimeout().toNanos();
        this.handshakes = new ClientHandshakes(this, config.secret());
        this.outbound = new ClientOutbound(this, Math.min(batchCapacity, mtu - 64 - FrameSeal.OVERHEAD));
        this.aeron = Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(transport.aeronDir())
            .useConductorAgentInvoker(true)
            .clientName("troupe-" + nodeId + "-clients")
            .errorHandler(new AgentErrorLog(LOG, "node " + nodeId + ": client ingress Aeron client",
                system.errorRecorder())));
        this.conductor = aeron.conductorAgentInvoker();
        final String channel = new ChannelUriStringBuilder().media("udp")
            .endpoint(transport.bindHost() + ':' + transport.bindPort()).build();
        this.controlSubscription = aeron.addSubscription(channel, controlStreamId,
            interconnect::clientImageAvailable, interconnect::clientImageUnavailable);
        this.dataSubscription = aeron.addSubscription(channel, dataStreamId,
            interconnect::clientImageAvailable, interconnect::clientImageUnavailable);
        this.inbound = new ClientInbound(this);
        this.controlAssembler = new FragmentAssembler(inbound::onControlMessage);
    }

    @Override
    public String roleName()
    {
        return "troupe-" + nodeId + "-clients";
    }

    @Override
    public int doWork()
    {
        nowNs = System.nanoTime();
        int work = conductor.invoke();
        work += controlSubscription.poll(controlAssembler, 64);
        if (!intakeStopped)
        {
            work += inbound.pollClients(sessionList, dataSubscription);
        }
        work += drainOutbox();
        if (nowNs >= nextHousekeepingNs)
        {
            nextHousekeepingNs = nowNs + HOUSEKEEPING_NS;
            work += housekeeping();
        }
        work += outbound.flushDirty();
        return work;
    }

    long nowNs()
    {
        return nowNs;
    }

    // ------------------------------------------------------------------------------------------- answering clients

    /** From a proxy actor (a pool thread): something for its client. False if the hand-off queue is full. */
    boolean handOff(final ClientSession session, final Envelope envelope)
    {
        if (!outbox.offer(new Reply(session, envelope)))
        {
            count(ClientCounter.REPLIES_DROPPED);
            return false;
        }
        waker.run();
        return true;
    }

    private int drainOutbox()
    {
        int drained = 0;
        Reply reply;
        while (drained < OUTBOX_DRAIN && (reply = outbox.poll()) != null)
        {
            drained++;
            outbound.forward(reply.session(), reply.envelope());
        }
        return drained;
    }

    // ------------------------------------------------------------------------------------------- sessions

    private int housekeeping()
    {
        int work = handshakes.doWork(nowNs);
        for (int i = sessionList.size() - 1; i >= 0; i--)
        {
            final ClientSession session = sessionList.get(i);
            if (!session.resolvePublications(aeron))
            {
                endSession(session, "the media driver could not make a publication to " + session.endpoint, null);
                continue;
            }
            if (session.state == ClientSession.State.HANDSHAKE)
            {
                handshakes.offerWelcome(session);
                if (nowNs - session.handshakeDeadlineNs > 0)
                {
                    count(ClientCounter.HANDSHAKES_TIMED_OUT);
                    endSession(session, "no CONFIRM within " + config.handshakeTimeout().toMillis() + " ms", null);
                }
                continue;
            }
            if (nowNs - session.lastHeardNs > failureTimeoutNs)
            {
                count(ClientCounter.SESSIONS_TIMED_OUT);
                endSession(session, "nothing heard for " + failureTimeoutNs / 1_000_000 + " ms", GoodbyeReason.TIMEOUT);
                continue;
            }
            if (nowNs - session.nextHeartbeatNs >= 0 &&
                outbound.sendControl(session, ClientOutbound.ControlKind.HEARTBEAT, null, null))
            {
                session.nextHeartbeatNs = nowNs + heartbeatIntervalNs;
                work++;
            }
            if (!session.pending.isEmpty())
            {
                outbound.drainPending(session);
            }
            final ClusterEndpoints current = endpoints;
            if (current != null && session.endpointsSent != current &&
                outbound.push(session, ClusterEndpoints.TYPE, current))
            {
                session.endpointsSent = current; // a full batch: the next housekeeping tries again
                work++;
            }
            if (nowNs - session.nextAskSweepNs >= 0)
            {
                session.nextAskSweepNs = nowNs + ASK_SWEEP_NS;
                work += sweepAsks(session);
            }
        }
        return work;
    }

    private int sweepAsks(final ClientSession session)
    {
        if (session.asks.isEmpty())
        {
            return 0;
        }
        final int before = session.asks.size();
        final Long2LongHashMap.EntryIterator entries = session.asks.entrySet().iterator();
        while (entries.hasNext())
        {
            entries.next();
            if (nowNs - entries.getLongValue() > 0)
            {
                session.askTargets.remove(entries.getLongKey());
                entries.remove();
            }
        }
        final int expired = before - session.asks.size();
        if (expired > 0)
        {
            // counted before the gauge drops: whoever sees no ask pending sees why
            counts.getAndAdd(ClientCounter.ASK_SLOTS_EXPIRED.ordinal(), expired);
            pendingAsks.addAndGet(-expired);
            session.stats.asksPending(session.asks.size());
        }
        return expired;
    }

    ClientSession session(final int aeronSessionId)
    {
        return sessions.get(aeronSessionId);
    }

    int sessionCount()
    {
        return sessionList.size();
    }

    void addSession(final ClientSession session)
    {
        sessions.put(session.aeronSessionId, session);
        sessionList.add(session);
        handshakes.offerWelcome(session);
    }

    void openSession(final ClientSession session, final long now)
    {
        session.account = system.flow().openAccount(config.creditThreshold());
        session.stats.account(session.account);
        session.proxy = system.register(new ClientProxy(this, session));
        session.lastHeardNs = now;
        session.nextHeartbeatNs = now;
        session.nextAskSweepNs = now + ASK_SWEEP_NS;
        session.state = ClientSession.State.OPEN;
        openSessions.incrementAndGet();
        openStats.put(session.aeronSessionId, session.stats);
        count(ClientCounter.SESSIONS_OPENED);
        outbound.sendControl(session, ClientOutbound.ControlKind.HEARTBEAT, null, null); // tells the client it is in
        session.nextHeartbeatNs = now + heartbeatIntervalNs;
        refusalsLogged.remove(session.endpoint);
        LOG.info("node {}: {} connected (session {})", nodeId, session, session.aeronSessionId);
    }

    /** Ends a session: a goodbye if one is given and it was open, its ask slots freed, its proxy stopped. */
    void endSession(final ClientSession session, final String why, final GoodbyeReason goodbye)
    {
        if (session.state == ClientSession.State.CLOSED)
        {
            return;
        }
        final boolean wasOpen = session.isOpen();
        if (wasOpen)
        {
            outbound.drainPending(session);
            if (goodbye != null)
            {
                outbound.sendControl(session, ClientOutbound.ControlKind.GOODBYE, goodbye, why);
            }
        }
        session.state = ClientSession.State.CLOSED;
        sessions.remove(session.aeronSessionId);
        sessionList.remove(session);
        outbound.forget(session);
        if (!session.asks.isEmpty())
        {
            counts.getAndAdd(ClientCounter.ASK_SLOTS_FREED_AT_END.ordinal(), session.asks.size());
            pendingAsks.addAndGet(-session.asks.size());
            session.asks.clear();
            session.askTargets.clear();
            session.stats.asksPending(0);
        }
        session.pending.clear();
        if (wasOpen)
        {
            openSessions.decrementAndGet();
            openStats.remove(session.aeronSessionId);
            count(ClientCounter.SESSIONS_ENDED);
            session.account.close(); // events already taken still repay it; nothing new is charged
            system.send(session.proxy, ClientProxy.STOP);
            LOG.info("node {}: {} disconnected: {}", nodeId, session, why);
        }
        session.closePublications(aeron);
    }

    boolean isIntakeStopped()
    {
        return intakeStopped;
    }

    /** Stops reading clients' events and taking new clients (the node drains); replies still go out. */
    void stopIntake()
    {
        intakeStopped = true;
    }

    /** On the agent's thread, as the runner closes it. */
    @Override
    public void onClose()
    {
        for (int i = sessionList.size() - 1; i >= 0; i--)
        {
            final ClientSession session = sessionList.get(i);
            outbound.flush(session);
            endSession(session, "the node is shutting down", GoodbyeReason.SHUTDOWN);
        }
        handshakes.close();
        CloseHelper.quietCloseAll(controlSubscription, dataSubscription);
        // let the conductor hand the closes and the goodbyes' publications to the driver before the client goes
        conductor.invoke();
        aeron.close();
    }

    void logRefusal(final String endpoint, final String why)
    {
        if (refusalsLogged.size() < 1024 && refusalsLogged.add(endpoint))
        {
            LOG.warn("node {}: refused a client at {}: {}", nodeId, endpoint, why);
        }
    }

    void count(final ClientCounter counter)
    {
        counts.incrementAndGet(counter.ordinal());
    }

    long read(final ClientCounter counter)
    {
        return counts.get(counter.ordinal());
    }

    private record Reply(ClientSession session, Envelope envelope)
    {
    }
}
