package io.troupe.interconnect;

import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Exponential back-off with jitter between handshake attempts: the first delay is about {@code minNs}, each
 * next one about twice the last, up to {@code maxNs}. Every delay is moved by a random amount of up to
 * {@value #JITTER_PERCENT}% either way and then kept within [{@code minNs}, {@code maxNs}], so that nodes started
 * together (or a cluster restarted at once) do not retry in lock step.
 *
 * <p>Not thread safe: one instance per peer, used from the interconnect agent's thread.
 */
final class RetryBackoff
{
    /** How far a delay may move either way from its base, in percent of the base. */
    public static final int JITTER_PERCENT = 20;

    private final long minNs;
    private final long maxNs;
    private final RandomGenerator random;
    private long baseNs;
    private int attempts;

    /**
     * Creates the back-off, with no attempts made.
     *
     * @param minNs  base of the first delay, in nanoseconds.
     * @param maxNs  largest delay, in nanoseconds.
     * @param random source of the jitter; tests pass a seeded one.
     * @throws IllegalArgumentException if {@code minNs} is not positive or {@code maxNs} is less than it.
     * @throws NullPointerException     if {@code random} is null.
     */
    public RetryBackoff(final long minNs, final long maxNs, final RandomGenerator random)
    {
        if (minNs <= 0 || maxNs < minNs)
        {
            throw new IllegalArgumentException("retry back-off minNs = " + minNs + ", maxNs = " + maxNs +
                " is invalid: allowed 0 < minNs <= maxNs");
        }
        this.minNs = minNs;
        this.maxNs = maxNs;
        this.random = Objects.requireNonNull(random, "random");
        this.baseNs = minNs;
    }

    /**
     * The delay before the next attempt; counts an attempt.
     *
     * @return nanoseconds within [{@code minNs}, {@code maxNs}].
     */
    public long nextDelayNs()
    {
        final long base = baseNs;
        baseNs = base > maxNs / 2 ? maxNs : Math.min(base * 2, maxNs);
        if (attempts < Integer.MAX_VALUE)
        {
            attempts++;
        }

        final long jitterNs = base / 100 * JITTER_PERCENT + base % 100 * JITTER_PERCENT / 100;
        final long offsetNs = random.nextLong(2 * jitterNs + 1) - jitterNs;
        // capped at maxNs before the sum is formed, so it cannot overflow; base + offset >= 0.8 * base > 0
        final long delayNs = offsetNs > maxNs - base ? maxNs : base + offsetNs;

        return Math.max(minNs, delayNs);
    }

    /**
     * Starts again from {@code minNs}, e.g. once a handshake succeeded.
     */
    public void reset()
    {
        baseNs = minNs;
        attempts = 0;
    }

    /**
     * Delays handed out since construction or the last {@link #reset()}.
     *
     * @return the count, saturating at {@link Integer#MAX_VALUE}.
     */
    public int attempts()
    {
        return attempts;
    }

    /**
     * Base of the first delay.
     *
     * @return nanoseconds.
     */
    public long minNs()
    {
        return minNs;
    }

    /**
     * Largest delay.
     *
     * @return nanoseconds.
     */
    public long maxNs()
    {
        return maxNs;
    }
}
