package io.troupe.interconnect;

/** How the interconnect agent and the embedded media driver wait when they have nothing to do. */
public enum IdleMode
{
    /** Spin, then yield, then park with growing pauses: friendly to a shared machine (the default). */
    BACKOFF,
    /** Never sleep: lowest latency, one core per busy thread. Only for dedicated machines. */
    SPIN
}
