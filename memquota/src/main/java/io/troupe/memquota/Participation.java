package io.troupe.memquota;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How one participant claims and releases memory. Each participation keeps a local cache of quota it has
 * already taken from the tracker (at most {@value #LOCAL_CACHE_MAX_BYTES} bytes), so most claims and releases
 * touch only this object. The cache counts as the participant's use. Thread safe: several threads may claim
 * through one participation (e.g. the senders of one queue).
 *
 * <p>Once the participant is forgotten (reclaimed, garbage-collected, closed, or its account closed) claims
 * fail with a {@link MemoryQuotaException} saying which; releases are ignored.
 */
public final class Participation implements AutoCloseable
{
    /** Most quota a participation keeps locally. */
    public static final long LOCAL_CACHE_MAX_BYTES = 16 * 1024;
    /** Quota a participation keeps after refilling or giving back. */
    static final long LOCAL_CACHE_REFILL_BYTES = 8 * 1024;

    private final MemoryQuotaTracker tracker;
    private final MemoryQuotaTracker.ParticipantRecord record;
    private final AtomicLong local = new AtomicLong();

    Participation(final MemoryQuotaTracker tracker, final MemoryQuotaTracker.ParticipantRecord record)
    {
        this.tracker = tracker;
        this.record = record;
    }

    /**
     * Claims memory.
     *
     * @param bytes nominal bytes, at least 0.
     * @throws MemoryQuotaException if the participant was forgotten, its account closed or the tracker shut
     *                              down; nothing was claimed then.
     */
    public void claim(final long bytes)
    {
        if (bytes < 0)
        {
            throw new IllegalArgumentException("cannot claim " + bytes + " bytes");
        }
        if (record.used.get() == MemoryQuotaTracker.FORGOTTEN)
        {
            throw tracker.goneError(record);
        }
        while (true)
        {
            final long cached = local.get();
            if (cached >= bytes)
            {
                if (local.compareAndSet(cached, cached - bytes))
                {
                    return;
                }
                continue;
            }
            // not enough here: take what is cached, and the rest plus a refill from the tracker
            if (!local.compareAndSet(cached, 0))
            {
                continue;
            }
            try
            {
                tracker.acquire(record, bytes - cached + LOCAL_CACHE_REFILL_BYTES);
            }
            catch (final RuntimeException ex)
            {
                local.addAndGet(cached);
                throw ex;
            }
            if (local.addAndGet(LOCAL_CACHE_REFILL_BYTES) > LOCAL_CACHE_MAX_BYTES)
            {
                trimLocalCache(); // releases landed while we were refilling
            }
            return;
        }
    }

    /**
     * Releases memory claimed earlier. Never fails.
     *
     * @param bytes nominal bytes, at least 0.
     */
    public void release(final long bytes)
    {
        if (bytes <= 0)
        {
            return;
        }
        if (local.addAndGet(bytes) > LOCAL_CACHE_MAX_BYTES)
        {
            trimLocalCache();
        }
    }

    /** Gives all but a refill back to the tracker, retrying until the cache is seen within its bound. */
    private void trimLocalCache()
    {
        while (true)
        {
            final long cached = local.get();
            if (cached <= LOCAL_CACHE_MAX_BYTES)
            {
                return;
            }
            if (local.compareAndSet(cached, LOCAL_CACHE_REFILL_BYTES))
            {
                tracker.giveBack(record, cached - LOCAL_CACHE_REFILL_BYTES);
                return;
            }
        }
    }

    /**
     * Whether the tracker forgot this participant (reclaimed, collected, closed, account closed).
     *
     * @return true if claims fail from now on.
     */
    public boolean isGone()
    {
        return record.used.get() == MemoryQuotaTracker.FORGOTTEN;
    }

    /**
     * Bytes the tracker counts for this participant, including the local cache.
     *
     * @return the bytes, or 0 once forgotten.
     */
    public long usedBytes()
    {
        final long used = record.used.get();
        return used == MemoryQuotaTracker.FORGOTTEN ? 0 : used;
    }

    /**
     * Quota held in the local cache.
     *
     * @return bytes.
     */
    public long localCacheBytes()
    {
        return local.get();
    }

    /**
     * The account this participation claims against.
     *
     * @return its id.
     */
    public long accountId()
    {
        return record.account.id;
    }

    MemoryQuotaTracker tracker()
    {
        return tracker;
    }

    /**
     * Withdraws the participant: the tracker forgets it and all it claimed. Idempotent.
     */
    @Override
    public void close()
    {
        tracker.forget(record);
    }
}
