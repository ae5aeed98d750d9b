package io.troupe.actor;

import io.troupe.memquota.CounterDescriptor;

import java.util.function.ToLongFunction;

/**
 * The counters of an executor pool (type ids 200..299, label {@code pool}), each read from the pool's
 * {@link PoolCounters}. The workers count in plain fields of their own; only the reading is declared here.
 */
public enum PoolCounter implements CounterDescriptor.Of<PoolCounters>
{
    /** Worker threads of the pool. */
    POOL_THREADS(200, "pool_threads", Kind.GAUGE, "pool", "worker threads of the pool", PoolCounters::threads),
    /** Mailbox activations run. */
    POOL_ACTIVATIONS(201, "pool_activations", Kind.COUNT, "pool", "mailbox activations run", PoolCounters::activations),
    /** Events handed to actors. */
    POOL_EVENTS_HANDLED(202, "pool_events_handled", Kind.COUNT, "pool",
        "events handed to actors", PoolCounters::eventsHandled),
    /** Time the workers spent running activations. */
    POOL_BUSY_NS(203, "pool_busy_ns", Kind.COUNT, "pool",
        "time the workers spent running activations", PoolCounters::busyNs),
    /** Time the workers spent spinning or parked. */
    POOL_IDLE_NS(204, "pool_idle_ns", Kind.COUNT, "pool",
        "time the workers spent spinning or parked", PoolCounters::idleNs),
    /** Missed wake-ups (expected 0). */
    POOL_LATE_WAKEUPS(205, "pool_late_wakeups", Kind.COUNT, "pool",
        "missed wake-ups (expected 0)", PoolCounters::lateWakeups),
    /** Mailboxes idle workers took from others. */
    POOL_STEALS(206, "pool_steals", Kind.COUNT, "pool",
        "mailboxes idle workers took from others", PoolCounters::steals);

    private final Declaration declaration;
    private final ToLongFunction<PoolCounters> reader;

    PoolCounter(final int typeId, final String metricName, final Kind kind, final String labels,
        final String doc, final ToLongFunction<PoolCounters> reader)
    {
        this.declaration = new Declaration(typeId, metricName, kind, labels, doc);
        this.reader = reader;
    }

    @Override
    public Declaration declaration()
    {
        return declaration;
    }

    @Override
    public ToLongFunction<PoolCounters> reader()
    {
        return reader;
    }
}
