package io.troupe.client;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorRef;
import io.troupe.actor.AgentErrorLog;
import io.troupe.actor.ServiceId;
import io.troupe.actor.ServiceKey;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredException;
import io.troupe.actor.UndeliveredReason;
import io.troupe.interconnect.IdleMode;
import io.troupe.registry.Lookup;
import io.troupe.registry.RegistryCodecs;
import io.troupe.registry.ReplicaReader;
import io.troupe.registry.ServiceInstance;
import io.troupe.registry.Subscribe;
import io.troupe.registry.Unsubscribe;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.serialization.wire.WireFormat;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A process outside the cluster, talking to it through one node at a time: look services up, send events and ask
 * questions, subscribe to a service's instances. Thread safe: any number of threads may send and ask; one thread
 * of the client's own ({@code troupe-client-<id>}) does the network work.
 *
 * <pre>{@code
 * try (TroupeClient client = TroupeClient.connect(new ClientConfig()
 *         .endpoint("10.0.0.5:7400").endpoint("10.0.0.6:7400")
 *         .clusterId("prod").secret(clientSecret).codec(Quote.CODEC).codec(Price.CODEC)))
 * {
 *     Price price = client.ask(PRICER, new Quote("EURUSD"), Price.class, Duration.ofMillis(200)).join();
 * }
 * }</pre>
 *
 * <p>Sends never block longer than {@link ClientConfig#sendTimeout} and never buffer without bound: the send buffer
 * ({@link ClientConfig#sendBufferBytes}) is all there is, and the node reads a client only while the client's credit
 * account is clear, so a client that sends faster than the cluster handles sees {@link SendStatus#BACK_PRESSURED}.
 * A send is delivered at most once; what the node cannot deliver is told to {@link ClientConfig#onUndelivered}. An ask
 * ends exactly once: its reply, an {@link UndeliveredException} (a {@code REFUSED} event, an unknown target, or
 * {@code DISCONNECTED} if the node went: unsure if the ask had gone out), or a {@link TimeoutException}. When the node
 * goes, the client connects to the next endpoint and renews its subscriptions. Futures complete on the client's
 * thread: dependent stages that are not {@code async} must not block. In a cluster with a membership the node tells
 * the client where every member that is up can be reached, so it also fails over to members it was not given,
 * including those that joined after it connected ({@link #endpoints()}).
 */
public final class TroupeClient implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(TroupeClient.class);
    private static final ThreadLocal<FrameEncoder> ENCODERS = ThreadLocal.withInitial(FrameEncoder::new);

    private final ClientAgent agent;
    private final AgentRunner runner;
    private final ManyToOneRingBuffer sendBuffer;
    private final EventCodecRegistry codecs;
    private final ReplicaReader replica;
    private final long sendTimeoutNs;
    private final Duration askTimeout;
    private final AtomicLong askIds = new AtomicLong();
    private volatile boolean closed;

    private TroupeClient(final ClientAgent agent, final AgentRunner runner, final ReplicaReader replica)
    {
        this.agent = agent;
        this.runner = runner;
        this.sendBuffer = agent.sendBuffer;
        this.codecs = agent.codecs;
        this.replica = replica;
        this.sendTimeoutNs = agent.config.sendTimeout().toNanos();
        this.askTimeout = agent.config.askTimeout();
    }

    /**
     * Connects to the first node of the config's endpoints that answers, trying them in turn until the connect
     * timeout.
     *
     * @param config the settings; validated here.
     * @return the connected client.
     * @throws ClientConnectException naming, for each endpoint, why it failed: refused (the node's reason: cluster
     *                                id, secret, protocol version, too many clients) or no answer in time.
     * @throws io.troupe.memquota.ConfigurationException if a setting is bad.
     */
    public static TroupeClient connect(final ClientConfig config)
    {
        config.validate();
        final EventCodecRegistry.Builder builder =
            RegistryCodecs.register(EventCodecRegistry.builder().withTroupeCodecs());
        for (final EventCodec<?> codec : config.codecs())
        {
            builder.register(codec);
        }
        final ReplicaReader replica = config.replicaDirectory() == null ? null :
            ReplicaReader.open(config.replicaDirectory());
        final ClientAgent agent;
        try
        {
            agent = new ClientAgent(config, builder.build());
        }
        catch (final RuntimeException ex)
        {
            if (replica != null)
            {
                replica.close();
            }
            throw ex;
        }
        final AgentRunner runner = new AgentRunner(config.idleMode() == IdleMode.SPIN ? new BusySpinIdleStrategy() :
            agent.idle, new AgentErrorLog(LOG, "client " + agent.clientId), null, agent);
        AgentRunner.startOnThread(runner, runnable ->
        {
            final Thread thread = new Thread(runnable, agent.roleName());
            thread.setDaemon(true);
            return thread;
        });
        final TroupeClient client = new TroupeClient(agent, runner, replica);
        try
        {
            agent.connected.get(config.connectTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
            return client;
        }
        catch (final ExecutionException ex)
        {
            client.close();
            throw ex.getCause() instanceof ClientConnectException failure ? failure :
                new ClientConnectException("could not connect: " + ex.getCause());
        }
        catch (final TimeoutException ex)
        {
            client.close();
            throw new ClientConnectException("could not connect to cluster '" + config.clusterId() + "' within " +
                config.connectTimeout().toMillis() + " ms");
        }
        catch (final InterruptedException ex)
        {
            client.close();
            Thread.currentThread().interrupt();
            throw new ClientConnectException("interrupted while connecting");
        }
    }

    // ------------------------------------------------------------------------------------------- sending

    /**
     * Sends an event to an actor or a service: a {@code ServiceId} of node 0 reaches an instance of the service on
     * any node (the connected node's own first), one of node n the instance on node n.
     *
     * @param target the actor or service.
     * @param event  the event; its class must have a codec in the config.
     * @return whether the event was taken (see {@link SendStatus}).
     * @throws IllegalArgumentException if no codec encodes the event's class, or the event is too large for a message.
     */
    public SendStatus send(final ActorId target, final Object event)
    {
        return write(Objects.requireNonNull(target, "target"), event, ClientAgent.SEND, 0L, codecOf(event));
    }

    /**
     * Sends a typed event to a service.
     *
     * @param key   the service.
     * @param event the event.
     * @param <T>   what the service accepts.
     * @return whether the event was taken.
     */
    public <T> SendStatus send(final ServiceKey<T> key, final T event)
    {
        return send(key.id().onNode(0), event);
    }

    /**
     * Sends a typed event to an actor.
     *
     * @param ref   the actor.
     * @param event the event.
     * @param <T>   what the actor accepts.
     * @return whether the event was taken.
     */
    public <T> SendStatus send(final ActorRef<T> ref, final T event)
    {
        return send(ref.id(), event);
    }

    /**
     * Asks an actor or a service and returns the first event sent back (the actor answers with
     * {@code ctx.reply(...)}).
     *
     * @param target  the actor or service.
     * @param request the request; its class must have a codec.
     * @param timeout how long to wait; positive.
     * @return the reply's future (see the class comment for how it can fail).
     */
    public CompletableFuture<Object> ask(final ActorId target, final Object request, final Duration timeout)
    {
        return askFor(target, request, null, timeout);
    }

    /**
     * Asks a service with a typed request for a typed reply.
     *
     * @param key       the service.
     * @param request   the request.
     * @param replyType the reply's class: another class fails the future with a {@link ClassCastException}.
     * @param timeout   how long to wait; positive.
     * @param <Q>       what the service accepts.
     * @param <R>       the reply's type.
     * @return the reply's future.
     */
    public <Q, R> CompletableFuture<R> ask(final ServiceKey<Q> key, final Q request, final Class<R> replyType,
        final Duration timeout)
    {
        return askFor(key.id().onNode(0), request, Objects.requireNonNull(replyType, "replyType"), timeout);
    }

    /**
     * Asks an actor with a typed request for a typed reply.
     *
     * @param ref       the actor.
     * @param request   the request.
     * @param replyType the reply's class.
     * @param timeout   how long to wait; positive.
     * @param <Q>       what the actor accepts.
     * @param <R>       the reply's type.
     * @return the reply's future.
     */
    public <Q, R> CompletableFuture<R> ask(final ActorRef<Q> ref, final Q request, final Class<R> replyType,
        final Duration timeout)
    {
        return askFor(ref.id(), request, Objects.requireNonNull(replyType, "replyType"), timeout);
    }

    /**
     * Asks an actor or a service for a reply of a given class.
     *
     * @param target    the actor or service.
     * @param request   the request.
     * @param replyType the reply's class: another class fails the future with a {@link ClassCastException}.
     * @param timeout   how long to wait; positive.
     * @param <R>       the reply's type.
     * @return the reply's future.
     */
    public <R> CompletableFuture<R> ask(final ActorId target, final Object request, final Class<R> replyType,
        final Duration timeout)
    {
        return askFor(target, request, Objects.requireNonNull(replyType, "replyType"), timeout);
    }

    @SuppressWarnings("unchecked")
    private <R> CompletableFuture<R> askFor(final ActorId target, final Object request, final Class<R> replyType,
        final Duration timeout)
    {
        Objects.requireNonNull(target, "target");
        if (timeout == null || timeout.isNegative() || timeout.isZero())
        {
            throw new IllegalArgumentException("an ask's timeout must be positive, not " + timeout);
        }
        final EventCodec<Object> codec = codecOf(request);
        final long id = askIds.incrementAndGet();
        final PendingAsk ask = new PendingAsk(id, target, codec.typeId(), System.nanoTime() + timeout.toNanos(),
            replyType);
        agent.pending.put(id, ask);
        final SendStatus status = write(target, request, ClientAgent.ASK, id, codec);
        if (status != SendStatus.OK)
        {
            agent.pending.remove(id);
            final UndeliveredReason reason = status == SendStatus.BACK_PRESSURED ? UndeliveredReason.SHED :
                status == SendStatus.CLOSED ? UndeliveredReason.SHUTDOWN : UndeliveredReason.DISCONNECTED;
            ask.future.completeExceptionally(new UndeliveredException(new Undelivered(target, codec.typeId(), id,
                reason, false)));
        }
        return (CompletableFuture<R>)ask.future;
    }

    @SuppressWarnings("unchecked")
    private EventCodec<Object> codecOf(final Object event)
    {
        Objects.requireNonNull(event, "event");
        final EventCodec<Object> codec = (EventCodec<Object>)codecs.codecFor(event.getClass());
        if (codec == null)
        {
            throw new IllegalArgumentException("no codec encodes " + event.getClass().getName() +
                ": add one to the ClientConfig (and the nodes)");
        }
        return codec;
    }

    private SendStatus write(final ActorId target, final Object event, final int record, final long cookie,
        final EventCodec<Object> codec)
    {
        if (closed)
        {
            return SendStatus.CLOSED;
        }
        if (!agent.isOpen())
        {
            return SendStatus.NOT_CONNECTED;
        }
        final int payloadLength = codec.encodedLength(event);
        final int frameLength = WireFormat.envelopeLength(payloadLength, false);
        if (frameLength > agent.maxFrame)
        {
            throw new IllegalArgumentException("an event of " + payloadLength + " bytes is too large for a client " +
                "message (at most " + (agent.maxFrame - WireFormat.envelopeLength(0, false)) + " bytes; see " +
                "ClientConfig.termLength)");
        }
        final FrameEncoder encoder = ENCODERS.get();
        long deadlineNs = 0;
        while (true)
        {
            final int index = sendBuffer.tryClaim(record, frameLength);
            if (index >= 0)
            {
                try
                {
                    final int payloadAt = encoder.beginEnvelope(sendBuffer.buffer(), index, target, ActorId.NONE,
                        codec.typeId(), 0, cookie, 0, 0L, 0, null, payloadLength);
                    codec.encode(event, sendBuffer.buffer(), payloadAt);
                }
                catch (final RuntimeException ex)
                {
                    sendBuffer.abort(index);
                    throw ex;
                }
                sendBuffer.commit(index);
                agent.counters.sent.incrementAndGet();
                agent.idle.signal();
                return SendStatus.OK;
            }
            if (sendTimeoutNs == 0)
            {
                break;
            }
            final long now = System.nanoTime();
            if (deadlineNs == 0)
            {
                deadlineNs = now + sendTimeoutNs;
            }
            else if (now - deadlineNs > 0)
            {
                break;
            }
            LockSupport.parkNanos(50_000);
            if (closed)
            {
                return SendStatus.CLOSED;
            }
        }
        agent.counters.backPressured.incrementAndGet();
        return SendStatus.BACK_PRESSURED;
    }

    // ------------------------------------------------------------------------------------------- the directory

    /**
     * The live instances of a service: from the node's replica in shared memory if the config names a node's data
     * directory ({@link ClientConfig#replicaDirectory}), else asked of the connected node (waiting up to the ask
     * timeout).
     *
     * @param service {@code ServiceId(0, name)} for every node's instances, {@code ServiceId(n, name)} for node n's.
     * @return the instances, possibly none.
     * @throws IllegalStateException if the node could not be asked (not connected, timed out); the cause says why.
     */
    public List<ServiceInstance> lookup(final ServiceId service)
    {
        Objects.requireNonNull(service, "service");
        if (replica != null)
        {
            return replica.lookup(service);
        }
        try
        {
            return lookupAsync(service).get(askTimeout.toNanos(), TimeUnit.NANOSECONDS);
        }
        catch (final ExecutionException ex)
        {
            throw new IllegalStateException("lookup of " + service + " failed: " + ex.getCause(), ex.getCause());
        }
        catch (final TimeoutException ex)
        {
            throw new IllegalStateException("lookup of " + service + " timed out", ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while looking up " + service, ex);
        }
    }

    /**
     * The live instances of a typed service, as refs.
     *
     * @param key the service.
     * @param <T> what it accepts.
     * @return the refs, possibly none.
     */
    public <T> List<ActorRef<T>> lookup(final ServiceKey<T> key)
    {
        final List<ActorRef<T>> refs = new ArrayList<>();
        for (final ServiceInstance instance : lookup(key.id().onNode(0)))
        {
            refs.add(instance.ref());
        }
        return refs;
    }

    /**
     * Asks the connected node for a service's live instances (never the replica).
     *
     * @param service the service, as for {@link #lookup(ServiceId)}.
     * @return the instances' future.
     */
    @SuppressWarnings("unchecked")
    public CompletableFuture<List<ServiceInstance>> lookupAsync(final ServiceId service)
    {
        final CompletableFuture<?> result = askFor(Objects.requireNonNull(service, "service"), new Lookup(service),
            null, askTimeout);
        return (CompletableFuture<List<ServiceInstance>>)result;
    }

    /**
     * Hears a service's instances come and go: at once every live one, then each change. Survives failover (the
     * client subscribes again on the next node, and hears every live instance again).
     *
     * @param service  {@code ServiceId(0, name)} for every node's instances, {@code ServiceId(n, name)} for node n's.
     * @param listener called on the client's thread; must not block.
     * @return closing it stops the notices.
     */
    public AutoCloseable subscribe(final ServiceId service, final ServiceListener listener)
    {
        final ServiceId name = service.onNode(0);
        final Watch watch = new Watch(service.nodeId(), Objects.requireNonNull(listener, "listener"));
        final CopyOnWriteArrayList<Watch> list = agent.watches.computeIfAbsent(name,
            key -> new CopyOnWriteArrayList<>());
        list.add(watch);
        if (list.size() == 1)
        {
            final Subscribe subscribe = new Subscribe(name);
            write(name, subscribe, ClientAgent.SEND, 0L, codecOf(subscribe));
        }
        return () ->
        {
            list.remove(watch);
            if (list.isEmpty() && agent.watches.remove(name, list))
            {
                final Unsubscribe unsubscribe = new Unsubscribe(name);
                write(name, unsubscribe, ClientAgent.SEND, 0L, codecOf(unsubscribe));
            }
        };
    }

    // ------------------------------------------------------------------------------------------- state

    /**
     * Whether the client has a session now.
     *
     * @return true if connected.
     */
    public boolean isConnected()
    {
        return agent.isOpen();
    }

    /**
     * The endpoint of the node the client is connected to.
     *
     * @return {@code host:port}, or null while it has no session.
     */
    public String connectedEndpoint()
    {
        return agent.connectedTo();
    }

    /**
     * The nodes this client goes round when it connects and when its node goes: the endpoints it was given, then
     * those of the cluster's members that are up, as the node it is connected to last told it (a cluster with a
     * membership tells its clients when members join and go).
     *
     * @return {@code host:port} each, the given ones first; an unmodifiable list.
     */
    public List<String> endpoints()
    {
        return agent.endpoints();
    }

    /**
     * The id of the node the client is connected to.
     *
     * @return the node id, or 0 while it has no session.
     */
    public int nodeId()
    {
        return agent.nodeId();
    }

    /**
     * This client's id, as the nodes see it (random, per client).
     *
     * @return the id.
     */
    public int clientId()
    {
        return agent.clientId;
    }

    /**
     * Asks waiting for an outcome.
     *
     * @return the count.
     */
    public int pendingAsks()
    {
        return agent.pending.size();
    }

    /**
     * What the client counted.
     *
     * @return the counters (live).
     */
    public ClientCounters counters()
    {
        return agent.counters;
    }

    /**
     * Says goodbye to the node, fails what is still waiting ({@code Undelivered(SHUTDOWN)}), and releases the thread,
     * the Aeron client, the embedded driver and its directory, and the replica. Idempotent.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        runner.close();
        if (replica != null)
        {
            replica.close();
        }
    }

    /** One listener of a name, with the node it watches (0: all). */
    static final class Watch
    {
        private final int nodeId;
        private final ServiceListener listener;

        Watch(final int nodeId, final ServiceListener listener)
        {
            this.nodeId = nodeId;
            this.listener = listener;
        }

        void deliver(final ServiceInstance instance, final boolean up)
        {
            if (nodeId != 0 && instance.nodeId() != nodeId)
            {
                return;
            }
            try
            {
                if (up)
                {
                    listener.up(instance);
                }
                else
                {
                    listener.down(instance);
                }
            }
            catch (final RuntimeException ex)
            {
                LOG.warn("a service listener threw", ex);
            }
        }
    }
}
