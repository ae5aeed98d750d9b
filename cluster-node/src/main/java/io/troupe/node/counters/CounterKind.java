package io.troupe.node.counters;

/** Whether a counter only grows (a count since the node started) or goes up and down (a level). */
public enum CounterKind
{
    /** Counts since the node started; never decreases. Prometheus: a counter, its name ending in {@code _total}. */
    COUNT,
    /** A level at the time of publishing (a queue depth, bytes in use, 0/1 for a state). Prometheus: a gauge. */
    GAUGE
}
