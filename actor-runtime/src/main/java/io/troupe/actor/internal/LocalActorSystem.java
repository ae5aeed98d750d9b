package io.troupe.actor.internal;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorRef;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.AgentErrorLog;
import io.troupe.actor.Behavior;
import io.troupe.actor.Cancellable;
import io.troupe.actor.Chargeable;
import io.troupe.actor.Envelope;
import io.troupe.actor.FlowControl;
import io.troupe.actor.FlowControlConfig;
import io.troupe.actor.FundsCleared;
import io.troupe.actor.MailboxType;
import io.troupe.actor.PoolConfig;
import io.troupe.actor.SchedulerCookie;
import io.troupe.actor.TerminationReason;
import io.troupe.actor.ServiceId;
import io.troupe.actor.SystemCounter;
import io.troupe.actor.SystemCounters;
import io.troupe.actor.TypedBehavior;
import io.troupe.actor.UndeliveredReason;
import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.actor.spi.RemoteTransport;
import io.troupe.actor.internal.executor.ExecutorPool;
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
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The actors of one node: mailboxes, executor pools, the timer, and local services. Start one with
 * {@link #start}; register actors; send to them from anywhere; {@link #close()} drains and stops.
 *
 * <p>Thread safety: every method is safe from any thread. Sends never block.
 */
public final class LocalActorSystem extends ActorSystem implements ActorSystemSpi
{
    private static final Logger LOG = LoggerFactory.getLogger(LocalActorSystem.class);

    private final ActorSystemConfig config;
    private final int nodeId;
    private final AgentErrorLog workerErrors;
    private final AgentErrorLog timerErrors;
    private final AgentErrorLog reclaimerErrors;
    private final MailboxTable table;
    private final ServiceTable serviceTable = new ServiceTable();
    private final LocalServices services;
    private final RuntimeCounters counters = new RuntimeCounters();
    private final Router router;
    private final ExecutorPool[] pools;
    private final TimerAgent timer;
    private final Stops stops;
    private final DeathWatch deathWatch;
    /** Where scheduled sends go when they fire: the send path of an event from outside any actor. */
    private final Consumer<Envelope> scheduledSends = this::send;
    private final AgentRunner timerRunner;
    private final MemoryQuotaTracker memoryQuota;
    private final AgentRunner reclaimerRunner;
    private final ActorRegistry registry;
    private final Asks asks;
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
        this.router = new Router(nodeId, table, serviceTable, counters, config.deadLetterHandler());
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
        this.services = new LocalServices(nodeId, router, serviceTable);
        this.registry = new ActorRegistry(nodeId, pools.length, table, router, counters, memoryQuota,
            config.incarnation());
        this.asks = new Asks(registry, router, timer, counters, this::chargeUncharged);
        this.stops = new Stops(router, table, counters);
        this.deathWatch = new DeathWatch(this, router, nodeId, counters);
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

    @Override
    public ActorId register(final Behavior behavior, final int poolId, final MailboxType type)
    {
        return registry.register(behavior, poolId, type, null, false, null);
    }

    @Override
    public ActorId register(final Behavior behavior, final int poolId, final MailboxType type, final Account account)
    {
        Objects.requireNonNull(account, "account");
        return registry.register(behavior, poolId, type, account.duplicate(), false, null);
    }

    /** Registers an actor on behalf of another (its parent: besides this system, the only one that may stop it). */
    ActorId registerChild(final Behavior behavior, final int poolId, final MailboxType type, final Account account,
        final ActorId parent)
    {
        return registry.register(behavior, poolId, type, account == null ? null : account.duplicate(), false, parent);
    }

    @Override
    public boolean stop(final ActorId actor)
    {
        return stops.request(actor, null);
    }

    DeathWatch deathWatch()
    {
        return deathWatch;
    }

    @Override
    public void nodeGone(final int node, final TerminationReason reason)
    {
        deathWatch.nodeGone(node, reason);
    }

    /** A request of an actor to stop one it registered. */
    boolean stopChild(final ActorId child, final ActorId parent)
    {
        return stops.request(child, parent);
    }

    @Override
    public MemoryQuotaTracker memoryQuota()
    {
        return memoryQuota;
    }

    @Override
    public boolean send(final ActorId recipient, final Object event, final int type, final int flags, final long cookie)
    {
        Objects.requireNonNull(recipient, "recipient");
        return send(new Envelope(recipient, ActorId.NONE, type, flags, cookie, event, null));
    }

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

    @Override
    public FlowControl flow()
    {
        return flow;
    }

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

    @Override
    public RemoteTransport remote()
    {
        return router.remote();
    }

    @Override
    public boolean isLocalNode(final int nodeId)
    {
        return router.isLocal(nodeId);
    }

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

    @Override
    public CompletableFuture<Object> ask(final ActorId recipient, final Object event, final int type,
        final Duration timeout)
    {
        Objects.requireNonNull(recipient, "recipient");
        Asks.checkTimeout(timeout);
        return asks.ask(recipient, askerId -> event, type, Object.class, timeout);
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
        Asks.checkTimeout(timeout);
        return (CompletableFuture<R>)(CompletableFuture<?>)asks.ask(
            target.id(), askerId -> request.apply(ActorRef.of(askerId)), 0, replyType, timeout);
    }

    @Override
    public <T> ActorRef<T> spawn(
        final Class<T> eventType, final TypedBehavior<T> behavior, final int poolId, final MailboxType type)
    {
        return ActorRef.of(register(new TypedActor<>(eventType, behavior, this), poolId, type));
    }

    /** Spawns a typed actor on behalf of another (its parent). */
    <T> ActorRef<T> spawnChild(final Class<T> eventType, final TypedBehavior<T> behavior, final ActorId parent)
    {
        return ActorRef.of(registerChild(new TypedActor<>(eventType, behavior, this), parent.poolId(),
            MailboxType.SIMPLE, null, parent));
    }

    @Override
    public ActorId registerService(final ServiceId service, final ActorId actor)
    {
        return services.register(service, actor);
    }

    @Override
    public ActorId unregisterService(final ServiceId service)
    {
        return services.unregister(service);
    }

    @Override
    public ActorId lookupService(final ServiceId service)
    {
        return services.lookup(service);
    }

    @Override
    public boolean isRunning()
    {
        return router.phase() == Router.RUNNING;
    }

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
        final boolean exited = PoolShutdown.stopPools(pools, deadlineNs, nodeId);
        final long left = PoolShutdown.failQueued(table, router, exited, nodeId);
        if (reclaimerRunner != null)
        {
            reclaimerRunner.close();
        }
        memoryQuota.close();
        asks.failPendingOnShutdown();
        if (left > 0 || !drained)
        {
            LOG.info("node {}: shut down with {} events still queued (drained={})", nodeId, left, drained);
        }
        return drained && exited;
    }

    @Override
    public ErrorHandler errorRecorder()
    {
        return config.errorRecorder();
    }

    @Override
    public AutoCloseable onPassAway(final Consumer<ActorId> listener)
    {
        return registry.onPassAway(listener);
    }

    // ------------------------------------------------------------------ used by the runtime

    ActorRegistry registry()
    {
        return registry;
    }

    RuntimeCounters runtimeCounters()
    {
        return counters;
    }

    @Override
    public Cancellable schedule(final Duration initialDelay, final Duration interval, final ActorId recipient,
        final Object event, final int type, final int flags, final SchedulerCookie cookie)
    {
        return scheduleFrom(ActorId.NONE, initialDelay, interval, recipient, event, type, flags, cookie);
    }

    /** A scheduled send from an actor ({@code sender}) or from outside any ({@link ActorId#NONE}). */
    ScheduledSend scheduleFrom(final ActorId sender, final Duration initialDelay, final Duration interval,
        final ActorId recipient, final Object event, final int type, final int flags, final SchedulerCookie cookie)
    {
        final ScheduledSend send = ScheduledSend.of(scheduledSends, initialDelay, interval, recipient, sender, event,
            type, flags, cookie);
        if (!timer.schedule(ScheduledSend.saturatedNanos(initialDelay), send))
        {
            send.cancel(); // the timer has stopped: it would never fire
        }
        return send;
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
