package io.troupe.interconnect;

/**
 * Decides whether one peer is alive from when it was last heard, and when the next heartbeat to it is due.
 * Deterministic: the caller passes the time ({@code nowNs}, from a monotonic clock such as
 * {@link System#nanoTime()}, read once per duty cycle) to every call.
 *
 * <p>A peer is down once nothing was heard from it for more than {@code timeoutNs}; any frame counts, not just
 * heartbeats. With the defaults (heartbeat 100 ms, timeout 1.5 s) and a caller that checks at least every
 * heartbeat interval, a dead or partitioned peer is declared down at most 1.6 s after its last frame, and a
 * stall of a healthy peer shorter than the timeout is never taken for a failure. {@link #isAlive(long)} is not
 * latched: the caller ends the session the first time it returns false.
 *
 * <p>Times are compared by their difference, so the values may wrap around as {@link System#nanoTime()}'s may.
 * A clock that goes backwards counts as no silence: it never makes a peer down.
 *
 * <p>Not thread safe: one instance per peer, used from the interconnect agent's thread.
 */
final class FailureDetector
{
    private final long heartbeatIntervalNs;
    private final long timeoutNs;

    private boolean heard;
    private long lastHeardNs;
    private boolean heartbeatSent;
    private long lastHeartbeatSentNs;
    private long lastInterArrivalNs;
    private long maxInterArrivalNs;

    /**
     * Creates a detector that has not heard the peer yet: it is not alive until {@link #reset(long)} or
     * {@link #onHeard(long)}.
     *
     * @param heartbeatIntervalNs how often a heartbeat goes to the peer, in nanoseconds.
     * @param timeoutNs           silence after which the peer is down, in nanoseconds.
     * @throws IllegalArgumentException if either is not positive.
     */
    public FailureDetector(final long heartbeatIntervalNs, final long timeoutNs)
    {
        if (heartbeatIntervalNs <= 0)
        {
            throw new IllegalArgumentException("heartbeatIntervalNs = " + heartbeatIntervalNs + " must be positive");
        }
        if (timeoutNs <= 0)
        {
            throw new IllegalArgumentException("timeoutNs = " + timeoutNs + " must be positive");
        }
        this.heartbeatIntervalNs = heartbeatIntervalNs;
        this.timeoutNs = timeoutNs;
    }

    /**
     * Starts a new session: the peer counts as heard now, the inter-arrival statistics start again and a
     * heartbeat is due at once.
     *
     * @param nowNs the current time.
     */
    public void reset(final long nowNs)
    {
        heard = true;
        lastHeardNs = nowNs;
        heartbeatSent = false;
        lastHeartbeatSentNs = 0;
        lastInterArrivalNs = 0;
        maxInterArrivalNs = 0;
    }

    /**
     * Records that a frame, of any kind, arrived from the peer.
     *
     * @param nowNs the current time; earlier than the last time heard is taken as the last time heard.
     */
    public void onHeard(final long nowNs)
    {
        if (!heard)
        {
            heard = true;
            lastHeardNs = nowNs;
            return;
        }

        final long interArrivalNs = nowNs - lastHeardNs;
        if (interArrivalNs > 0)
        {
            lastHeardNs = nowNs;
            lastInterArrivalNs = interArrivalNs;
            if (interArrivalNs > maxInterArrivalNs)
            {
                maxInterArrivalNs = interArrivalNs;
            }
        }
        else
        {
            lastInterArrivalNs = 0; // same cycle, or a clock that went back: keep the later time
        }
    }

    /**
     * Whether the peer is alive: heard from, and not silent for more than the timeout.
     *
     * @param nowNs the current time.
     * @return false once the silence exceeds the timeout, or if the peer was never heard.
     */
    public boolean isAlive(final long nowNs)
    {
        // a negative silence (clock went back) is not above the timeout, so never declares the peer down
        return heard && nowNs - lastHeardNs <= timeoutNs;
    }

    /**
     * How long the peer has been silent.
     *
     * @param nowNs the current time.
     * @return nanoseconds since the peer was last heard, 0 if the clock went back, {@link Long#MAX_VALUE} if it was
     * never heard.
     */
    public long silenceNs(final long nowNs)
    {
        if (!heard)
        {
            return Long.MAX_VALUE;
        }

        return Math.max(0, nowNs - lastHeardNs);
    }

    /**
     * When the peer was last heard.
     *
     * @return the time passed to the latest {@link #onHeard(long)} or {@link #reset(long)}, 0 if none.
     */
    public long lastHeardNs()
    {
        return lastHeardNs;
    }

    /**
     * Whether a heartbeat should go to the peer now.
     *
     * @param nowNs the current time.
     * @return true if none was sent in this session or the interval has passed since the last one; false if the
     * clock went back.
     */
    public boolean heartbeatDue(final long nowNs)
    {
        return !heartbeatSent || nowNs - lastHeartbeatSentNs >= heartbeatIntervalNs;
    }

    /**
     * Records that a heartbeat went to the peer.
     *
     * @param nowNs the current time.
     */
    public void onHeartbeatSent(final long nowNs)
    {
        heartbeatSent = true;
        lastHeartbeatSentNs = nowNs;
    }

    /**
     * The gap between the two latest frames heard in this session, for counters.
     *
     * @return nanoseconds (the first frame after {@link #reset(long)} counts from the reset), 0 until then or if
     * the two came in the same cycle.
     */
    public long lastInterArrivalNs()
    {
        return lastInterArrivalNs;
    }

    /**
     * The longest gap between two frames heard in this session, for counters: a long one that did not exceed the
     * timeout points at a pause (GC, scheduling) of the peer or of this node.
     *
     * @return nanoseconds, 0 until a second frame was heard or a frame after {@link #reset(long)}.
     */
    public long maxInterArrivalNs()
    {
        return maxInterArrivalNs;
    }

    /**
     * How often a heartbeat goes to the peer.
     *
     * @return nanoseconds.
     */
    public long heartbeatIntervalNs()
    {
        return heartbeatIntervalNs;
    }

    /**
     * Silence after which the peer is down.
     *
     * @return nanoseconds.
     */
    public long timeoutNs()
    {
        return timeoutNs;
    }
}
