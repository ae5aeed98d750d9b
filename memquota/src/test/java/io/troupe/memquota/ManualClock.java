package io.troupe.memquota;

import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when a test moves it. */
final class ManualClock implements CoarseClock
{
    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    @Override
    public long nowNs()
    {
        return now.get();
    }

    long advance(final long ns)
    {
        return now.addAndGet(ns);
    }

    void set(final long ns)
    {
        now.set(ns);
    }
}
