package io.troupe.actor;

import io.troupe.memquota.ConfigurationException;
import io.troupe.memquota.MemoryQuotaConfig;
import io.troupe.memquota.Setting;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Settings of an {@link ActorSystem}: fluent setters, then {@link #conclude()} fills defaults and validates
 * every value with a message that names the setting and its allowed range.
 */
public final class ActorSystemConfig
{
    /** Default name of the only pool when none is configured. */
    public static final String DEFAULT_POOL = "default";
    /** Default drain deadline of {@link ActorSystem#close()}. */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = ActorSystemSettings.SHUTDOWN_TIMEOUT.defaultValue();

    private static final Logger LOG = LoggerFactory.getLogger(ActorSystem.class);

    private static final AtomicLong LAST_DEFAULT_INCARNATION = new AtomicLong();

    private int nodeId = 1;
    private long incarnation;
    private final List<PoolConfig> pools = new ArrayList<>();
    private String threadNamePrefix = "troupe-";
    private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;
    private NanoClock clock = SystemNanoClock.INSTANCE;
    private DeadLetterHandler deadLetterHandler;
    private FailureHandler failureHandler;
    private ErrorHandler errorRecorder;
    private HandlingObserver handlingObserver;
    private MemoryQuotaConfig memoryQuota = MemoryQuotaConfig.disabled();
    private FlowControlConfig flowControl = new FlowControlConfig();

    /**
     * Creates a config with defaults: node 1, one pool named {@value #DEFAULT_POOL}.
     */
    public ActorSystemConfig()
    {
    }

    /**
     * Sets this node's id.
     *
     * @param nodeId 1..{@link ActorId#MAX_NODE_ID} (0 means "this node" in ids and cannot name a node).
     * @return this.
     */
    public ActorSystemConfig nodeId(final int nodeId)
    {
        this.nodeId = nodeId;
        return this;
    }

    /**
     * Sets this start's incarnation, from which local ids count up ({@link ActorId#firstLocalId}): a node passes the
     * one its identity file made durable, larger than every earlier start's, so that no id of an earlier start names
     * an actor of this one. Without it, {@link #conclude()} takes the wall clock in microseconds (above every
     * earlier default of this JVM): unique across starts as long as the clock does not go back.
     *
     * @param incarnation 1..{@link ActorId#MAX_INCARNATION}.
     * @return this.
     */
    public ActorSystemConfig incarnation(final long incarnation)
    {
        this.incarnation = incarnation;
        return this;
    }

    /**
     * This start's incarnation (0 before {@link #conclude()} when none was set).
     *
     * @return the incarnation.
     */
    public long incarnation()
    {
        return incarnation;
    }

    /**
     * Adds an executor pool. The first pool added gets pool id 0, the next 1, and so on; without any, one
     * pool named {@value #DEFAULT_POOL} is created.
     *
     * @param pool the pool's settings.
     * @return this.
     */
    public ActorSystemConfig pool(final PoolConfig pool)
    {
        pools.add(pool);
        return this;
    }

    /**
     * Sets the prefix of thread names.
     *
     * @param prefix the prefix.
     * @return this.
     */
    public ActorSystemConfig threadNamePrefix(final String prefix)
    {
        this.threadNamePrefix = prefix;
        return this;
    }

    /**
     * Sets how long {@link ActorSystem#close()} lets pools drain.
     *
     * @param timeout 0..10 minutes.
     * @return this.
     */
    public ActorSystemConfig shutdownTimeout(final Duration timeout)
    {
        this.shutdownTimeout = timeout;
        return this;
    }

    /**
     * Sets the monotonic clock of the timer wheel.
     *
     * @param clock the clock.
     * @return this.
     */
    public ActorSystemConfig clock(final NanoClock clock)
    {
        this.clock = clock;
        return this;
    }

    /**
     * Sets where undeliverable events with nobody to notify go. Default: logged at debug level.
     *
     * @param handler the handler.
     * @return this.
     */
    public ActorSystemConfig deadLetterHandler(final DeadLetterHandler handler)
    {
        this.deadLetterHandler = handler;
        return this;
    }

    /**
     * Sets where exceptions thrown by handlers go. Default: logged at warn level once per distinct exception
     * class and throw site, then at debug.
     *
     * @param handler the handler.
     * @return this.
     */
    public ActorSystemConfig failureHandler(final FailureHandler handler)
    {
        this.failureHandler = handler;
        return this;
    }

    /**
     * Sets the node's memory quota, which memory-tracked mailboxes claim against. Default: disabled (use is
     * counted, nothing is reclaimed); a node in production sets a max.
     *
     * @param quota the quota.
     * @return this.
     */
    public ActorSystemConfig memoryQuota(final MemoryQuotaConfig quota)
    {
        this.memoryQuota = quota;
        return this;
    }

    /**
     * Sets the node's credit flow control. Default: on, threshold 1,024, cost 1 per envelope.
     *
     * @param flowControl the settings.
     * @return this.
     */
    public ActorSystemConfig flowControl(final FlowControlConfig flowControl)
    {
        this.flowControl = Objects.requireNonNull(flowControl, "flowControl");
        return this;
    }

    /**
     * The node's credit flow control settings.
     *
     * @return the settings.
     */
    public FlowControlConfig flowControl()
    {
        return flowControl;
    }

    /**
     * The memory quota.
     *
     * @return the quota.
     */
    public MemoryQuotaConfig memoryQuota()
    {
        return memoryQuota;
    }

    /**
     * Fills defaults and validates. Idempotent; validates again on every call, so a config changed after an
     * earlier start is checked again.
     *
     * @return this.
     * @throws IllegalArgumentException naming the first invalid setting.
     */
    public ActorSystemConfig conclude()
    {
        if (nodeId < 1 || nodeId > ActorId.MAX_NODE_ID)
        {
            throw new ConfigurationException("nodeId", nodeId, "out of range 1.." + ActorId.MAX_NODE_ID,
                "nodeId=" + nodeId + " out of range 1.." + ActorId.MAX_NODE_ID);
        }
        if (incarnation == 0)
        {
            incarnation = defaultIncarnation();
        }
        if (incarnation < 1 || incarnation > ActorId.MAX_INCARNATION)
        {
            throw new ConfigurationException("incarnation", incarnation, "1.." + ActorId.MAX_INCARNATION,
                "incarnation=" + incarnation + " out of range 1.." + ActorId.MAX_INCARNATION);
        }
        if (pools.isEmpty())
        {
            pools.add(PoolConfig.named(DEFAULT_POOL));
        }
        if (pools.size() > ActorId.MAX_POOL_ID + 1)
        {
            throw new ConfigurationException("pools", pools.size(), "at most " + (ActorId.MAX_POOL_ID + 1) + " pools",
                "pools: " + pools.size() + " configured, at most " + (ActorId.MAX_POOL_ID + 1));
        }
        final Set<String> names = new HashSet<>();
        for (final PoolConfig pool : pools)
        {
            pool.validate();
            if (!names.add(pool.name()))
            {
                throw new ConfigurationException("pools", pool.name(), "each pool name once",
                    "pools: name '" + pool.name() + "' used twice");
            }
        }
        if (threadNamePrefix == null)
        {
            throw new ConfigurationException("threadNamePrefix", null, "not null", "threadNamePrefix must not be null");
        }
        for (final Setting<ActorSystemConfig, ?> setting : ActorSystemSettings.ALL)
        {
            setting.check(this);
        }
        if (memoryQuota == null)
        {
            throw new ConfigurationException("memoryQuota", null, "not null (use MemoryQuotaConfig.disabled())",
                "memoryQuota must not be null (use MemoryQuotaConfig.disabled())");
        }
        if (clock == null)
        {
            throw new ConfigurationException("clock", null, "not null", "clock must not be null");
        }
        if (deadLetterHandler == null)
        {
            deadLetterHandler = (envelope, reason) -> LOG.debug("dead letter ({}): {}", reason, envelope);
        }
        if (failureHandler == null)
        {
            failureHandler = new LoggingFailureHandler();
        }
        return this;
    }

    private static long defaultIncarnation()
    {
        final Instant now = Instant.now();
        final long clockUs = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
        return LAST_DEFAULT_INCARNATION.accumulateAndGet(clockUs, (last, clock) -> Math.max(last + 1, clock));
    }

    /**
     * This node's id.
     *
     * @return the node id.
     */
    public int nodeId()
    {
        return nodeId;
    }

    /**
     * The pools, in pool-id order.
     *
     * @return the pools.
     */
    public List<PoolConfig> pools()
    {
        return List.copyOf(pools);
    }

    /**
     * Thread name prefix.
     *
     * @return the prefix.
     */
    public String threadNamePrefix()
    {
        return threadNamePrefix;
    }

    /**
     * Drain deadline of {@link ActorSystem#close()}.
     *
     * @return the timeout.
     */
    public Duration shutdownTimeout()
    {
        return shutdownTimeout;
    }

    /**
     * The timer clock.
     *
     * @return the clock.
     */
    public NanoClock clock()
    {
        return clock;
    }

    /**
     * The dead-letter handler.
     *
     * @return the handler.
     */
    public DeadLetterHandler deadLetterHandler()
    {
        return deadLetterHandler;
    }

    /**
     * Where every error of the system's agents (pool workers outside handlers, the timer, the reclaimer) and every
     * handler failure goes, whole and unthrottled, as an {@link AgentFailure} naming what failed; the log itself is
     * throttled ({@link AgentErrorLog}). A node gives its distinct error log (data directory), which
     * {@code troupe errors} reads. Must be thread safe and must not block.
     *
     * @param recorder the recorder, or null for none (the default).
     * @return this config.
     */
    public ActorSystemConfig errorRecorder(final ErrorHandler recorder)
    {
        this.errorRecorder = recorder;
        return this;
    }

    /**
     * Sees how long every event's handler took, by actor type (per-actor-type metrics). Off by default: with none,
     * the worker reads no clock per event.
     *
     * @param observer the observer, or null for none.
     * @return this config.
     */
    public ActorSystemConfig handlingObserver(final HandlingObserver observer)
    {
        this.handlingObserver = observer;
        return this;
    }

    /**
     * The handling observer.
     *
     * @return the observer, or null for none.
     */
    public HandlingObserver handlingObserver()
    {
        return handlingObserver;
    }

    /**
     * Where errors are recorded.
     *
     * @return the recorder, or null for none.
     */
    public ErrorHandler errorRecorder()
    {
        return errorRecorder;
    }

    /**
     * The failure handler.
     *
     * @return the handler.
     */
    public FailureHandler failureHandler()
    {
        return failureHandler;
    }

    private static final class LoggingFailureHandler implements FailureHandler
    {
        private final Set<String> seen = ConcurrentHashMap.newKeySet();

        @Override
        public void onFailure(final ActorId actor, final Envelope envelope, final Throwable error)
        {
            final StackTraceElement[] trace = error.getStackTrace();
            final String key = error.getClass().getName() + '@' + (trace.length > 0 ? trace[0] : "?");
            if (seen.size() < 1024 && seen.add(key))
            {
                LOG.warn("actor {} failed handling {} (further failures of this kind are logged at debug)", actor,
                    envelope, error);
            }
            else
            {
                LOG.debug("actor {} failed handling {}", actor, envelope, error);
            }
        }
    }
}
