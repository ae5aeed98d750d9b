package io.troupe.memquota;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * One memory quota: the accounts and participants that claim memory against it, the total they use, and the
 * reclamation that frees the oldest data once the total passes {@code max}, until it is back under
 * {@code lowWater}.
 *
 * <p>Claims are cheap: a participant's {@link Participation} takes memory from its local cache, touching the
 * tracker only every few KiB, and then only with atomic adds; new claims are never blocked by reclamation.
 * Past max, claims still succeed and the oldest data is reclaimed (new allocations are not prevented, the oldest
 * data pays); only once use is past the {@link MemoryQuotaConfig#hardCapBytes() hard cap} (default 125% of max)
 * are refills of local caches refused ({@link MemoryQuotaException.QuotaExhausted}, a return-value-like signal
 * without a stack trace, counted) until reclamation brings use down: use never exceeds the hard cap by more than
 * one local cache per participant plus the claim that crossed it.
 * Reclamation ({@link #reclaimIfNeeded()}, run by a {@link MemoryReclaimer} agent or by a test) builds a heap
 * of accounts by the time of their oldest data and asks the oldest account's participants, and those of its
 * descendants, to reclaim, until use is under low water.
 *
 * <p>Invariants, at quiescence: the total equals the sum of the participants' use (each including its local
 * cache); a forgotten participant (collapsed, collected or closed) counts for nothing from the moment it is
 * forgotten.
 *
 * <p>Locking: the registry of accounts and participants is guarded by one monitor, taken on enrolment,
 * closing and by the reclaimer's snapshots; never while calling into a participant, and never on the claim
 * path.
 */
public final class MemoryQuotaTracker implements AutoCloseable
{
    static final long FORGOTTEN = Long.MIN_VALUE;
    private static final MemoryQuotaException.QuotaExhausted QUOTA_EXHAUSTED =
        new MemoryQuotaException.QuotaExhausted();

    private final MemoryQuotaConfig config;
    private final CoarseClock clock;
    private final Object registryLock = new Object();
    private final Map<Long, AccountRecord> accounts = new HashMap<>();
    private final AtomicLong totalUsed = new AtomicLong();
    private final AtomicLong refusedClaims = new AtomicLong();
    private long nextAccountId = 1;
    private long nextParticipantId = 1;
    private volatile boolean closed;
    private final Reclamation reclamation;

    private MemoryQuotaTracker(final MemoryQuotaConfig config, final CoarseClock clock, final LongSupplier latencyClock)
    {
        this.config = config;
        this.clock = clock;
        this.reclamation = new Reclamation(this, config, latencyClock);
    }

    /**
     * Creates a tracker.
     *
     * @param config the quota.
     * @param clock  the time source for data ages (participants should stamp data with the same clock).
     * @return the tracker.
     */
    public static MemoryQuotaTracker create(final MemoryQuotaConfig config, final CoarseClock clock)
    {
        return new MemoryQuotaTracker(config, clock, System::nanoTime);
    }

    /** For tests: a tracker that times its reclamations with the given clock too. */
    static MemoryQuotaTracker create(final MemoryQuotaConfig config, final CoarseClock clock,
        final LongSupplier latencyClock)
    {
        return new MemoryQuotaTracker(config, clock, latencyClock);
    }

    /**
     * The quota.
     *
     * @return the config.
     */
    public MemoryQuotaConfig config()
    {
        return config;
    }

    /**
     * The clock data ages are measured with.
     *
     * @return the clock.
     */
    public CoarseClock clock()
    {
        return clock;
    }

    /**
     * Opens an account without a parent.
     *
     * @return the account's first handle.
     * @throws MemoryQuotaException.TrackerShutDown if the tracker is closed.
     */
    public Account newAccount()
    {
        return newAccount(null);
    }

    /**
     * Opens an account; reclaiming the parent also reclaims it (not the other way round). The parent is fixed
     * at creation, so parent cycles cannot be built.
     *
     * @param parent an open account of this tracker, or null.
     * @return the account's first handle.
     */
    public Account newAccount(final Account parent)
    {
        synchronized (registryLock)
        {
            checkOpen();
            AccountRecord parentRecord = null;
            if (parent != null)
            {
                if (parent.tracker() != this)
                {
                    throw new IllegalArgumentException("parent account " + parent.id() + " belongs to another tracker");
                }
                parentRecord = parent.record();
                if (parentRecord.closed)
                {
                    throw new MemoryQuotaException.AccountClosed(parentRecord.id);
                }
            }
            final AccountRecord record = new AccountRecord(nextAccountId++, parentRecord);
            if (parentRecord != null)
            {
                parentRecord.children.add(record);
            }
            accounts.put(record.id, record);
            return new Account(this, record);
        }
    }

    /**
     * Bytes claimed now.
     *
     * @return the total.
     */
    public long usedBytes()
    {
        return totalUsed.get();
    }

    /**
     * Whether use is over max and a reclamation round is due.
     *
     * @return true if the reclaimer has work.
     */
    public boolean reclaimWanted()
    {
        return reclamation.isWanted();
    }

    /**
     * Reads the counters.
     *
     * @return a snapshot.
     */
    public MemoryQuotaCounters counters()
    {
        final int open;
        synchronized (registryLock)
        {
            open = accounts.size();
        }
        return reclamation.counters(refusedClaims.get(), open);
    }

    /**
     * Lists the open accounts with their use and the age of their oldest data (for operators). Calls into the
     * participants for their oldest data.
     *
     * @return one entry per open account.
     */
    public List<AccountInfo> accounts()
    {
        final List<AccountRecord> snapshot = openAccounts();
        final long now = clock.nowNs();
        final List<AccountInfo> infos = new ArrayList<>(snapshot.size());
        for (final AccountRecord account : snapshot)
        {
            long used = 0;
            int live = 0;
            for (final ParticipantRecord p : participantsOf(account))
            {
                final long u = p.used.get();
                if (u != FORGOTTEN)
                {
                    used += u;
                    live++;
                }
            }
            final long oldest = reclamation.oldestOf(account);
            infos.add(new AccountInfo(account.id, account.parent == null ? 0 : account.parent.id, used, live,
                oldest == Participant.NO_DATA ? -1 : Math.max(0, now - oldest)));
        }
        infos.sort(Comparator.comparingLong(AccountInfo::accountId));
        return infos;
    }

    /**
     * Runs a reclamation round if use is over max: reclaims oldest-first until use is under low water, then
     * finishes the clean-up the collapsed participants left (e.g. unlinking a collapsed queue's dropped
     * contents, so the garbage collector can free them sooner). Tests call it directly; the
     * {@link MemoryReclaimer} agent runs the round and the clean-up in separate, bounded duty cycles.
     *
     * @return the number of participants asked to reclaim (0 if nothing was due).
     */
    public int reclaimIfNeeded()
    {
        final int asked = reclaimOnce();
        runCleanups(Integer.MAX_VALUE);
        return asked;
    }

    /** One reclamation round, without the clean-up. */
    int reclaimOnce()
    {
        return reclamation.runRound();
    }

    /** Leaves work for after the round; run by the reclaimer (or dropped when the tracker closes). */
    void deferCleanup(final Runnable cleanup)
    {
        reclamation.deferCleanup(cleanup);
    }

    /** Clean-ups waiting for the reclaimer (for tests). */
    int pendingCleanups()
    {
        return reclamation.pendingCleanups();
    }

    /** Runs up to {@code limit} deferred clean-ups; returns how many ran. */
    int runCleanups(final int limit)
    {
        return reclamation.runCleanups(limit);
    }

    /**
     * Shuts the tracker down: every account is closed and further claims fail with
     * {@link MemoryQuotaException.TrackerShutDown}.
     */
    @Override
    public void close()
    {
        final List<AccountRecord> all;
        synchronized (registryLock)
        {
            if (closed)
            {
                return;
            }
            closed = true;
            all = new ArrayList<>(accounts.values());
        }
        for (final AccountRecord account : all)
        {
            closeAccount(account);
        }
        reclamation.dropCleanups();
    }

    /**
     * Whether the tracker was closed.
     *
     * @return true once closed.
     */
    public boolean isClosed()
    {
        return closed;
    }

    // ---------------------------------------------------------------- used by handles and the reclaimer

    void onReclaimWanted(final Runnable wakeUp)
    {
        reclamation.onWanted(wakeUp);
    }

    Participation enrol(final AccountRecord account, final Participant participant)
    {
        synchronized (registryLock)
        {
            checkOpen();
            if (account.closed)
            {
                throw new MemoryQuotaException.AccountClosed(account.id);
            }
            final ParticipantRecord record = new ParticipantRecord(nextParticipantId++, account, participant);
            account.participants.add(record);
            return new Participation(this, record);
        }
    }

    void addHandle(final AccountRecord account)
    {
        synchronized (registryLock)
        {
            if (account.closed)
            {
                throw new MemoryQuotaException.AccountClosed(account.id);
            }
            account.handles++;
        }
    }

    boolean tryAddHandle(final AccountRecord account)
    {
        synchronized (registryLock)
        {
            if (account.closed)
            {
                return false;
            }
            account.handles++;
            return true;
        }
    }

    void dropHandle(final AccountRecord account)
    {
        final boolean last;
        synchronized (registryLock)
        {
            last = --account.handles == 0 && !account.closed;
        }
        if (last)
        {
            closeAccount(account);
        }
    }

    /** Takes bytes from the quota for a participant (its local cache ran dry). */
    void acquire(final ParticipantRecord participant, final long bytes)
    {
        if (closed)
        {
            throw new MemoryQuotaException.TrackerShutDown();
        }
        final AtomicLong used = participant.used;
        while (true)
        {
            final long current = used.get();
            if (current == FORGOTTEN)
            {
                throw goneError(participant);
            }
            if (used.compareAndSet(current, current + bytes))
            {
                break;
            }
        }
        final long after = totalUsed.addAndGet(bytes);
        if (after > config.maxBytes() && config.enabled())
        {
            reclamation.onOverMax();
            if (after - bytes > config.hardCapBytes())
            {
                // already over the hard cap before this refill: refuse it, so use stays within the cap plus what
                // each participant holds in its local cache plus the one claim that crossed
                giveBack(participant, bytes);
                refusedClaims.incrementAndGet();
                throw QUOTA_EXHAUSTED;
            }
        }
    }

    /** Returns bytes to the quota (a participant's local cache overflowed). */
    void giveBack(final ParticipantRecord participant, final long bytes)
    {
        final AtomicLong used = participant.used;
        while (true)
        {
            final long current = used.get();
            if (current == FORGOTTEN)
            {
                return; // already subtracted in full when it was forgotten
            }
            if (used.compareAndSet(current, current - bytes))
            {
                totalUsed.addAndGet(-bytes);
                return;
            }
        }
    }

    /** Forgets a participant and everything it claimed. Idempotent: returns -1 if it was already forgotten. */
    long forget(final ParticipantRecord participant)
    {
        final long used = participant.used.getAndSet(FORGOTTEN);
        if (used == FORGOTTEN)
        {
            return -1;
        }
        totalUsed.addAndGet(-used);
        synchronized (registryLock)
        {
            participant.account.participants.remove(participant);
        }
        return used;
    }

    MemoryQuotaException goneError(final ParticipantRecord participant)
    {
        if (closed)
        {
            return new MemoryQuotaException.TrackerShutDown();
        }
        if (participant.account.closed)
        {
            return new MemoryQuotaException.AccountClosed(participant.account.id);
        }
        return new MemoryQuotaException.ParticipantGone(participant.account.id, participant.id);
    }

    // ---------------------------------------------------------------- internals

    private void checkOpen()
    {
        if (closed)
        {
            throw new MemoryQuotaException.TrackerShutDown();
        }
    }

    private void closeAccount(final AccountRecord account)
    {
        final List<ParticipantRecord> participants;
        synchronized (registryLock)
        {
            if (account.closed)
            {
                return;
            }
            account.closed = true;
            accounts.remove(account.id);
            if (account.parent != null)
            {
                account.parent.children.remove(account);
            }
            participants = new ArrayList<>(account.participants);
        }
        for (final ParticipantRecord participant : participants)
        {
            forget(participant);
        }
    }

    List<ParticipantRecord> participantsOf(final AccountRecord account)
    {
        synchronized (registryLock)
        {
            return new ArrayList<>(account.participants);
        }
    }

    List<ParticipantRecord> subtreeParticipants(final AccountRecord root)
    {
        final List<ParticipantRecord> out = new ArrayList<>();
        synchronized (registryLock)
        {
            final List<AccountRecord> pending = new ArrayList<>();
            pending.add(root);
            while (!pending.isEmpty())
            {
                final AccountRecord account = pending.remove(pending.size() - 1);
                out.addAll(account.participants);
                pending.addAll(account.children);
            }
        }
        return out;
    }

    /** The open accounts, copied. */
    List<AccountRecord> openAccounts()
    {
        synchronized (registryLock)
        {
            return new ArrayList<>(accounts.values());
        }
    }

    /** Tracker-side state of an account; mutable fields guarded by the registry lock. */
    static final class AccountRecord
    {
        final long id;
        final AccountRecord parent;
        final List<AccountRecord> children = new ArrayList<>();
        final List<ParticipantRecord> participants = new ArrayList<>();
        int handles = 1;
        volatile boolean closed;

        AccountRecord(final long id, final AccountRecord parent)
        {
            this.id = id;
            this.parent = parent;
        }
    }

    /** Tracker-side state of a participant: its use (including its local cache), or FORGOTTEN. */
    static final class ParticipantRecord
    {
        final long id;
        final AccountRecord account;
        final WeakReference<Participant> participant;
        final AtomicLong used = new AtomicLong();

        ParticipantRecord(final long id, final AccountRecord account, final Participant participant)
        {
            this.id = id;
            this.account = account;
            this.participant = new WeakReference<>(participant);
        }
    }
}
