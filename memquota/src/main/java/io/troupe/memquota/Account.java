package io.troupe.memquota;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A handle on a memory account: all memory of one account is treated alike, and reclamation picks whole
 * accounts. Handles are cloned with {@link #duplicate()}; closing the last handle closes the account, which
 * forgets its participants (their claims fail from then on). Thread safe.
 */
public final class Account implements AutoCloseable
{
    private final MemoryQuotaTracker tracker;
    private final MemoryQuotaTracker.AccountRecord record;
    private final AtomicBoolean handleClosed = new AtomicBoolean();

    Account(final MemoryQuotaTracker tracker, final MemoryQuotaTracker.AccountRecord record)
    {
        this.tracker = tracker;
        this.record = record;
    }

    /**
     * The account's id, unique within its tracker.
     *
     * @return the id.
     */
    public long id()
    {
        return record.id;
    }

    /**
     * The parent account's id.
     *
     * @return the id, or 0 without a parent.
     */
    public long parentId()
    {
        return record.parent == null ? 0 : record.parent.id;
    }

    /**
     * Another handle on the same account, which keeps it open until closed too.
     *
     * @return the new handle.
     * @throws MemoryQuotaException.AccountClosed if the account is closed.
     */
    public Account duplicate()
    {
        if (handleClosed.get())
        {
            throw new MemoryQuotaException.AccountClosed(record.id);
        }
        tracker.addHandle(record);
        return new Account(tracker, record);
    }

    /**
     * A reference that does not keep the account open.
     *
     * @return the weak handle.
     */
    public WeakAccount weak()
    {
        return new WeakAccount(tracker, record);
    }

    /**
     * Enrols a participant: it claims and releases memory through the returned {@link Participation}. The
     * tracker holds the participant weakly.
     *
     * @param participant the data structure that holds the memory.
     * @return its participation.
     * @throws MemoryQuotaException.AccountClosed if the account is closed.
     */
    public Participation register(final Participant participant)
    {
        if (handleClosed.get())
        {
            throw new MemoryQuotaException.AccountClosed(record.id);
        }
        return tracker.enrol(record, participant);
    }

    /**
     * Whether the account is closed (by its last handle, or the tracker's shutdown).
     *
     * @return true if closed.
     */
    public boolean isClosed()
    {
        return record.closed;
    }

    /**
     * Closes this handle; the last one closes the account. Idempotent per handle.
     */
    @Override
    public void close()
    {
        if (handleClosed.compareAndSet(false, true))
        {
            tracker.dropHandle(record);
        }
    }

    MemoryQuotaTracker tracker()
    {
        return tracker;
    }

    MemoryQuotaTracker.AccountRecord record()
    {
        return record;
    }

    @Override
    public String toString()
    {
        return "Account{" + record.id + (record.closed ? ", closed}" : "}");
    }
}
