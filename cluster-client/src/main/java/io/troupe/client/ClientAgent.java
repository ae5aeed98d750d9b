package io.troupe.client;

import io.aeron.Aeron;
import io.aeron.ChannelUriStringBuilder;
import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.Header;
import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredException;
import io.troupe.actor.UndeliveredReason;
import io.troupe.interconnect.AgentIdle;
import io.troupe.interconnect.InterconnectConfig;
import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.interconnect.seal.HandshakeAuth;
import io.troupe.registry.LookupResult;
import io.troupe.registry.ServiceDown;
import io.troupe.registry.ServiceUp;
import io.troupe.registry.Subscribe;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.serialization.TroupeCodecs;
import io.troupe.serialization.wire.ClientProtocol;
import io.troupe.serialization.wire.EnvelopeCompaction;
import io.troupe.serialization.wire.EnvelopeFrame;
import io.troupe.serialization.wire.FrameDecoder;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.serialization.wire.FrameHandler;
import io.troupe.serialization.wire.FrameResult;
import io.troupe.serialization.wire.GoodbyeFrame;
import io.troupe.serialization.wire.GoodbyeReason;
import io.troupe.serialization.wire.HandshakeFrame;
import io.troupe.serialization.wire.HandshakePhase;
import io.troupe.serialization.wire.HeartbeatFrame;
import io.troupe.serialization.wire.WireFormat;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;

/**
 * The client's one thread: runs the embedded media driver (if any) and the Aeron client, connects to one node at a
 * time ({@link NodeLink}), moves what callers put in the send buffer into sealed messages, reads the node's
 * replies and notices, times asks out, and moves to the next endpoint when the node goes.
 */
final class ClientAgent implements Agent
{
    private static final Logger LOG = LoggerFactory.getLogger(TroupeClient.class);
    /** Send-buffer record types. */
    static final int SEND = 1;
    static final int ASK = 2;
    /** Where an envelope frame keeps its cookie: the header, then recipient and sender (two longs each). */
    static final int FRAME_COOKIE_OFFSET = WireFormat.HEADER_LENGTH + 4 * Long.BYTES;
    private static final long HOUSEKEEPING_NS = 1_000_000L;
    private static final long ASK_SWEEP_NS = 5_000_000L;
    private static final long RETRY_MIN_NS = 100_000_000L;
    private static final long RETRY_MAX_NS = 1_000_000_000L;
    private static final SecureRandom RANDOM = new SecureRandom();

    final ClientConfig config;
    final EventCodecRegistry codecs;
    final byte[] secret;
    final HandshakeAuth auth;
    final int clientId = RANDOM.nextInt(Integer.MAX_VALUE - 1) + 1;
    final FrameEncoder encoder = new FrameEncoder();
    final AgentIdle idle = new AgentIdle();
    final ManyToOneRingBuffer sendBuffer;
    final ConcurrentHashMap<Long, PendingAsk> pending = new ConcurrentHashMap<>();
    final Map<ServiceId, CopyOnWriteArrayList<TroupeClient.Watch>> watches = new ConcurrentHashMap<>();
    final ClientCounters counters = new ClientCounters();
    final CompletableFuture<Void> connected = new CompletableFuture<>();
    final int maxFrame;
    String replyEndpoint;
    private final MediaDriver driver;
    private final AgentInvoker driverInvoker;
    private final Aeron aeron;
    private final AgentInvoker conductor;
    private final Subscription controlSubscription;
    private final Subscription dataSubscription;
    private final FragmentAssembler controlAssembler = new FragmentAssembler(this::onControlMessage);
    private final FragmentAssembler dataAssembler = new FragmentAssembler(this::onDataMessage);
    private final FrameDecoder controlDecoder;
    private final FrameDecoder dataDecoder;
    private final UnsafeBuffer batch;
    private final UnsafeBuffer sealed;
    private final UnsafeBuffer opened;
    /** Where compact frames are rebuilt whole. */
    private final UnsafeBuffer expanded;
    private final ClientProtocol.FrameSink dataFrameSink = this::onDataFrame;
    /** Where the batch's last full envelope frame starts (what a compact frame repeats), or -1. */
    private int baseAt = -1;
    private final UnsafeBuffer small = new UnsafeBuffer(new byte[512]);
    private final int packLimit;
    private final long failureTimeoutNs;
    private final long heartbeatIntervalNs;
    private final long connectDeadlineNs;
    private final List<String> endpoints;
    private final Map<String, String> reasons = new LinkedHashMap<>();
    private final ControlledMessageHandler recordHandler = this::onRecord;
    private int batchLength;
    private NodeLink link;
    private int nextEndpoint;
    private long nextAttemptNs;
    private long retryNs = RETRY_MIN_NS;
    private int attemptsThisRound;
    private int refusalsThisRound;
    private long nowNs;
    private long nextHousekeepingNs;
    private long nextAskSweepNs;
    /** The Aeron session of the message being read, and whether the link opened it. */
    private int readingSession;
    private volatile String connectedTo;

    ClientAgent(final ClientConfig config, final EventCodecRegistry codecs)
    {
        this.config = config;
        this.codecs = codecs;
        this.secret = config.secret();
        this.auth = new HandshakeAuth(secret, HandshakeAuth.CLIENT_DOMAIN);
        this.endpoints = config.endpoints();
        final int maxMessage = InterconnectConfig.maxMessageLength(config.termLength());
        this.maxFrame = maxMessage - FrameSeal.OVERHEAD - ClientProtocol.LENGTH_PREFIX;
        this.batch = new UnsafeBuffer(new byte[maxMessage - FrameSeal.OVERHEAD]);
        this.sealed = new UnsafeBuffer(new byte[maxMessage]);
        this.opened = new UnsafeBuffer(new byte[maxMessage]);
        this.expanded = new UnsafeBuffer(new byte[maxMessage + EnvelopeCompaction.FIXED_LENGTH]);
        this.packLimit = Math.min(batch.capacity(), config.mtuLength() - 64 - FrameSeal.OVERHEAD);
        this.failureTimeoutNs = config.failureTimeout().toNanos();
        this.heartbeatIntervalNs = config.heartbeatInterval().toNanos();
        this.sendBuffer = new ManyToOneRingBuffer(new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(
            config.sendBufferBytes() + org.agrona.concurrent.ringbuffer.RingBufferDescriptor.TRAILER_LENGTH)));
        this.controlDecoder = new FrameDecoder(new ControlFrames(), maxMessage);
        this.dataDecoder = new FrameDecoder(new DataFrames(), maxMessage);
        this.nowNs = System.nanoTime();
        this.connectDeadlineNs = nowNs + config.connectTimeout().toNanos();
        MediaDriver launched = null;
        Aeron client = null;
        try
        {
            launched = config.aeronDir() == null ? launchDriver(config) : null;
            this.driverInvoker = launched == null ? null : launched.sharedAgentInvoker();
            client = Aeron.connect(new Aeron.Context()
                .aeronDirectoryName(launched == null ? config.aeronDir() : launched.aeronDirectoryName())
                .driverAgentInvoker(driverInvoker)
                .useConductorAgentInvoker(true)
                .clientName("troupe-client-" + clientId)
                .errorHandler(new io.troupe.actor.AgentErrorLog(LOG, "client " + clientId + ": Aeron")));
            this.conductor = client.conductorAgentInvoker();
            final String host = config.replyHost() != null ? config.replyHost() : routedAddress(endpoints.get(0));
            final int port = freeUdpPort(host);
            this.replyEndpoint = (host.contains(":") ? '[' + host + ']' : host) + ':' + port;
            final String channel = new ChannelUriStringBuilder().media("udp").endpoint(replyEndpoint).build();
            this.controlSubscription = client.addSubscription(channel, config.controlStreamId());
            this.dataSubscription = client.addSubscription(channel, config.dataStreamId());
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(client, launched);
            deleteDriverDirectory(launched);
            throw ex;
        }
        this.driver = launched;
        this.aeron = client;
    }

    private static MediaDriver launchDriver(final ClientConfig config)
    {
        final Path base = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm") :
            Path.of(System.getProperty("java.io.tmpdir"));
        final String dir = base.resolve("troupe-client-" + ProcessHandle.current().pid() + '-' +
            Long.toHexString(RANDOM.nextLong())).toString();
        return MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(dir)
            .threadingMode(ThreadingMode.INVOKER)
            .asyncExecutorEnabled(false)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .termBufferSparseFile(true)
            .publicationTermBufferLength(config.termLength())
            .ipcTermBufferLength(64 * 1024)
            .mtuLength(config.mtuLength())
            .errorHandler(new io.troupe.actor.AgentErrorLog(LOG, "client media driver")));
    }

    private static void deleteDriverDirectory(final MediaDriver driver)
    {
        if (driver != null)
        {
            org.agrona.IoUtil.delete(new java.io.File(driver.aeronDirectoryName()), true);
        }
    }

    /** The local address the system routes to a node: what the node can send back to. No packet is sent. */
    private static String routedAddress(final String endpoint)
    {
        final int colon = endpoint.lastIndexOf(':');
        final String host = endpoint.substring(0, colon).replace("[", "").replace("]", "");
        try (DatagramSocket socket = new DatagramSocket())
        {
            socket.connect(new InetSocketAddress(host, Integer.parseInt(endpoint.substring(colon + 1))));
            return socket.getLocalAddress().getHostAddress();
        }
        catch (final java.io.IOException ex)
        {
            throw new IllegalArgumentException("no route to " + endpoint + ": " + ex.getMessage(), ex);
        }
    }

    private static int freeUdpPort(final String host)
    {
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(host, 0)))
        {
            return socket.getLocalPort();
        }
        catch (final java.io.IOException ex)
        {
            throw new IllegalArgumentException("cannot bind a UDP port on " + host + ": " + ex.getMessage(), ex);
        }
    }

    @Override
    public String roleName()
    {
        return "troupe-client-" + clientId;
    }

    @Override
    public int doWork()
    {
        nowNs = System.nanoTime();
        int work = driverInvoker == null ? 0 : driverInvoker.invoke();
        work += conductor.invoke();
        work += controlSubscription.poll(controlAssembler, 64);
        work += dataSubscription.poll(dataAssembler, 64);
        work += advanceLink();
        if (link != null && link.isOpen())
        {
            work += send();
        }
        if (nowNs - nextHousekeepingNs >= 0)
        {
            nextHousekeepingNs = nowNs + HOUSEKEEPING_NS;
            work += housekeeping();
        }
        return work;
    }

    String connectedTo()
    {
        return connectedTo;
    }

    int nodeId()
    {
        final NodeLink current = link;
        return current != null && current.isOpen() ? current.nodeId : 0;
    }

    // ------------------------------------------------------------------------------------------- the session

    private int advanceLink()
    {
        if (link == null)
        {
            if (nowNs - nextAttemptNs < 0)
            {
                return 0;
            }
            final String endpoint = endpoints.get(nextEndpoint);
            nextEndpoint = (nextEndpoint + 1) % endpoints.size();
            link = new NodeLink(aeron, config, endpoint, nowNs, failureTimeoutNs);
            return 1;
        }
        switch (link.state)
        {
            case CONNECTING, HELLO_SENT ->
            {
                link.sendHello(this, nowNs);
                if (nowNs - link.deadlineNs > 0)
                {
                    attemptFailed("no answer within " + failureTimeoutNs / 1_000_000 + " ms", false);
                }
            }
            case CONFIRMED ->
            {
                if (nowNs - link.deadlineNs > 0)
                {
                    attemptFailed("no session within " + failureTimeoutNs / 1_000_000 + " ms of the CONFIRM", false);
                }
            }
            default ->
            {
            }
        }
        return 0;
    }

    private void attemptFailed(final String why, final boolean refused)
    {
        final NodeLink failed = link;
        link = null;
        failed.close();
        reasons.put(failed.endpoint, why);
        attemptsThisRound++;
        if (refused)
        {
            refusalsThisRound++;
        }
        LOG.debug("client {}: {}: {}", clientId, failed.endpoint, why);
        if (attemptsThisRound >= endpoints.size())
        {
            // every endpoint tried once: give up if all refused (before the first session), else wait and go round
            if (!connected.isDone() && refusalsThisRound == endpoints.size())
            {
                failConnect();
                return;
            }
            attemptsThisRound = 0;
            refusalsThisRound = 0;
            nextAttemptNs = nowNs + retryNs;
            retryNs = Math.min(RETRY_MAX_NS, retryNs * 2);
        }
        else
        {
            nextAttemptNs = nowNs;
        }
    }

    private void failConnect()
    {
        final StringBuilder message = new StringBuilder("could not connect to cluster '").append(config.clusterId())
            .append("':");
        reasons.forEach((endpoint, why) -> message.append(' ').append(endpoint).append(": ").append(why).append(';'));
        message.setLength(message.length() - 1);
        connected.completeExceptionally(new ClientConnectException(message.toString()));
    }

    private void opened()
    {
        link.state = NodeLink.State.OPEN;
        link.lastHeardNs = nowNs;
        link.nextHeartbeatNs = nowNs;
        retryNs = RETRY_MIN_NS;
        attemptsThisRound = 0;
        refusalsThisRound = 0;
        reasons.clear();
        connectedTo = link.endpoint;
        counters.sessions.incrementAndGet();
        for (final ServiceId name : watches.keySet())
        {
            appendEvent(new Subscribe(name), 0L);
        }
        LOG.info("client {}: connected to {}", clientId, link);
        connected.complete(null);
    }

    /** The session ended: its asks fail (unsure if they went out), what was not sent is told, and the next node is tried. */
    private void sessionLost(final String why)
    {
        final NodeLink lost = link;
        link = null;
        connectedTo = null;
        counters.sessionsLost.incrementAndGet();
        LOG.warn("client {}: lost {}: {}", clientId, lost, why);
        if (lost.isOpen())
        {
            sendGoodbye(lost, GoodbyeReason.TIMEOUT, why);
        }
        lost.close();
        discardBatch(UndeliveredReason.DISCONNECTED);
        for (final PendingAsk ask : pending.values())
        {
            fail(ask, new UndeliveredException(new Undelivered(ask.target, ask.type, ask.id,
                UndeliveredReason.DISCONNECTED, ask.sent)));
        }
        nextAttemptNs = nowNs;
    }

    // ------------------------------------------------------------------------------------------- sending

    private int send()
    {
        if (batchLength > 0 && !flush())
        {
            return 0;
        }
        final int records = sendBuffer.controlledRead(recordHandler, 256);
        if (batchLength > 0)
        {
            flush();
        }
        return records;
    }

    private ControlledMessageHandler.Action onRecord(final int type, final org.agrona.MutableDirectBuffer buffer,
        final int index, final int length)
    {
        PendingAsk ask = null;
        if (type == ASK)
        {
            ask = pending.get(buffer.getLong(index + FRAME_COOKIE_OFFSET, ByteOrder.LITTLE_ENDIAN));
            if (ask == null || ask.future.isDone())
            {
                return ControlledMessageHandler.Action.CONTINUE; // timed out or failed before it went: not sent
            }
        }
        final boolean compact = baseAt >= 0 && EnvelopeCompaction.isBase(buffer, index, length) &&
            EnvelopeCompaction.repeatsHeader(buffer, index, batch, baseAt);
        final int entry = compact ? EnvelopeCompaction.compactLength(length) : length;
        if (batchLength > 0 && batchLength + ClientProtocol.LENGTH_PREFIX + entry > packLimit)
        {
            if (!flush())
            {
                return ControlledMessageHandler.Action.ABORT;
            }
            return onRecord(type, buffer, index, length); // a new batch: this frame goes whole, as its base
        }
        final int at = batchLength + ClientProtocol.LENGTH_PREFIX;
        if (compact)
        {
            EnvelopeCompaction.writeCompact(batch, at, buffer, index, length);
            ClientProtocol.putLength(batch, batchLength, entry | ClientProtocol.COMPACT_FLAG);
        }
        else
        {
            batch.putBytes(at, buffer, index, length);
            ClientProtocol.putLength(batch, batchLength, length);
            baseAt = EnvelopeCompaction.isBase(batch, at, length) ? at : -1;
        }
        batchLength = at + entry;
        if (ask != null)
        {
            ask.sent = true;
        }
        counters.framesSent.incrementAndGet();
        return ControlledMessageHandler.Action.CONTINUE;
    }

    /** Seals the batch and offers it; a push-back keeps it (sealed again next time, with the same number). */
    private boolean flush()
    {
        final int length = link.sealer.seal(FrameSeal.DATA, config.dataStreamId(), batch, 0, batchLength, sealed);
        if (link.data.offer(sealed, 0, length) > 0)
        {
            link.sealer.sent(FrameSeal.DATA);
            batchLength = 0;
            baseAt = -1;
            return true;
        }
        counters.offersBackPressured.incrementAndGet();
        return false;
    }

    /** An event of the client's own (a subscription), put straight into the batch. */
    @SuppressWarnings("unchecked")
    private void appendEvent(final Object event, final long cookie)
    {
        final EventCodec<Object> codec = (EventCodec<Object>)codecs.codecFor(event.getClass());
        final int payloadLength = codec.encodedLength(event);
        final int frameLength = WireFormat.envelopeLength(payloadLength, false);
        if (batchLength > 0 && batchLength + ClientProtocol.LENGTH_PREFIX + frameLength > batch.capacity())
        {
            return; // a full batch at session start: the subscription is renewed at the next session
        }
        final int payloadAt = encoder.beginEnvelope(batch, batchLength + ClientProtocol.LENGTH_PREFIX, ActorId.NONE,
            ActorId.NONE, codec.typeId(), 0, cookie, 0, 0L, 0, null, payloadLength);
        codec.encode(event, batch, payloadAt);
        ClientProtocol.putLength(batch, batchLength, frameLength);
        baseAt = -1; // not a base: what follows goes whole
        batchLength += ClientProtocol.LENGTH_PREFIX + frameLength;
    }

    /** What is packed but not sent will not be: asks fail, sends are told to the undelivered listener. */
    private void discardBatch(final UndeliveredReason reason)
    {
        ClientProtocol.unpack(batch, 0, batchLength, expanded, (buffer, frame, length) ->
        {
            final long cookie = buffer.getLong(frame + FRAME_COOKIE_OFFSET, ByteOrder.LITTLE_ENDIAN);
            if (cookie != 0)
            {
                final PendingAsk ask = pending.get(cookie);
                if (ask != null)
                {
                    ask.sent = false; // packed, never offered
                }
            }
            else
            {
                final ActorId recipient = ActorId.fromRaw(buffer.getLong(frame + WireFormat.HEADER_LENGTH,
                    ByteOrder.LITTLE_ENDIAN), buffer.getLong(frame + WireFormat.HEADER_LENGTH + Long.BYTES,
                    ByteOrder.LITTLE_ENDIAN));
                final int type = buffer.getInt(frame + WireFormat.HEADER_LENGTH + 6 * Long.BYTES, ByteOrder.LITTLE_ENDIAN);
                undelivered(new Undelivered(recipient, type, 0L, reason, false));
            }
        });
        batchLength = 0;
        baseAt = -1;
    }

    // ------------------------------------------------------------------------------------------- reading

    private void onControlMessage(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        readingSession = header.sessionId();
        if (FrameSeal.keyId(buffer, offset, length) < 0)
        {
            if (controlDecoder.decode(buffer, offset, length) != FrameResult.OK)
            {
                counters.framesRejected.incrementAndGet();
            }
            return;
        }
        final int bodyLength = open(FrameSeal.CONTROL, config.controlStreamId(), buffer, offset, length, header);
        if (bodyLength >= 0 && controlDecoder.decode(opened, FrameSeal.HEADER, bodyLength) != FrameResult.OK)
        {
            counters.framesRejected.incrementAndGet();
        }
    }

    private void onDataMessage(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        readingSession = header.sessionId();
        final int bodyLength = open(FrameSeal.DATA, config.dataStreamId(), buffer, offset, length, header);
        if (bodyLength < 0)
        {
            return;
        }
        if (!ClientProtocol.unpack(opened, FrameSeal.HEADER, FrameSeal.HEADER + bodyLength, expanded, dataFrameSink))
        {
            counters.framesRejected.incrementAndGet();
        }
    }

    private void onDataFrame(final DirectBuffer buffer, final int offset, final int length)
    {
        if (dataDecoder.decode(buffer, offset, length) != FrameResult.OK)
        {
            counters.framesRejected.incrementAndGet();
        }
    }

    /** Opens a sealed message of the current session into {@link #opened}; -1 if it is not one. */
    private int open(final int stream, final int streamId, final DirectBuffer buffer, final int offset, final int length,
        final Header header)
    {
        final NodeLink current = link;
        if (current == null || current.opener == null || header.sessionId() != current.nodeAeronSession ||
            length > opened.capacity() || FrameSeal.keyId(buffer, offset, length) != current.opener.keyId())
        {
            counters.framesRejected.incrementAndGet(); // an earlier session's, or nobody's
            return -1;
        }
        final int bodyLength = current.opener.open(stream, streamId, buffer, offset, length, opened);
        if (bodyLength == FrameSeal.GAP)
        {
            sessionLost("a message from the node went missing");
            return -1;
        }
        if (bodyLength < 0)
        {
            counters.framesRejected.incrementAndGet();
            return -1;
        }
        current.lastHeardNs = nowNs;
        if (current.state == NodeLink.State.CONFIRMED)
        {
            opened();
        }
        return bodyLength;
    }

    private void onEnvelope(final EnvelopeFrame frame)
    {
        final int type = frame.eventType();
        final long cookie = frame.cookie();
        final EventCodec<?> codec = codecs.codec(type);
        final Object event;
        try
        {
            event = codec == null ? null : codec.decode(frame.buffer(), frame.payloadOffset(), frame.payloadLength());
        }
        catch (final RuntimeException ex)
        {
            counters.framesRejected.incrementAndGet();
            final PendingAsk ask = cookie == 0 ? null : pending.remove(cookie);
            if (ask != null)
            {
                ask.future.completeExceptionally(ex);
            }
            return;
        }
        if (event instanceof Undelivered notice)
        {
            final PendingAsk ask = notice.cookie() == 0 ? null : pending.remove(notice.cookie());
            if (ask != null)
            {
                ask.future.completeExceptionally(new UndeliveredException(notice));
            }
            else if (notice.cookie() == 0)
            {
                undelivered(notice);
            }
            return;
        }
        if (cookie != 0)
        {
            final PendingAsk ask = pending.remove(cookie);
            if (ask == null)
            {
                counters.lateReplies.incrementAndGet();
            }
            else if (event == null)
            {
                ask.future.completeExceptionally(new IllegalStateException("the reply to ask " + cookie + " is of type " +
                    io.troupe.actor.EventTypes.describe(type) + ", which this client has no codec for"));
            }
            else if (ask.replyType != null && !ask.replyType.isInstance(event))
            {
                ask.future.completeExceptionally(new ClassCastException("the reply from " + ask.target + " is a " +
                    event.getClass().getName() + ", not the " + ask.replyType.getName() + " asked for"));
            }
            else
            {
                counters.replies.incrementAndGet();
                ask.future.complete(event instanceof LookupResult result ? result.instances() : event);
            }
            return;
        }
        if (event instanceof ServiceUp up)
        {
            notifyWatches(up.instance(), true);
        }
        else if (event instanceof ServiceDown down)
        {
            notifyWatches(down.instance(), false);
        }
        else
        {
            counters.unsolicited.incrementAndGet();
        }
    }

    private void notifyWatches(final io.troupe.registry.ServiceInstance instance, final boolean up)
    {
        final List<TroupeClient.Watch> list = watches.get(instance.service().onNode(0));
        if (list == null)
        {
            return;
        }
        for (final TroupeClient.Watch watch : list)
        {
            watch.deliver(instance, up);
        }
    }

    private void undelivered(final Undelivered notice)
    {
        counters.undelivered.incrementAndGet();
        try
        {
            config.undeliveredListener().accept(notice);
        }
        catch (final RuntimeException ex)
        {
            LOG.warn("client {}: the undelivered listener threw", clientId, ex);
        }
    }

    // ------------------------------------------------------------------------------------------- time

    private int housekeeping()
    {
        int work = 0;
        if (!connected.isDone() && nowNs - connectDeadlineNs > 0)
        {
            if (link != null)
            {
                reasons.put(link.endpoint, "no session yet when the connect timeout (" +
                    config.connectTimeout().toMillis() + " ms) passed");
            }
            failConnect();
        }
        final NodeLink current = link;
        if (current != null && current.isOpen())
        {
            if (nowNs - current.lastHeardNs > failureTimeoutNs)
            {
                sessionLost("nothing heard for " + failureTimeoutNs / 1_000_000 + " ms");
            }
            else if (nowNs - current.nextHeartbeatNs >= 0)
            {
                final int length = encoder.encodeHeartbeat(small, 0, clientId, current.incarnation, nowNs,
                    ++current.heartbeatSequence, 0L, 0L);
                if (sealAndOffer(current, small, length))
                {
                    current.nextHeartbeatNs = nowNs + heartbeatIntervalNs;
                    work++;
                }
            }
        }
        if (nowNs - nextAskSweepNs >= 0)
        {
            nextAskSweepNs = nowNs + ASK_SWEEP_NS;
            for (final PendingAsk ask : pending.values())
            {
                if (nowNs - ask.deadlineNs > 0)
                {
                    fail(ask, new TimeoutException("no reply from " + ask.target + " within the ask's timeout"));
                    work++;
                }
            }
        }
        return work;
    }

    private boolean sealAndOffer(final NodeLink current, final DirectBuffer body, final int length)
    {
        final int sealedLength = current.sealer.seal(FrameSeal.CONTROL, config.controlStreamId(), body, 0, length,
            sealed);
        if (current.control.offer(sealed, 0, sealedLength) > 0)
        {
            current.sealer.sent(FrameSeal.CONTROL);
            return true;
        }
        return false;
    }

    private void sendGoodbye(final NodeLink current, final GoodbyeReason reason, final String detail)
    {
        final int length = encoder.encodeGoodbye(small, 0, clientId, current.incarnation, reason,
            detail.length() > 200 ? detail.substring(0, 200) : detail);
        sealAndOffer(current, small, length);
    }

    private void fail(final PendingAsk ask, final Throwable failure)
    {
        if (pending.remove(ask.id, ask))
        {
            ask.future.completeExceptionally(failure);
        }
    }

    boolean isOpen()
    {
        return connectedTo != null;
    }

    @Override
    public void onClose()
    {
        final NodeLink current = link;
        if (current != null)
        {
            if (current.isOpen())
            {
                if (batchLength > 0)
                {
                    flush();
                }
                sendGoodbye(current, GoodbyeReason.SHUTDOWN, "the client is closing");
            }
            current.close();
        }
        link = null;
        connectedTo = null;
        for (final PendingAsk ask : pending.values())
        {
            fail(ask, new UndeliveredException(new Undelivered(ask.target, ask.type, ask.id, UndeliveredReason.SHUTDOWN,
                ask.sent)));
        }
        if (!connected.isDone())
        {
            connected.completeExceptionally(new ClientConnectException("the client was closed while connecting"));
        }
        CloseHelper.quietCloseAll(controlSubscription, dataSubscription);
        conductor.invoke();
        if (driverInvoker != null)
        {
            // let the driver send the goodbye before it goes
            final long until = System.nanoTime() + 20_000_000L;
            while (System.nanoTime() - until < 0)
            {
                driverInvoker.invoke();
                conductor.invoke();
                Thread.onSpinWait();
            }
        }
        CloseHelper.quietCloseAll(aeron, driver);
        deleteDriverDirectory(driver);
        java.util.Arrays.fill(secret, (byte)0);
    }

    /** Handshake steps (unsealed) and, in a session, heartbeats and goodbyes. */
    private final class ControlFrames implements FrameHandler
    {
        @Override
        public void onEnvelope(final EnvelopeFrame frame)
        {
            counters.framesRejected.incrementAndGet();
        }

        @Override
        public void onHandshake(final HandshakeFrame frame)
        {
            final NodeLink current = link;
            if (current == null)
            {
                return;
            }
            if (frame.phase() == HandshakePhase.WELCOME)
            {
                final String distrust = current.onWelcome(ClientAgent.this, frame, readingSession);
                if (distrust != null)
                {
                    attemptFailed(distrust, true);
                }
            }
            else if (frame.phase() == HandshakePhase.REFUSE && frame.peerNodeId() == clientId &&
                frame.peerIncarnation() == current.incarnation && !current.isOpen())
            {
                attemptFailed(frame.detail(), true);
            }
        }

        @Override
        public void onHeartbeat(final HeartbeatFrame frame)
        {
            // lastHeardNs is set by opening the message
        }

        @Override
        public void onGoodbye(final GoodbyeFrame frame)
        {
            if (link != null && link.isOpen())
            {
                sessionLost("the node said goodbye (" + frame.reason() + ": " + frame.detail() + ')');
            }
        }
    }

    /** The node's envelopes: replies, notices, results. */
    private final class DataFrames implements FrameHandler
    {
        @Override
        public void onEnvelope(final EnvelopeFrame frame)
        {
            ClientAgent.this.onEnvelope(frame);
        }
    }
}
