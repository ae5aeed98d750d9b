package io.troupe.actor.internal;

import io.troupe.actor.AgentErrorLog;
import io.troupe.actor.DeadLetterHandler;
import io.troupe.actor.MailboxCollapsed;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorRef;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.Behavior;
import io.troupe.actor.Chargeable;
import io.troupe.actor.Envelope;
import io.troupe.actor.FlowControl;
import io.troupe.actor.FlowControlConfig;
import io.troupe.actor.FundsCleared;
import io.troupe.actor.MailboxType;
import io.troupe.actor.PoolConfig;
import io.troupe.actor.SchedulerCookie;
import io.troupe.actor.ServiceId;
import io.troupe.actor.SystemCounter;
import io.troupe.actor.SystemCounters;
import io.troupe.actor.TypedBehavior;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredException;
import io.troupe.actor.UndeliveredReason;
import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.actor.spi.RemoteTransport;


import io.troupe.actor.internal.executor.ExecutorPool;
import io.troupe.actor.internal.mailbox.Mailbox;
import io.troupe.actor.internal.mailbox.MailboxMemory;
import io.troupe.actor.internal.mailbox.MailboxTable;
import io.troupe.actor.internal.scheduler.TimerAgent;
import io.troupe.memquota.Account;
import io.troupe.memquota.CoarseClock;
import io.troupe.memquota.MemoryQuotaTracker;
import io.troupe.memquota.MemoryReclaimer;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * The actors of one node: mailboxes, executor pools, the timer, and local services. Start one with
 * {@link #start}; register actors; send to them from anywhere; {@link #close()} drains and stops.
 *
 * <p>Thread safety: every method is safe from any thread. Sends never block.
 */
public final class LocalActorSystem extends ActorSystem implements ActorSystemSpi
{
    private static final Logger LOG = LoggerFactory.getLogger(LocalActorSystem.class);

    @SuppressWarnings("unchecked")
    private static final IntFunction<Consumer<ActorId>[]> PASS_AWAY_ARRAY = Consumer[]::new;
    /** Listeners of {@link #onPassAway}: copied on write, read by workers without a lock. */
    private volatile Consumer<ActorId>[] passAwayListeners = PASS_AWAY_ARRAY.apply(0);
    private final Object passAwayLock = new Object();
    private final ActorSystemConfig config;
    private final int nodeId;
    private final AgentErrorLog workerErrors;
    private final AgentErrorLog timerErrors;
    private final AgentErrorLog reclaimerErrors;
    private final MailboxTable table;
    private final ServiceTable services = new ServiceTable();
    private final RuntimeCounters counters = new RuntimeCounters();
    private final Router router;
    private final ExecutorPool[] pools;
    private final TimerAgent timer;
    private final AgentRunner timerRunner;
    private final MemoryQuotaTracker memoryQuota;
    private final AgentRunner reclaimerRunner;
    private final AtomicLong nextLocalId = new AtomicLong(1);
    private final Set<AskBehavior> pendingAsks = ConcurrentHashMap.newKeySet();
    private final Object lifecycleLock = new Object();
    private final FlowControl flow;

    private LocalActorSystem(final ActorSystemConfig config)
    {
        this.config = config;
        this.nodeId = config.nodeId();
        final ErrorHandler recorder = config.errorRecorder();
        this.workerErrors = new AgentErrorLog(LOG, "node " + nodeId + ": executor worker (outside a handler)",
            recorder);
        this.timerErrors = new AgentErrorLog(LOG, "node " + nodeId + ": timer agent", recorder);
        this.reclaimerErrors = new AgentErrorLog(LOG, "node " + nodeId + ": memory quota reclaimer", recorder);
        final List<PoolConfig> poolConfigs = config.pools();
        this.table = new MailboxTable(poolConfigs.size());
        this.router = new Router(nodeId, table, services, counters, config.deadLetterHandler());
        // FundsCleared goes out uncharged: a notice must not add to the debt it reports cleared
        this.flow = new FlowControl(config.flowControl(), nodeId, (waiter, event) -> router.route(
            new Envelope(waiter, ActorId.NONE, FundsCleared.TYPE, 0, 0L, event, null), null));
        final Dispatcher dispatcher = config.handlingObserver() == null ?
            new Dispatcher(router, table, counters, config.failureHandler(), recorder, nodeId) :
            new ObservingDispatcher(router, table, counters, config.failureHandler(), recorder, nodeId,
                config.handlingObserver());
        this.pools = new ExecutorPool[poolConfigs.size()];
        for (int i = 0; i < pools.length; i++)
        {
            final PoolConfig pc = poolConfigs.get(i);
            pools[i] = new ExecutorPool(
                i,
                pc.name(),
                pc.threads(),
                pc.eventsPerActivation(),
                pc.timePerActivation().toNanos(),
                pc.spinBeforeSleep().toNanos(),
                dispatcher,
                worker -> new ContextImpl(this, router, worker),
                SystemNanoClock.INSTANCE);
        }
        router.pools(pools);
        this.timer = new TimerAgent(config.clock(), envelope -> router.route(envelope, null));
        this.timerRunner = new AgentRunner(timer.idleStrategy(), this::onTimerError, null, timer);
        this.memoryQuota = MemoryQuotaTracker.create(config.memoryQuota(),
            CoarseClock.cached(TimeUnit.MILLISECONDS.toNanos(1)));
        if (config.memoryQuota().enabled())
        {
            final MemoryReclaimer reclaimer = new MemoryReclaimer(memoryQuota);
            // parks up to 1 ms between checks; a claim that crosses max unparks it at once
            this.reclaimerRunner = new AgentRunner(
                new BackoffIdleStrategy(1, 1, TimeUnit.MICROSECONDS.toNanos(100), TimeUnit.MILLISECONDS.toNanos(1)),
                this::onReclaimerError, null, reclaimer);
            reclaimer.wakeUpWith(() ->
            {
                final Thread thread = reclaimerRunner.thread();
                if (thread != null)
                {
                    LockSupport.unpark(thread);
                }
            });
        }
        else
        {
            this.reclaimerRunner = null;
        }
    }

    /**
     * Starts an actor system: validates the config, starts the pool threads and the timer thread.
     *
     * @param config the settings; {@link ActorSystemConfig#conclude()} is called.
     * @return the running system.
     * @throws IllegalArgumentException if a setting is invalid.
     */
    public static LocalActorSystem start(final ActorSystemConfig config)
    {
        final LocalActorSystem system = new LocalActorSystem(config.conclude());
        for (final ExecutorPool pool : system.pools)
        {
            pool.start(config.threadNamePrefix() + config.nodeId() + '-', system::onWorkerError);
        }
        // not AgentRunner.startOnThread: it renames the thread to the agent's role name
        final Thread timerThread = new Thread(system.timerRunner,
            config.threadNamePrefix() + config.nodeId() + "-timer");
        timerThread.setDaemon(true);
        timerThread.start();
        if (system.reclaimerRunner != null)
        {
            final Thread reclaimerThread = new Thread(
                system.reclaimerRunner, config.threadNamePrefix() + config.nodeId() + "-memquota");
            reclaimerThread.setDaemon(true);
            reclaimerThread.start();
        }
        return system;
    }

    /**
     * This node's id.
     *
     * @return the node id.
     */
    @Override
    public int nodeId()
    {
        return nodeId;
    }

    /**
     * The id of a pool by name.
     *
     * @param name the pool name.
     * @return its id.
     * @throws IllegalArgumentException if there is no such pool.
     */
    @Override
    public int poolId(final String name)
    {
        for (final ExecutorPool pool : pools)
        {
            if (pool.name().equals(name))
            {
                return pool.poolId();
            }
        }
        throw new IllegalArgumentException("no pool named '" + name + "'");
    }

    /**
     * Registers an actor on a new mailbox.
     *
     * @param behavior its first behaviour.
     * @param poolId   the pool to pin it to.
     * @param type     the mailbox type.
     * @return its id.
     * @throws IllegalArgumentException if there is no such pool.
     * @throws IllegalStateException    if the system has stopped or the mailbox table is full.
     */
    @Override
    public ActorId register(final Behavior behavior, final int poolId, final MailboxType type)
    {
        return registerOwning(behavior, poolId, type, null, false);
    }

    private ActorId registerOwning(
        final Behavior behavior,
        final int poolId,
        final MailboxType type,
        final Account ownedAccount,
        final boolean replySlot)
    {
        Objects.requireNonNull(behavior, "behavior");
        Objects.requireNonNull(type, "type");
        if (poolId < 0 || poolId >= pools.length)
        {
            closeQuietly(ownedAccount);
            throw new IllegalArgumentException("pool id " + poolId + " out of range 0.." + (pools.length - 1));
        }
        if (router.phase() == Router.STOPPED)
        {
            closeQuietly(ownedAccount);
            throw new IllegalStateException("actor system of node " + nodeId + " has stopped");
        }
        final long localId = replySlot ? nextLocalId.getAndIncrement() | ReplySlots.BIT : nextLocalId.getAndIncrement();
        final Mailbox mailbox = table.allocate(poolId, type);
        if (ownedAccount != null)
        {
            mailbox.attachMemory(new MailboxMemory(mailbox, ownedAccount, memoryQuota.clock(),
                router::scheduleFromOutside));
        }
        mailbox.occupy(localId, behavior);
        counters.increment(SystemCounter.ACTORS_REGISTERED);
        counters.increment(SystemCounter.ACTORS_ALIVE);
        return ActorId.of(nodeId, localId, mailbox.hint(), poolId);
    }

    private static void closeQuietly(final Account account)
    {
        if (account != null)
        {
            account.close();
        }
    }

    /**
     * Registers an actor on a new memory-tracked mailbox: every event queued for it is claimed against the
     * account until handled. When the quota reclaims the mailbox, queued events are dropped (tracked ones
     * reported as {@link UndeliveredReason#COLLAPSED}) and the actor receives {@link MailboxCollapsed}.
     *
     * @param behavior its first behaviour.
     * @param poolId   the pool to pin it to.
     * @param type     the mailbox type.
     * @param account  an account of {@link #memoryQuota()}; the mailbox keeps its own handle until its last
     *                 actor passes away.
     * @return its id.
     */
    @Override
    public ActorId register(final Behavior behavior, final int poolId, final MailboxType type, final Account account)
    {
        Objects.requireNonNull(account, "account");
        return registerOwning(behavior, poolId, type, account.duplicate(), false);
    }

    /**
     * The node's memory quota: open accounts here for memory-tracked mailboxes.
     *
     * @return the tracker.
     */
    @Override
    public MemoryQuotaTracker memoryQuota()
    {
        return memoryQuota;
    }

    /**
     * Sends an event from outside any actor (the sender is {@link ActorId#NONE}). A tracked event that cannot
     * be delivered goes to the {@link DeadLetterHandler}, as there is no actor to notify.
     *
     * @param recipient an actor or service id.
     * @param event     the event.
     * @param type      its type id.
     * @param flags     envelope flags.
     * @param cookie    opaque value.
     * @return false if the system is shutting down and refused the event.
     */
    @Override
    public boolean send(final ActorId recipient, final Object event, final int type, final int flags, final long cookie)
    {
        Objects.requireNonNull(recipient, "recipient");
        return send(new Envelope(recipient, ActorId.NONE, type, flags, cookie, event, null));
    }

    /**
     * Sends an event from outside any actor, charged to a given account (an ingress source's) with a given
     * cost.
     *
     * @param recipient an actor or service id.
     * @param event     the event.
     * @param type      its type id.
     * @param flags     envelope flags.
     * @param cookie    opaque value.
     * @param account   the account to charge, or null for the node's own account.
     * @param cost      the cost, 0 or more.
     * @return false if the system is shutting down and refused the event (its cost is repaid).
     * @throws IllegalArgumentException if the cost is negative.
     */
    @Override
    public boolean send(
        final ActorId recipient,
        final Object event,
        final int type,
        final int flags,
        final long cookie,
        final Chargeable account,
        final int cost)
    {
        Objects.requireNonNull(recipient, "recipient");
        FlowControlConfig.checkCost(cost);
        final Envelope envelope = new Envelope(recipient, ActorId.NONE, type, flags, cookie, event, null);
        if (flow.isEnabled())
        {
            envelope.chargeTo(account != null ? account : flow.nodeAccount(), cost);
        }
        return send(envelope);
    }

    /**
     * This node's credit flow control: opens accounts, and holds the node's own account.
     *
     * @return the flow control.
     */
    @Override
    public FlowControl flow()
    {
        return flow;
    }

    /**
     * Attaches the transport to other nodes (the interconnect does this when it starts). Until one is attached,
     * and after {@link #detachRemote}, every send to another node is undeliverable as
     * {@link UndeliveredReason#DISCONNECTED}.
     *
     * @param transport the transport.
     * @throws IllegalStateException if another transport is attached.
     */
    @Override
    public void attachRemote(final RemoteTransport transport)
    {
        synchronized (router)
        {
            if (router.remote() != null && router.remote() != transport)
            {
                throw new IllegalStateException("a remote transport is already attached: " + router.remote());
            }
            router.remote(transport);
        }
    }

    /**
     * Detaches the transport to other nodes, if it is the one attached.
     *
     * @param transport the transport.
     */
    @Override
    public void detachRemote(final RemoteTransport transport)
    {
        synchronized (router)
        {
            if (router.remote() == transport)
            {
                router.remote(null);
            }
        }
    }

    /**
     * The attached transport to other nodes.
     *
     * @return the transport, or null.
     */
    @Override
    public RemoteTransport remote()
    {
        return router.remote();
    }

    /**
     * Whether a node id is this node (or 0, "this node").
     *
     * @param nodeId the node id.
     * @return true if local.
     */
    @Override
    public boolean isLocalNode(final int nodeId)
    {
        return router.isLocal(nodeId);
    }

    /**
     * Sends a prepared envelope from outside any actor. An envelope not yet charged to an account is charged to
     * the node's own account (see {@link FlowControl#nodeAccount()}) with its type's cost.
     *
     * @param envelope the envelope; must not have been sent before.
     * @return false if the system is shutting down and refused the event (its cost is repaid).
     */
    @Override
    public boolean send(final Envelope envelope)
    {
        chargeUncharged(envelope);
        if (router.phase() != Router.RUNNING)
        {
            counters.increment(SystemCounter.REJECTED_SENDS);
            if (envelope.isTracked())
            {
                router.deadLetter(envelope, UndeliveredReason.SHUTDOWN);
            }
            else
            {
                envelope.settle();
            }
            return false;
        }
        router.route(envelope, null);
        return true;
    }

    /** A send from outside any handler not charged yet is charged to the node's own account, at its type's cost. */
    private void chargeUncharged(final Envelope envelope)
    {
        if (flow.isEnabled() && envelope.account() == null)
        {
            envelope.chargeTo(flow.nodeAccount(), flow.costOf(envelope.type()));
        }
    }

    /**
     * Sends an event with a type id and returns the first event sent back to the asker.
     *
     * @param recipient an actor or service id.
     * @param event     the request.
     * @param type      its type id.
     * @param timeout   how long to wait for the reply; positive.
     * @return a future of the reply (see {@link #ask(ActorId, Object, Duration)}).
     */
    @Override
    public CompletableFuture<Object> ask(final ActorId recipient, final Object event, final int type,
        final Duration timeout)
    {
        return ask(recipient, askerId -> event, type, Object.class, timeout);
    }

    @Override
    @SuppressWarnings("unchecked") // the reply slot completes the future only with an instance of replyType
    public <Q, R> CompletableFuture<R> ask(
        final ActorRef<Q> target,
        final Function<ActorRef<R>, ? extends Q> request,
        final Class<R> replyType,
        final Duration timeout)
    {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(replyType, "replyType");
        return (CompletableFuture<R>)(CompletableFuture<?>)ask(
            target.id(), askerId -> request.apply(ActorRef.of(askerId)), 0, replyType, timeout);
    }

    private CompletableFuture<Object> ask(
        final ActorId recipient,
        final Function<ActorId, Object> request,
        final int type,
        final Class<?> replyType,
        final Duration timeout)
    {
        Objects.requireNonNull(recipient, "recipient");
        checkAskTimeout(timeout);
        if (router.phase() != Router.RUNNING)
        {
            counters.increment(SystemCounter.REJECTED_SENDS);
            return CompletableFuture.failedFuture(new UndeliveredException(
                new Undelivered(recipient, type, 0, UndeliveredReason.SHUTDOWN, false)));
        }
        final AskBehavior asker = new AskBehavior(recipient, type, replyType, timeout, pendingAsks, counters);
        final ActorId askerId;
        try
        {
            askerId = registerOwning(asker, 0, MailboxType.SIMPLE, null, true);
        }
        catch (final RuntimeException ex)
        {
            asker.fail(ex);
            return asker.future();
        }
        timer.schedule(
            timeout.toNanos(), new Envelope(askerId, askerId, 0, 0, 0L, ReplySlots.TIMEOUT, null),
            asker.timeoutCookie());
        try
        {
            final Envelope envelope = new Envelope(
                recipient, askerId, type, Envelope.FLAG_TRACK_DELIVERY, 0L, request.apply(askerId), null);
            chargeUncharged(envelope);
            router.route(envelope, null);
        }
        catch (final RuntimeException ex)
        {
            // the request never left: end the ask, let its slot pass away, and tell the caller as a send would
            asker.fail(ex);
            router.route(new Envelope(askerId, ActorId.NONE, 0, 0, 0L, new ReplySlots.SendFailed(ex), null), null);
            throw ex;
        }
        return asker.future();
    }

    static void checkAskTimeout(final Duration timeout)
    {
        if (timeout == null || timeout.isNegative() || timeout.isZero())
        {
            throw new IllegalArgumentException("ask timeout must be positive: " + timeout);
        }
    }

    @Override
    public <T> ActorRef<T> spawn(
        final Class<T> eventType, final TypedBehavior<T> behavior, final int poolId, final MailboxType type)
    {
        return ActorRef.of(register(new TypedActor<>(eventType, behavior, this), poolId, type));
    }

    /**
     * Maps a service id to a local actor. Replaces an earlier mapping of the same name.
     *
     * @param service the service id, on node 0 or this node.
     * @param actor   a local actor id (not a service id).
     * @return the previous mapping, or null.
     * @throws IllegalArgumentException if the actor is a service id, or either id names another node.
     */
    @Override
    public ActorId registerService(final ServiceId service, final ActorId actor)
    {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(actor, "actor");
        if (actor.isService())
        {
            throw new IllegalArgumentException(
                "service " + service + " cannot map to another service id " + actor + "; map it to an actor id");
        }
        if (!router.isLocal(service.nodeId()))
        {
            throw new IllegalArgumentException("service " + service + " belongs to node " + service.nodeId() +
                "; this is node " + nodeId);
        }
        if (!router.isLocal(actor.nodeId()))
        {
            throw new IllegalArgumentException("local service " + service + " must map to an actor of this node (" +
                nodeId + "), not " + actor);
        }
        return services.put(service, actor);
    }

    /**
     * Removes a service mapping.
     *
     * @param service the service id.
     * @return the actor it mapped to, or null if it was not mapped.
     */
    @Override
    public ActorId unregisterService(final ServiceId service)
    {
        Objects.requireNonNull(service, "service");
        if (!router.isLocal(service.nodeId()))
        {
            throw new IllegalArgumentException("service " + service + " belongs to node " + service.nodeId() +
                "; this is node " + nodeId);
        }
        return services.remove(service);
    }

    /**
     * The local actor a service id maps to.
     *
     * @param service the service id, on node 0 or this node.
     * @return the actor id, or null if not mapped here (always null for a service of another node).
     */
    @Override
    public ActorId lookupService(final ServiceId service)
    {
        Objects.requireNonNull(service, "service");
        return router.isLocal(service.nodeId()) ? services.lookup(service) : null;
    }


    /**
     * Whether the system accepts sends from outside (false once shutdown began).
     *
     * @return true while running.
     */
    @Override
    public boolean isRunning()
    {
        return router.phase() == Router.RUNNING;
    }

    /**
     * Reads the counters.
     *
     * @return a snapshot.
     */
    @Override
    public SystemCounters counters()
    {
        return CountersSnapshot.read(pools, table, counters, timer);
    }

    /**
     * Shuts down with the configured drain deadline.
     */
    @Override
    public void close()
    {
        shutdown(config.shutdownTimeout());
    }

    /**
     * Shuts down: refuses sends from outside, stops the timer (pending timers are discarded), lets the pools
     * drain until no actor has work or the deadline passes, stops the threads, then reports every tracked
     * event still queued as a dead letter with reason {@link UndeliveredReason#SHUTDOWN} and fails pending
     * asks. Idempotent; later calls return at once.
     *
     * @param drainTimeout how long the pools may drain.
     * @return true if the pools drained and every thread exited in time.
     */
    @Override
    public boolean shutdown(final Duration drainTimeout)
    {
        synchronized (lifecycleLock)
        {
            if (router.phase() != Router.RUNNING)
            {
                return true;
            }
            router.phase(Router.DRAINING);
        }
        final long deadlineNs = System.nanoTime() + drainTimeout.toNanos();
        timer.wakeForClose();
        timerRunner.close();
        final boolean drained = Quiescence.await(pools, deadlineNs);
        router.phase(Router.STOPPED);
        boolean exited = true;
        for (final ExecutorPool pool : pools)
        {
            try
            {
                exited &= pool.stop(Math.max(TimeUnit.SECONDS.toNanos(1), deadlineNs - System.nanoTime()));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                exited = false;
            }
        }
        if (!exited)
        {
            LOG.warn("node {}: some worker threads did not exit; a handler may be stuck", nodeId);
        }
        final long[] left = new long[2];
        final boolean threadsGone = exited;
        table.forEach(mailbox ->
        {
            if (!threadsGone && mailbox.state() == Mailbox.RUNNING)
            {
                left[1]++; // a stuck handler's thread owns this queue; it reports the rest when it returns
                return;
            }
            left[0] += router.failQueued(mailbox);
        });
        if (left[1] > 0)
        {
            LOG.warn("node {}: {} mailboxes are held by handlers that overran shutdown; their queued events are " +
                "reported when those handlers return", nodeId, left[1]);
        }
        if (reclaimerRunner != null)
        {
            reclaimerRunner.close();
        }
        memoryQuota.close();
        for (final AskBehavior asker : pendingAsks)
        {
            asker.failOnShutdown();
        }
        pendingAsks.clear();
        if (left[0] > 0 || !drained)
        {
            LOG.info("node {}: shut down with {} events still queued (drained={})", nodeId, left[0], drained);
        }
        return drained && exited;
    }

    // ------------------------------------------------------------------ used by the runtime

    long nextLocalId()
    {
        return nextLocalId.getAndIncrement();
    }

    RuntimeCounters runtimeCounters()
    {
        return counters;
    }

    void onRegistered()
    {
        counters.increment(SystemCounter.ACTORS_REGISTERED);
        counters.increment(SystemCounter.ACTORS_ALIVE);
    }

    void onPassedAway(final ActorId actor)
    {
        counters.increment(SystemCounter.ACTORS_PASSED_AWAY); // first: whoever sees alive drop sees this
        counters.decrement(SystemCounter.ACTORS_ALIVE);
        for (final Consumer<ActorId> listener : passAwayListeners)
        {
            try
            {
                listener.accept(actor);
            }
            catch (final RuntimeException ex)
            {
                counters.increment(SystemCounter.HANDLER_FAILURES);
            }
        }
    }

    @Override
    public ErrorHandler errorRecorder()
    {
        return config.errorRecorder();
    }

    @Override
    public AutoCloseable onPassAway(final Consumer<ActorId> listener)
    {
        Objects.requireNonNull(listener, "listener");
        synchronized (passAwayLock)
        {
            final Consumer<ActorId>[] next = Arrays.copyOf(passAwayListeners, passAwayListeners.length + 1);
            next[next.length - 1] = listener;
            passAwayListeners = next;
        }
        return () ->
        {
            synchronized (passAwayLock)
            {
                passAwayListeners = Arrays.stream(passAwayListeners).filter(each -> each != listener)
                    .toArray(PASS_AWAY_ARRAY);
            }
        };
    }

    void scheduleTimer(final long delayNs, final Envelope envelope, final SchedulerCookie cookie)
    {
        timer.schedule(delayNs, envelope, cookie);
    }

    private void onWorkerError(final Throwable error)
    {
        workerErrors.onError(error);
    }

    private void onTimerError(final Throwable error)
    {
        timerErrors.onError(error);
    }

    private void onReclaimerError(final Throwable error)
    {
        reclaimerErrors.onError(error);
    }
}
