package io.troupe.client;

import io.aeron.Aeron;
import io.aeron.ChannelUriStringBuilder;
import io.aeron.CommonContext;
import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.troupe.actor.AgentErrorLog;
import io.troupe.actor.ServiceId;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredException;
import io.troupe.actor.UndeliveredReason;
import io.troupe.interconnect.AgentIdle;
import io.troupe.interconnect.InterconnectConfig;
import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.interconnect.seal.HandshakeAuth;
import io.troupe.registry.ClusterEndpoints;
import io.troupe.registry.Subscribe;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.serialization.wire.ClientProtocol;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.serialization.wire.GoodbyeReason;
import io.troupe.serialization.wire.WireFormat;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

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
    /** An embedded driver's directory: this prefix, the process id, a random part. */
    static final String DRIVER_DIR_PREFIX = "troupe-client-";

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
    private final FragmentAssembler controlAssembler;
    private final FragmentAssembler dataAssembler;
    /** Reads what the node sends: handshake steps, heartbeats, goodbyes, replies and notices. */
    private final ClientReceiver receiver;
    private final UnsafeBuffer sealed;
    private final UnsafeBuffer small = new UnsafeBuffer(new byte[512]);
    /** Packs and seals what callers send. */
    private final ClientSender sender;
    private final long failureTimeoutNs;
    private final long heartbeatIntervalNs;
    private final long connectDeadlineNs;
    private final Endpoints endpoints;
    private final Map<String, String> reasons = new LinkedHashMap<>();
    NodeLink link;
    private long nextAttemptNs;
    private long retryNs = RETRY_MIN_NS;
    private int attemptsThisRound;
    private int refusalsThisRound;
    long nowNs;
    private long nextHousekeepingNs;
    private long nextAskSweepNs;
    private volatile String connectedTo;

    ClientAgent(final ClientConfig config, final EventCodecRegistry codecs)
    {
        this.config = config;
        this.codecs = codecs;
        this.secret = config.secret();
        this.auth = new HandshakeAuth(secret, HandshakeAuth.CLIENT_DOMAIN);
        this.endpoints = new Endpoints(config.endpoints());
        final int maxMessage = InterconnectConfig.maxMessageLength(config.termLength());
        this.maxFrame = maxMessage - FrameSeal.OVERHEAD - ClientProtocol.LENGTH_PREFIX;
        this.sealed = new UnsafeBuffer(new byte[maxMessage]);
        this.sender = new ClientSender(this, maxMessage, config.mtuLength() - 64 - FrameSeal.OVERHEAD);
        this.receiver = new ClientReceiver(this, maxMessage);
        this.controlAssembler = new FragmentAssembler(receiver::onControlMessage);
        this.dataAssembler = new FragmentAssembler(receiver::onDataMessage);
        this.failureTimeoutNs = config.failureTimeout().toNanos();
        this.heartbeatIntervalNs = config.heartbeatInterval().toNanos();
        this.sendBuffer = new ManyToOneRingBuffer(new UnsafeBuffer(ByteBuffer.allocateDirect(
            config.sendBufferBytes() + RingBufferDescriptor.TRAILER_LENGTH)));
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
                .errorHandler(new AgentErrorLog(LOG, "client " + clientId + ": Aeron")));
            this.conductor = client.conductorAgentInvoker();
            final String host = config.replyHost() != null ? config.replyHost() :
                routedAddress(config.endpoints().get(0));
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
        removeDeadClientsDirectories(base);
        final String dir = base.resolve(DRIVER_DIR_PREFIX + ProcessHandle.current().pid() + '-' +
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
            .errorHandler(new AgentErrorLog(LOG, "client media driver")));
    }

    /**
     * Removes the driver directories that clients killed without closing left behind ({@code kill -9}): those named
     * for a process that is gone and whose driver's heartbeat stopped. A live client's is never touched.
     */
    static void removeDeadClientsDirectories(final Path base)
    {
        try (Stream<Path> entries = Files.list(base))
        {
            entries.filter(path -> path.getFileName().toString().startsWith(DRIVER_DIR_PREFIX))
                .filter(ClientAgent::isDeadClientsDirectory)
                .forEach(path -> IoUtil.delete(path.toFile(), true));
        }
        catch (final IOException | RuntimeException ex)
        {
            LOG.debug("could not look for dead clients' driver directories in {}", base, ex);
        }
    }

    private static boolean isDeadClientsDirectory(final Path dir)
    {
        final String[] parts = dir.getFileName().toString().substring(DRIVER_DIR_PREFIX.length()).split("-", 2);
        try
        {
            final long pid = Long.parseLong(parts[0]);
            return ProcessHandle.of(pid).map(process -> !process.isAlive()).orElse(true) &&
                !CommonContext.isDriverActive(dir.toFile(), 1_000, message -> { });
        }
        catch (final NumberFormatException ex)
        {
            return false;
        }
    }

    private static void deleteDriverDirectory(final MediaDriver driver)
    {
        if (driver != null)
        {
            IoUtil.delete(new File(driver.aeronDirectoryName()), true);
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
        catch (final IOException ex)
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
        catch (final IOException ex)
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
            work += sender.send(link);
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

    List<String> endpoints()
    {
        return endpoints.all();
    }

    /** The node said where the cluster's members are: they join the endpoints this client goes round. */
    void learnEndpoints(final ClusterEndpoints update)
    {
        if (endpoints.learn(update))
        {
            counters.endpointUpdates.incrementAndGet();
            LOG.info("client {}: the cluster's endpoints at epoch {}: {}", clientId, update.epoch(), endpoints.all());
        }
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
            final String endpoint = endpoints.next();
            link = new NodeLink(aeron, config, endpoint, auth.newChallenge(), nowNs, failureTimeoutNs);
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

    void attemptFailed(final String why, final boolean refused)
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

    void opened()
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
            sender.appendEvent(new Subscribe(name), 0L);
        }
        LOG.info("client {}: connected to {}", clientId, link);
        connected.complete(null);
    }

    /**
     * The session ended: its asks fail (unsure if they went out), what was not sent is told, and the next node is
     * tried.
     */
    void sessionLost(final String why)
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
        sender.discardBatch(UndeliveredReason.DISCONNECTED);
        for (final PendingAsk ask : pending.values())
        {
            fail(ask, new UndeliveredException(new Undelivered(ask.target, ask.type, ask.id,
                UndeliveredReason.DISCONNECTED, ask.sent)));
        }
        nextAttemptNs = nowNs;
    }

    void undelivered(final Undelivered notice)
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
                // the attempt under way says what it saw, whichever attempt the timeout happens to fall in
                final String heard = link.state == NodeLink.State.CONFIRMED ? "no session yet" : "no answer yet";
                reasons.put(link.endpoint, heard + " when the connect timeout (" +
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
                sender.flush(current);
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
        Arrays.fill(secret, (byte)0);
    }

}
