package io.troupe.actor;

import io.troupe.memquota.CounterDescriptor;

import static io.troupe.memquota.CounterDescriptor.count;
import static io.troupe.memquota.CounterDescriptor.gauge;

/**
 * The counters of an executor pool (type ids 200..299, label {@code pool}), each read from the pool's
 * {@link PoolCounters}. The workers count in plain fields of their own; only the reading is declared here.
 */
public enum PoolCounter implements CounterDescriptor.Of<PoolCounters>
{
    /** Worker threads of the pool. */
    POOL_THREADS(gauge(200, "pool_threads", "pool", "worker threads of the pool", PoolCounters::threads)),
    /** Mailbox activations run. */
    POOL_ACTIVATIONS(count(201, "pool_activations", "pool", "mailbox activations run", PoolCounters::activations)),
    /** Events handed to actors. */
    POOL_EVENTS_HANDLED(count(202, "pool_events_handled", "pool",
        "events handed to actors", PoolCounters::eventsHandled)),
    /** Time the workers spent running activations. */
    POOL_BUSY_NS(count(203, "pool_busy_ns", "pool",
        "time the workers spent running activations", PoolCounters::busyNs)),
    /** Time the workers spent spinning or parked. */
    POOL_IDLE_NS(count(204, "pool_idle_ns", "pool",
        "time the workers spent spinning or parked", PoolCounters::idleNs)),
    /** Missed wake-ups (expected 0). */
    POOL_LATE_WAKEUPS(count(205, "pool_late_wakeups", "pool",
        "missed wake-ups (expected 0)", PoolCounters::lateWakeups)),
    /** Mailboxes idle workers took from others. */
    POOL_STEALS(count(206, "pool_steals", "pool",
        "mailboxes idle workers took from others", PoolCounters::steals));

    private final Declaration<PoolCounters> declaration;

    PoolCounter(final Declaration<PoolCounters> declaration)
    {
        this.declaration = declaration;
    }

    @Override
    public Declaration<PoolCounters> declaration()
    {
        return declaration;
    }
}
