package io.troupe.interconnect;

/** How the interconnect agent and the embedded media driver wait when they have nothing to do. */
public enum IdleMode
{
    /**
     * Spin for 2 µs after the last work, yield for 100 µs, then park for pauses growing from 20 µs to 500 µs;
     * a sender's envelope wakes a parked agent at once. Friendly to a shared machine (the default): an idle
     * node's network thread (driver included) costs about 6% of a core, and two busy nodes fit on two cores.
     */
    BACKOFF,
    /**
     * Never sleep: the interconnect thread (with the embedded driver on it, see
     * {@link InterconnectConfig#driverOnAgentThread(boolean)}; two threads otherwise) always holds a core. Only
     * for machines with a core per spinning thread plus the node's pool threads: on fewer cores the spinners
     * take the time the pool workers need, and latency gets worse, not better.
     */
    SPIN
}
