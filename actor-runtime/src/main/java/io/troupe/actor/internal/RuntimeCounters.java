package io.troupe.actor.internal;

import io.troupe.actor.SystemCounter;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * System-wide counters off the hot path (non-delivery, registration, failures, asks): one slot per
 * {@link SystemCounter}, indexed by its ordinal. The slots of counters their owners keep (the mailbox table's, the
 * timer agent's) stay 0 here; {@link CountersSnapshot} reads those from their owners.
 */
final class RuntimeCounters
{
    private final AtomicLongArray values = new AtomicLongArray(SystemCounter.values().length);

    void increment(final SystemCounter counter)
    {
        values.incrementAndGet(counter.ordinal());
    }

    /** For a gauge (asks pending, actors alive). */
    void decrement(final SystemCounter counter)
    {
        values.decrementAndGet(counter.ordinal());
    }

    long get(final SystemCounter counter)
    {
        return values.get(counter.ordinal());
    }

    /** Every slot, by ordinal. */
    long[] read()
    {
        final long[] copy = new long[values.length()];
        for (int i = 0; i < copy.length; i++)
        {
            copy[i] = values.get(i);
        }
        return copy;
    }
}
