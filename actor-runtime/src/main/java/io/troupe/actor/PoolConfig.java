package io.troupe.actor;

import io.troupe.memquota.ConfigurationException;
import java.time.Duration;

/**
 * Settings of one executor pool. Several pools keep batch work away from latency-sensitive work; an actor is
 * pinned to the pool of its mailbox for life.
 */
public final class PoolConfig
{
    /** Default most events one activation handles. */
    public static final int DEFAULT_EVENTS_PER_ACTIVATION = 100;
    /** Default soft cap on the time of one activation. */
    public static final Duration DEFAULT_TIME_PER_ACTIVATION = Duration.ofMillis(10);
    /** Default time an idle worker keeps searching (yielding between searches) before it parks. */
    public static final Duration DEFAULT_SPIN_BEFORE_SLEEP = Duration.ofNanos(20_000);

    private final String name;
    private int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
    private int eventsPerActivation = DEFAULT_EVENTS_PER_ACTIVATION;
    private Duration timePerActivation = DEFAULT_TIME_PER_ACTIVATION;
    private Duration spinBeforeSleep = DEFAULT_SPIN_BEFORE_SLEEP;

    private PoolConfig(final String name)
    {
        this.name = name;
    }

    /**
     * A pool with default settings: one thread per available processor.
     *
     * @param name the pool's name: letters, digits, '-' or '_'.
     * @return the config.
     */
    public static PoolConfig named(final String name)
    {
        return new PoolConfig(name);
    }

    /**
     * Sets the number of worker threads.
     *
     * @param threads 1..256.
     * @return this.
     */
    public PoolConfig threads(final int threads)
    {
        this.threads = threads;
        return this;
    }

    /**
     * Sets the most events one activation handles before the mailbox goes to the back of the queue.
     *
     * @param events 1..1,000,000.
     * @return this.
     */
    public PoolConfig eventsPerActivation(final int events)
    {
        this.eventsPerActivation = events;
        return this;
    }

    /**
     * Sets the soft cap on the time of one activation (checked between events).
     *
     * @param time at least 1 microsecond.
     * @return this.
     */
    public PoolConfig timePerActivation(final Duration time)
    {
        this.timePerActivation = time;
        return this;
    }

    /**
     * Sets how long an idle worker keeps searching for work before it parks. Between searches it yields, so
     * that on a small machine a runnable thread (the interconnect agent, another node) goes first; on an idle
     * core a yield returns at once. 0 parks at once; longer searches cut wake-up latency at the cost of CPU
     * that other nodes on the host could use.
     *
     * @param time 0 to 1 second.
     * @return this.
     */
    public PoolConfig spinBeforeSleep(final Duration time)
    {
        this.spinBeforeSleep = time;
        return this;
    }

    /**
     * The pool's name.
     *
     * @return the name.
     */
    public String name()
    {
        return name;
    }

    /**
     * Number of worker threads.
     *
     * @return the count.
     */
    public int threads()
    {
        return threads;
    }

    /**
     * Most events per activation.
     *
     * @return the count.
     */
    public int eventsPerActivation()
    {
        return eventsPerActivation;
    }

    /**
     * Soft cap on activation time.
     *
     * @return the duration.
     */
    public Duration timePerActivation()
    {
        return timePerActivation;
    }

    /**
     * Spin time before parking.
     *
     * @return the duration.
     */
    public Duration spinBeforeSleep()
    {
        return spinBeforeSleep;
    }

    void validate()
    {
        if (name == null || !name.matches("[A-Za-z0-9_-]{1,32}"))
        {
            throw new ConfigurationException("name", name, "1..32 letters, digits, '-' or '_'",
                "pool name '" + name + "' must be 1..32 letters, digits, '-' or '_'");
        }
        if (threads < 1 || threads > 256)
        {
            throw invalid("threads", threads, "out of range 1..256");
        }
        if (eventsPerActivation < 1 || eventsPerActivation > 1_000_000)
        {
            throw invalid("eventsPerActivation", eventsPerActivation, "out of range 1..1000000");
        }
        if (timePerActivation == null || timePerActivation.compareTo(Duration.ofNanos(1000)) < 0)
        {
            throw invalid("timePerActivation", timePerActivation, "must be at least 1 microsecond");
        }
        if (spinBeforeSleep == null || spinBeforeSleep.isNegative() ||
            spinBeforeSleep.compareTo(Duration.ofSeconds(1)) > 0)
        {
            throw invalid("spinBeforeSleep", spinBeforeSleep, "out of range 0..1s");
        }
    }

    /** A setting of this pool that is not allowed; the message names the pool, the setting and its value. */
    private ConfigurationException invalid(final String setting, final Object value, final String allowed)
    {
        return new ConfigurationException(setting, value, allowed,
            "pool '" + name + "': " + setting + "=" + value + " " + allowed);
    }

    @Override
    public String toString()
    {
        return "PoolConfig{name=" + name + ", threads=" + threads + ", eventsPerActivation=" + eventsPerActivation +
            ", timePerActivation=" + timePerActivation + ", spinBeforeSleep=" + spinBeforeSleep + '}';
    }
}
