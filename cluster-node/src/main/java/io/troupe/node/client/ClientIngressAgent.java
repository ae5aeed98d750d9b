package io.troupe.node.client;

import io.aeron.Aeron;
import io.aeron.ChannelUriStringBuilder;
import io.aeron.FragmentAssembler;
import io.aeron.Image;
import io.aeron.ImageControlledFragmentAssembler;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.Subscription;
import io.aeron.logbuffer.Header;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.Envelope;
import io.troupe.actor.EventTypes;
import io.troupe.actor.ServiceId;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import io.troupe.actor.WirePayload;
import io.troupe.interconnect.InterconnectConfig;
import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.registry.Lookup;
import io.troupe.registry.ServiceInstance;
import io.troupe.registry.ServiceRegistry;
import io.troupe.registry.Subscribe;
import io.troupe.registry.Unsubscribe;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.serialization.TroupeCodecs;
import io.troupe.serialization.wire.ClientProtocol;
import io.troupe.serialization.wire.EnvelopeFrame;
import io.troupe.serialization.wire.FrameDecoder;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.serialization.wire.FrameHandler;
import io.troupe.serialization.wire.FrameResult;
import io.troupe.serialization.wire.GoodbyeFrame;
import io.troupe.serialization.wire.GoodbyeReason;
import io.troupe.serialization.wire.HandshakeFrame;
import io.troupe.serialization.wire.HeartbeatFrame;
import io.troupe.serialization.wire.WireFormat;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
    /** Largest sealed message either way, and the most a data message packs before it is sent. */
    final int maxMessage;
    final int batchCapacity;
    private final int packLimit;
    private final long heartbeatIntervalNs;
    private final long failureTimeoutNs;
    private final long askTimeoutNs;
    final Aeron aeron;
    private final AgentInvoker conductor;
    private final Subscription controlSubscription;
    private final Subscription dataSubscription;
    private final FragmentAssembler controlAssembler;
    private final ClientHandshakes handshakes;
    /** Makes the thread that runs this agent's cycles (the interconnect's) run one soon. Any thread. */
    final Runnable waker;
    private final Int2ObjectHashMap<ClientSession> sessions = new Int2ObjectHashMap<>();
    private final List<ClientSession> sessionList = new ArrayList<>();
    private final List<ClientSession> dirty = new ArrayList<>();
    private final ManyToOneConcurrentArrayQueue<Reply> outbox = new ManyToOneConcurrentArrayQueue<>(OUTBOX_CAPACITY);
    private final AtomicLongArray counts = new AtomicLongArray(ClientCounter.values().length);
    final AtomicInteger openSessions = new AtomicInteger();
    final AtomicInteger pendingAsks = new AtomicInteger();
    private final FrameDecoder controlDecoder;
    private final FrameDecoder dataDecoder;
    private final FrameEncoder encoder = new FrameEncoder();
    private final UnsafeBuffer opened;
    private final UnsafeBuffer sealed;
    /** Where compact frames are rebuilt whole. */
    private final UnsafeBuffer expanded;
    private final ClientProtocol.FrameSink dataFrameSink = this::onDataFrame;
    private final UnsafeBuffer small = new UnsafeBuffer(new byte[256]);
    private final java.util.Set<String> refusalsLogged = new java.util.HashSet<>();
    private long nowNs;
    private long nextHousekeepingNs;
    /** The session whose stream is being read, and the Aeron session of the control message being read. */
    private ClientSession current;
    private int currentAeronSession;
    private volatile boolean intakeStopped;

    ClientIngressAgent(
        final ClientIngressConfig config,
        final ActorSystem system,
        final InterconnectConfig transport,
        final long incarnation,
        final ServiceRegistry registry,
        final EventCodecRegistry codecs,
        final io.troupe.interconnect.Interconnect interconnect)
    {
        this.waker = interconnect::wake;
        this.config = config;
        this.system = system;
        this.registry = registry;
        this.codecs = codecs;
        this.clusterId = transport.clusterId();
        this.nodeId = system.nodeId();
        this.incarnation = incarnation;
        this.controlStreamId = transport.clientControlStreamId();
        this.dataStreamId = transport.clientDataStreamId();
        this.termLength = transport.clientTermLength();
        this.mtu = transport.mtuLength();
        this.maxMessage = InterconnectConfig.maxMessageLength(termLength);
        this.batchCapacity = maxMessage - FrameSeal.OVERHEAD;
        this.packLimit = Math.min(batchCapacity, mtu - 64 - FrameSeal.OVERHEAD);
        this.heartbeatIntervalNs = transport.heartbeatInterval().toNanos();
        this.failureTimeoutNs = transport.failureTimeout().toNanos();
        this.askTimeoutNs = config.askTimeout().toNanos();
        this.opened = new UnsafeBuffer(new byte[maxMessage]);
        this.sealed = new UnsafeBuffer(new byte[maxMessage]);
        this.expanded = new UnsafeBuffer(new byte[maxMessage + io.troupe.serialization.wire.EnvelopeCompaction.FIXED_LENGTH]);
        this.controlDecoder = new FrameDecoder(new ControlFrames(), maxMessage);
        this.dataDecoder = new FrameDecoder(new DataFrames(), maxMessage);
        this.handshakes = new ClientHandshakes(this, config.secret());
        this.aeron = Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(transport.aeronDir())
            .useConductorAgentInvoker(true)
            .clientName("troupe-" + nodeId + "-clients")
            .errorHandler(new io.troupe.actor.AgentErrorLog(LOG, "node " + nodeId + ": client ingress Aeron client")));
        this.conductor = aeron.conductorAgentInvoker();
        final String channel = new ChannelUriStringBuilder().media("udp")
            .endpoint(transport.bindHost() + ':' + transport.bindPort()).build();
        this.controlSubscription = aeron.addSubscription(channel, controlStreamId,
            interconnect::clientImageAvailable, interconnect::clientImageUnavailable);
        this.dataSubscription = aeron.addSubscription(channel, dataStreamId,
            interconnect::clientImageAvailable, interconnect::clientImageUnavailable);
        this.controlAssembler = new FragmentAssembler(this::onControlMessage);
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
            work += pollClients();
        }
        work += drainOutbox();
        if (nowNs >= nextHousekeepingNs)
        {
            nextHousekeepingNs = nowNs + HOUSEKEEPING_NS;
            work += housekeeping();
        }
        work += flushDirty();
        return work;
    }

    long nowNs()
    {
        return nowNs;
    }

    // ------------------------------------------------------------------------------------------- reading clients

    private int pollClients()
    {
        int work = 0;
        for (int i = 0; i < sessionList.size(); i++)
        {
            final ClientSession session = sessionList.get(i);
            if (!session.isOpen() || !clear(session))
            {
                continue;
            }
            if (session.dataImage == null || session.dataImage.isClosed())
            {
                final Image image = dataSubscription.imageBySessionId(session.aeronSessionId);
                if (image == null)
                {
                    continue;
                }
                session.dataImage = image;
                session.assembler = new ImageControlledFragmentAssembler(this::onDataMessage);
            }
            current = session;
            work += session.dataImage.controlledPoll(session.assembler, config.pollBatch());
            current = null;
        }
        return work;
    }

    /** Whether a session's account lets its stream be read; when it does not, its proxy waits for FundsCleared. */
    private boolean clear(final ClientSession session)
    {
        if (session.account.isClear())
        {
            session.throttled = false;
            return true;
        }
        if (!session.throttled)
        {
            session.throttled = true;
            count(ClientCounter.THROTTLED);
            return session.account.ensureClearFunds(session.proxy); // a repayment in between: read on
        }
        return false;
    }

    private void onControlMessage(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        final int aeronSession = header.sessionId();
        if (FrameSeal.keyId(buffer, offset, length) < 0)
        {
            currentAeronSession = aeronSession;
            if (controlDecoder.decode(buffer, offset, length) != FrameResult.OK)
            {
                count(ClientCounter.FRAMES_MALFORMED);
            }
            return;
        }
        final ClientSession session = sessions.get(aeronSession);
        if (session == null || !session.isOpen())
        {
            count(ClientCounter.FRAMES_UNKNOWN_SESSION);
            return;
        }
        final int bodyLength = open(session, FrameSeal.CONTROL, controlStreamId, buffer, offset, length);
        if (bodyLength < 0)
        {
            return;
        }
        current = session;
        if (controlDecoder.decode(opened, FrameSeal.HEADER, bodyLength) != FrameResult.OK)
        {
            count(ClientCounter.FRAMES_MALFORMED);
        }
        current = null;
    }

    /**
     * One message of a client's data stream; left in the image (ABORT) once the session's account is in debt, so
     * that what the node holds for a client is its threshold and at most one message more.
     */
    private ControlledFragmentHandler.Action onDataMessage(final DirectBuffer buffer, final int offset,
        final int length, final Header header)
    {
        final ClientSession session = current;
        if (!session.isOpen() || !session.account.isClear())
        {
            return ControlledFragmentHandler.Action.ABORT;
        }
        final int bodyLength = open(session, FrameSeal.DATA, dataStreamId, buffer, offset, length);
        if (bodyLength >= 0 &&
            !ClientProtocol.unpack(opened, FrameSeal.HEADER, FrameSeal.HEADER + bodyLength, expanded, dataFrameSink))
        {
            count(ClientCounter.FRAMES_MALFORMED);
        }
        return ControlledFragmentHandler.Action.CONTINUE;
    }

    private void onDataFrame(final DirectBuffer buffer, final int offset, final int length)
    {
        if (current.isOpen() && dataDecoder.decode(buffer, offset, length) != FrameResult.OK)
        {
            count(ClientCounter.FRAMES_MALFORMED);
        }
    }

    /** Opens a sealed message into {@link #opened}; the body's length, or -1 after counting (and acting on) why not. */
    private int open(final ClientSession session, final int stream, final int streamId, final DirectBuffer buffer,
        final int offset, final int length)
    {
        if (length > opened.capacity() || FrameSeal.keyId(buffer, offset, length) != session.opener.keyId())
        {
            count(ClientCounter.FRAMES_BAD_TAG);
            return -1;
        }
        final int bodyLength = session.opener.open(stream, streamId, buffer, offset, length, opened);
        if (bodyLength >= 0)
        {
            session.lastHeardNs = nowNs;
            return bodyLength;
        }
        if (bodyLength == FrameSeal.GAP)
        {
            count(ClientCounter.FRAMES_GAP);
            endSession(session, "a message of its stream went missing", GoodbyeReason.PROTOCOL_ERROR);
        }
        else
        {
            count(bodyLength == FrameSeal.REPLAYED ? ClientCounter.FRAMES_REPLAYED : ClientCounter.FRAMES_BAD_TAG);
        }
        return -1;
    }

    private void acceptEvent(final ClientSession session, final EnvelopeFrame frame)
    {
        final int type = frame.eventType();
        final long cookie = frame.cookie();
        final ActorId recipient = frame.recipient();
        final boolean directory = type == Lookup.TYPE || type == Subscribe.TYPE || type == Unsubscribe.TYPE;
        final EventCodec<?> codec = codecs.codec(type);
        if (codec == null || !directory && EventTypes.spaceOf(type) < EventTypes.SPACE_USER_FIRST)
        {
            count(ClientCounter.EVENTS_REFUSED);
            notice(session, recipient, type, cookie, UndeliveredReason.REFUSED);
            return;
        }
        if (cookie != 0)
        {
            if (session.asks.size() >= config.maxPendingAsks())
            {
                count(ClientCounter.ASKS_SHED);
                notice(session, recipient, type, cookie, UndeliveredReason.SHED);
                return;
            }
            if (session.asks.containsKey(cookie))
            {
                count(ClientCounter.EVENTS_REFUSED); // an ask id still in use: the client broke its own rule
                notice(session, recipient, type, cookie, UndeliveredReason.REFUSED);
                return;
            }
            session.asks.put(cookie, nowNs + askTimeoutNs);
            pendingAsks.incrementAndGet();
            session.asksIn++;
            count(ClientCounter.ASKS_IN);
        }
        final ActorId target = directory ? registry.actor() : resolve(recipient);
        if (target == null || target.isNone())
        {
            count(ClientCounter.EVENTS_UNADDRESSED);
            freeAsk(session, cookie);
            notice(session, recipient, type, cookie, UndeliveredReason.ACTOR_UNKNOWN);
            return;
        }
        final Envelope envelope = new Envelope(target, session.proxy, type, Envelope.FLAG_TRACK_DELIVERY, cookie,
            WirePayload.copyOf(type, frame.buffer(), frame.payloadOffset(), frame.payloadLength(), codec), null);
        envelope.chargeTo(session.account, system.flow().costOf(type));
        session.eventsIn++;
        count(ClientCounter.EVENTS_IN);
        system.send(envelope); // refused while shutting down: tracked, so the proxy hears Undelivered(SHUTDOWN)
    }

    /** A service id of no node stands for any node's instance: this node's if it has one (as the registry picks). */
    private ActorId resolve(final ActorId recipient)
    {
        if (recipient.isService() && recipient.nodeId() == 0 && registry != null)
        {
            final Optional<ServiceInstance> instance = registry.pickLocalFirst((ServiceId)recipient);
            if (instance.isPresent())
            {
                return instance.get().actor();
            }
        }
        return recipient;
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
            forward(reply.session(), reply.envelope());
        }
        return drained;
    }

    private void forward(final ClientSession session, final Envelope envelope)
    {
        if (!session.isOpen())
        {
            count(ClientCounter.REPLIES_AFTER_END);
            return;
        }
        final WirePayload payload = envelope.payload();
        final Object event = payload == null || envelope.type() == Undelivered.TYPE ? envelope.event() : null;
        final long cookie = event instanceof Undelivered notice ? notice.cookie() : envelope.cookie();
        if (cookie != 0 && !freeAsk(session, cookie))
        {
            count(ClientCounter.LATE_REPLIES);
            return;
        }
        final boolean written;
        if (payload != null && !(event instanceof Undelivered))
        {
            written = append(session, payload.typeId(), envelope.sender(), cookie, payload.buffer(), 0, payload.length());
        }
        else
        {
            written = appendEvent(session, envelope.type(), envelope.sender(), cookie, event);
        }
        if (written)
        {
            count(ClientCounter.REPLIES_OUT);
        }
        else
        {
            count(ClientCounter.REPLIES_UNENCODABLE);
            if (cookie != 0)
            {
                notice(session, ActorId.NONE, envelope.type(), cookie, UndeliveredReason.REFUSED);
            }
        }
    }

    /** Tells a client why its event went nowhere. */
    private void notice(final ClientSession session, final ActorId recipient, final int type, final long cookie,
        final UndeliveredReason reason)
    {
        freeAsk(session, cookie);
        if (appendEvent(session, Undelivered.TYPE, ActorId.NONE, cookie,
            new Undelivered(recipient, type, cookie, reason, false)))
        {
            count(ClientCounter.NOTICES_OUT);
        }
    }

    private boolean freeAsk(final ClientSession session, final long cookie)
    {
        if (cookie == 0 || session.asks.remove(cookie) == session.asks.missingValue())
        {
            return false;
        }
        pendingAsks.decrementAndGet();
        return true;
    }

    @SuppressWarnings("unchecked")
    private boolean appendEvent(final ClientSession session, final int declaredType, final ActorId sender,
        final long cookie, final Object event)
    {
        if (event == null)
        {
            return false;
        }
        EventCodec<Object> codec = declaredType == EventTypes.BY_CLASS ? null : (EventCodec<Object>)codecs.codec(declaredType);
        if (codec == null || !codec.eventClass().isInstance(event))
        {
            codec = (EventCodec<Object>)codecs.codecFor(event.getClass());
        }
        if (codec == null)
        {
            return false;
        }
        final int payloadLength = codec.encodedLength(event);
        final int frameLength = WireFormat.envelopeLength(payloadLength, false);
        if (!reserve(session, frameLength))
        {
            return false;
        }
        final int at = session.batchLength + ClientProtocol.LENGTH_PREFIX;
        final int payloadAt = encoder.beginEnvelope(session.batch, at, ActorId.NONE, sender, codec.typeId(), 0, cookie,
            0, 0L, 0, null, payloadLength);
        codec.encode(event, session.batch, payloadAt);
        commit(session, frameLength);
        return true;
    }

    private boolean append(final ClientSession session, final int type, final ActorId sender, final long cookie,
        final DirectBuffer payload, final int offset, final int length)
    {
        final int frameLength = WireFormat.envelopeLength(length, false);
        if (!reserve(session, frameLength))
        {
            return false;
        }
        final int at = session.batchLength + ClientProtocol.LENGTH_PREFIX;
        final int payloadAt = encoder.beginEnvelope(session.batch, at, ActorId.NONE, sender, type, 0, cookie, 0, 0L, 0,
            null, length);
        session.batch.putBytes(payloadAt, payload, offset, length);
        commit(session, frameLength);
        return true;
    }

    /** Makes room for a frame in the session's batch, sending what it holds first if need be; false if it can never fit. */
    private boolean reserve(final ClientSession session, final int frameLength)
    {
        final int needed = ClientProtocol.LENGTH_PREFIX + frameLength;
        if (needed > batchCapacity)
        {
            return false;
        }
        if (session.batchLength > 0 && session.batchLength + needed > packLimit)
        {
            flush(session);
        }
        return true;
    }

    private void commit(final ClientSession session, final int frameLength)
    {
        if (session.batchLength == 0)
        {
            dirty.add(session);
        }
        ClientProtocol.putLength(session.batch, session.batchLength, frameLength);
        session.batchLength += ClientProtocol.LENGTH_PREFIX + frameLength;
    }

    private int flushDirty()
    {
        final int flushed = dirty.size();
        for (int i = 0; i < flushed; i++)
        {
            flush(dirty.get(i));
        }
        dirty.clear();
        return flushed;
    }

    /** Seals the session's batch and offers it; a push-back keeps it, in order, for later (bounded: then dropped). */
    private void flush(final ClientSession session)
    {
        if (session.batchLength == 0 || !session.isOpen())
        {
            session.batchLength = 0;
            return;
        }
        if (!session.pending.isEmpty() && !drainPending(session) &&
            session.pending.size() >= ClientSession.MAX_PENDING_MESSAGES)
        {
            count(ClientCounter.REPLIES_DROPPED); // unsealed, so no sequence number is lost
            session.batchLength = 0;
            return;
        }
        final int length = session.sealer.seal(FrameSeal.DATA, dataStreamId, session.batch, 0, session.batchLength, sealed);
        session.batchLength = 0;
        session.sealer.sent(FrameSeal.DATA); // the number is used now: sent below, or kept in order
        if (session.pending.isEmpty() && session.data != null && session.data.offer(sealed, 0, length) > 0)
        {
            session.messagesOut++;
            return;
        }
        final byte[] copy = new byte[length];
        sealed.getBytes(0, copy);
        session.pending.addLast(copy);
    }

    /** Offers the messages a push-back kept; true once none is left. */
    private boolean drainPending(final ClientSession session)
    {
        while (!session.pending.isEmpty())
        {
            if (session.data == null)
            {
                return false;
            }
            final byte[] message = session.pending.peekFirst();
            if (session.data.offer(new UnsafeBuffer(message)) <= 0)
            {
                return false;
            }
            session.pending.pollFirst();
            session.messagesOut++;
        }
        return true;
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
            if (nowNs - session.nextHeartbeatNs >= 0 && sendControl(session, ControlKind.HEARTBEAT, null, null))
            {
                session.nextHeartbeatNs = nowNs + heartbeatIntervalNs;
                work++;
            }
            if (!session.pending.isEmpty())
            {
                drainPending(session);
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
        final org.agrona.collections.Long2LongHashMap.EntryIterator entries = session.asks.entrySet().iterator();
        while (entries.hasNext())
        {
            entries.next();
            if (nowNs - entries.getLongValue() > 0)
            {
                entries.remove();
            }
        }
        final int expired = before - session.asks.size();
        if (expired > 0)
        {
            pendingAsks.addAndGet(-expired);
            counts.getAndAdd(ClientCounter.ASK_SLOTS_EXPIRED.ordinal(), expired);
        }
        return expired;
    }

    private enum ControlKind
    {
        HEARTBEAT, GOODBYE
    }

    private boolean sendControl(final ClientSession session, final ControlKind kind, final GoodbyeReason reason,
        final String detail)
    {
        final int length = kind == ControlKind.HEARTBEAT ?
            encoder.encodeHeartbeat(small, 0, nodeId, incarnation, nowNs, ++session.heartbeatSequence, 0L, 0L) :
            encoder.encodeGoodbye(small, 0, nodeId, incarnation, reason, detail.length() > 200 ? detail.substring(0, 200) : detail);
        if (session.control == null)
        {
            return false;
        }
        final int sealedLength = session.sealer.seal(FrameSeal.CONTROL, controlStreamId, small, 0, length, sealed);
        if (session.control.offer(sealed, 0, sealedLength) > 0)
        {
            session.sealer.sent(FrameSeal.CONTROL);
            return true;
        }
        return false;
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
        session.proxy = system.register(new ClientProxy(this, session));
        session.lastHeardNs = now;
        session.nextHeartbeatNs = now;
        session.nextAskSweepNs = now + ASK_SWEEP_NS;
        session.state = ClientSession.State.OPEN;
        openSessions.incrementAndGet();
        count(ClientCounter.SESSIONS_OPENED);
        sendControl(session, ControlKind.HEARTBEAT, null, null); // tells the client it is in
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
            drainPending(session);
            if (goodbye != null)
            {
                sendControl(session, ControlKind.GOODBYE, goodbye, why);
            }
        }
        session.state = ClientSession.State.CLOSED;
        sessions.remove(session.aeronSessionId);
        sessionList.remove(session);
        dirty.remove(session);
        if (!session.asks.isEmpty())
        {
            pendingAsks.addAndGet(-session.asks.size());
            counts.getAndAdd(ClientCounter.ASK_SLOTS_FREED_AT_END.ordinal(), session.asks.size());
            session.asks.clear();
        }
        session.pending.clear();
        if (wasOpen)
        {
            openSessions.decrementAndGet();
            count(ClientCounter.SESSIONS_ENDED);
            session.account.close(); // events already taken still repay it; nothing new is charged
            system.send(session.proxy, ClientProxy.STOP);
            LOG.info("node {}: {} disconnected: {}", nodeId, session, why);
        }
        session.closePublications(aeron);
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
            flush(session);
            endSession(session, "the node is shutting down", GoodbyeReason.SHUTDOWN);
        }
        handshakes.close();
        org.agrona.CloseHelper.quietCloseAll(controlSubscription, dataSubscription);
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

    /** Control frames: handshake steps (unsealed), and heartbeats and goodbyes of an open session. */
    private final class ControlFrames implements FrameHandler
    {
        @Override
        public void onEnvelope(final EnvelopeFrame frame)
        {
            count(ClientCounter.FRAMES_MALFORMED); // events go on the data stream
        }

        @Override
        public void onHandshake(final HandshakeFrame frame)
        {
            if (current != null)
            {
                count(ClientCounter.FRAMES_MALFORMED); // sealed handshake steps: none
                return;
            }
            if (!intakeStopped)
            {
                handshakes.onStep(frame, currentAeronSession, nowNs);
            }
        }

        @Override
        public void onHeartbeat(final HeartbeatFrame frame)
        {
            if (current == null)
            {
                count(ClientCounter.FRAMES_UNKNOWN_SESSION); // unsealed: proves nothing
            }
        }

        @Override
        public void onGoodbye(final GoodbyeFrame frame)
        {
            if (current == null)
            {
                count(ClientCounter.FRAMES_UNKNOWN_SESSION);
                return;
            }
            count(ClientCounter.GOODBYES_RECEIVED);
            endSession(current, "it said goodbye (" + frame.reason() + ')', null);
        }
    }

    /** Data frames of an open session: envelopes only. */
    private final class DataFrames implements FrameHandler
    {
        @Override
        public void onEnvelope(final EnvelopeFrame frame)
        {
            acceptEvent(current, frame);
        }

        @Override
        public void onHandshake(final HandshakeFrame frame)
        {
            count(ClientCounter.FRAMES_MALFORMED);
        }
    }

    private record Reply(ClientSession session, Envelope envelope)
    {
    }
}
