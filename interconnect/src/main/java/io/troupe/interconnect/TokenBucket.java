package io.troupe.interconnect;

/**
 * A token bucket on the caller's clock: holds up to {@code burst} tokens, gains one every {@code refillNs}.
 * Owned by one thread (the interconnect agent's).
 */
final class TokenBucket
{
    private final int burst;
    private final long refillNs;
    private int tokens;
    private long refilledNs;
    private boolean started;

    TokenBucket(final int burst, final long refillNs)
    {
        if (burst < 1 || refillNs < 1)
        {
            throw new IllegalArgumentException("burst " + burst + " and refill " + refillNs + " ns must be positive");
        }
        this.burst = burst;
        this.refillNs = refillNs;
        this.tokens = burst;
    }

    /**
     * Takes a token if there is one.
     *
     * @param nowNs the clock now.
     * @return true if taken.
     */
    boolean take(final long nowNs)
    {
        if (!started)
        {
            started = true;
            refilledNs = nowNs;
        }
        final long gained = (nowNs - refilledNs) / refillNs;
        if (gained > 0)
        {
            tokens = (int)Math.min(burst, tokens + gained);
            refilledNs = tokens == burst ? nowNs : refilledNs + gained * refillNs;
        }
        if (tokens == 0)
        {
            return false;
        }
        if (tokens == burst)
        {
            refilledNs = nowNs; // a full bucket gains nothing while it waits
        }
        tokens--;
        return true;
    }
}
