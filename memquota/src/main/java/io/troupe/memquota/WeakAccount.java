package io.troupe.memquota;

import java.util.Optional;

/** A reference to an account that does not keep it open. Thread safe. */
public final class WeakAccount
{
    private final MemoryQuotaTracker tracker;
    private final MemoryQuotaTracker.AccountRecord record;

    WeakAccount(final MemoryQuotaTracker tracker, final MemoryQuotaTracker.AccountRecord record)
    {
        this.tracker = tracker;
        this.record = record;
    }

    /**
     * The account's id.
     *
     * @return the id.
     */
    public long id()
    {
        return record.id;
    }

    /**
     * A new handle, if the account is still open.
     *
     * @return the handle (close it when done), or empty if the account was closed.
     */
    public Optional<Account> upgrade()
    {
        return tracker.tryAddHandle(record) ? Optional.of(new Account(tracker, record)) : Optional.empty();
    }
}
