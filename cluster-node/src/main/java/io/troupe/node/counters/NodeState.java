package io.troupe.node.counters;

/** The node's life as its counters file says it: what {@code troupe status} shows. */
public enum NodeState
{
    /** Starting: the actor system is up, the interconnect not yet. */
    STARTING,
    /** Running. */
    RUNNING,
    /** Shutting down: draining the pools. */
    DRAINING,
    /** Stopped cleanly; the counters are the last ones published. */
    STOPPED
}
