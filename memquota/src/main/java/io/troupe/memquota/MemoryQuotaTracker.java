package io.troupe.memquota;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * One memory quota: the accounts and participants that claim memory against it, the total they use, and the
 * reclamation that frees the oldest data once the total passes {@code max}, until it is back under
 * {@code lowWater}.
 *
 * <p>Claims are cheap: a participant's {@link Participation} takes memory from its local cache, touching the
 * tracker only every few KiB, and then only with atomic adds; new claims are never blocked by reclamation.
 * Once use is at max, refills of local caches are refused ({@link MemoryQuotaException.QuotaExhausted}, a
 * return-value-like signal without a stack trace) until reclamation brings use down: use never exceeds max
 * by more than one local cache per participant plus the claim that crossed it.
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
    private static final Logger LOG = LoggerFactory.getLogger(MemoryQuotaTracker.class);
    private static final int MAX_STEPS_PER_ROUND = 100_000;
    private static final int MAX_REFILLS = 8;
    /** No reclamation episode is open: use has not crossed max since it was last brought under low water. */
    private static final long NOT_OVER = Long.MIN_VALUE;
    /** No back-off: the reclaimer may run a round as soon as one is due. */
    private static final long NO_BACKOFF = Long.MIN_VALUE;
    /** First wait before another round, after a round that could not reach low water; doubles up to the max. */
    static final long RETRY_BACKOFF_MIN_NS = TimeUnit.MILLISECONDS.toNanos(1);
    static final long RETRY_BACKOFF_MAX_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private final MemoryQuotaConfig config;
    private final CoarseClock clock;
    /** Precise time for reclaim latency; read only when a claim crosses max and when a round ends. */
    private final LongSupplier latencyClock;
    private final Object registryLock = new Object();
    /** One reclamation round at a time (the reclaimer agent, or a caller of reclaimIfNeeded). */
    private final ReentrantLock reclaimLock = new ReentrantLock();
    private final Map<Long, AccountRecord> accounts = new HashMap<>();
    private final AtomicLong totalUsed = new AtomicLong();
    private final AtomicLong reclamations = new AtomicLong();
    private final AtomicLong collapsed = new AtomicLong();
    private final AtomicLong bytesReclaimed = new AtomicLong();
    private final AtomicLong unresponsive = new AtomicLong();
    private final AtomicLong refusedClaims = new AtomicLong();
    /** When use crossed max in the open reclamation episode, or {@link #NOT_OVER}. */
    private final AtomicLong overMaxSinceNs = new AtomicLong(NOT_OVER);
    private final AtomicLong reclaimEpisodes = new AtomicLong();
    /** Work collapsed participants left for after the round, such as unlinking their dropped contents. */
    private final ConcurrentLinkedQueue<Runnable> cleanups = new ConcurrentLinkedQueue<>();
    private volatile long lastReclaimLatencyNs;
    private volatile long worstReclaimLatencyNs;
    /** No round before this time (latency clock), or {@link #NO_BACKOFF}: set after a round fell short. */
    private volatile long retryNotBeforeNs = NO_BACKOFF;
    /** The current back-off; written under the reclaim lock. */
    private long retryBackoffNs;
    private long nextAccountId = 1;
    private long nextParticipantId = 1;
    private volatile boolean closed;
    private volatile boolean reclaimWanted;
    private volatile Runnable reclaimWakeUp = () -> { };

    private MemoryQuotaTracker(final MemoryQuotaConfig config, final CoarseClock clock, final LongSupplier latencyClock)
    {
        this.config = config;
        this.clock = clock;
        this.latencyClock = latencyClock;
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
        if (!reclaimWanted && !(config.enabled() && totalUsed.get() > config.maxBytes()))
        {
            return false;
        }
        // after a round that could not reach low water (nothing older left, participants slow to answer),
        // wait a little before the next, instead of spinning the reclaimer's thread on the same accounts
        final long notBefore = retryNotBeforeNs;
        return notBefore == NO_BACKOFF || latencyClock.getAsLong() - notBefore >= 0;
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
        return new MemoryQuotaCounters(totalUsed.get(), config.maxBytes(), config.lowWaterBytes(), reclamations.get(),
            collapsed.get(), bytesReclaimed.get(), unresponsive.get(), refusedClaims.get(), open,
            reclaimEpisodes.get(), lastReclaimLatencyNs, worstReclaimLatencyNs, openReclaimNs());
    }

    private long openReclaimNs()
    {
        final long since = overMaxSinceNs.get();
        return since == NOT_OVER ? 0 : Math.max(0, latencyClock.getAsLong() - since);
    }

    /**
     * Lists the open accounts with their use and the age of their oldest data (for operators). Calls into the
     * participants for their oldest data.
     *
     * @return one entry per open account.
     */
    public List<AccountInfo> accounts()
    {
        final List<AccountRecord> snapshot;
        synchronized (registryLock)
        {
            snapshot = new ArrayList<>(accounts.values());
        }
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
            final long oldest = oldestOf(account);
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
        reclaimLock.lock();
        try
        {
            return reclaimRound();
        }
        finally
        {
            reclaimLock.unlock();
        }
    }

    /** Leaves work for after the round; run by the reclaimer (or dropped when the tracker closes). */
    void deferCleanup(final Runnable cleanup)
    {
        if (closed)
        {
            return; // nothing will run it; the dropped contents are freed when their owner is
        }
        cleanups.offer(cleanup);
    }

    /** Clean-ups waiting for the reclaimer (for tests). */
    int pendingCleanups()
    {
        return cleanups.size();
    }

    /** Runs up to {@code limit} deferred clean-ups; returns how many ran. */
    int runCleanups(final int limit)
    {
        int ran = 0;
        Runnable cleanup;
        while (ran < limit && (cleanup = cleanups.poll()) != null)
        {
            ran++;
            try
            {
                cleanup.run();
            }
            catch (final RuntimeException ex)
            {
                LOG.warn("memory quota: a clean-up after reclamation failed", ex);
            }
        }
        return ran;
    }

    private int reclaimRound()
    {
        reclaimWanted = false;
        if (!config.enabled() || totalUsed.get() <= config.maxBytes() || closed)
        {
            if (totalUsed.get() <= config.maxBytes())
            {
                overMaxSinceNs.set(NOT_OVER); // released back under max before a round was needed
                clearRetryBackoff();
            }
            return 0;
        }
        reclamations.incrementAndGet();
        final long before = totalUsed.get();
        final PriorityQueue<Candidate> heap = new PriorityQueue<>(Comparator.comparingLong(c -> c.oldestNs));
        fillHeap(heap);
        int asked = 0;
        int refills = 0;
        boolean underLowWater = false;
        for (int steps = 0; steps < MAX_STEPS_PER_ROUND; steps++)
        {
            if (totalUsed.get() <= config.lowWaterBytes())
            {
                underLowWater = true;
                break;
            }
            if (heap.isEmpty())
            {
                // accounts opened during the round (e.g. replacements of collapsed queues) hold data too
                if (refills++ == MAX_REFILLS || fillHeap(heap) == 0)
                {
                    break;
                }
            }
            final Candidate victim = heap.poll();
            final Candidate next = heap.peek();
            final long discardBound = next == null ? Long.MAX_VALUE : next.oldestNs;
            boolean partial = false;
            for (final ParticipantRecord p : subtreeParticipants(victim.account))
            {
                asked++;
                partial |= reclaimOne(p, discardBound) == Reclaimed.PARTIAL;
            }
            if (partial)
            {
                final long oldest = oldestOf(victim.account);
                if (oldest != Participant.NO_DATA && oldest > victim.oldestNs)
                {
                    heap.add(new Candidate(victim.account, oldest)); // progress made: ask again later if needed
                }
            }
        }
        if (underLowWater)
        {
            clearRetryBackoff();
            endEpisode();
        }
        else
        {
            final boolean firstShortfall = retryBackoffNs == 0;
            retryBackoffNs = firstShortfall ? RETRY_BACKOFF_MIN_NS : Math.min(2 * retryBackoffNs, RETRY_BACKOFF_MAX_NS);
            retryNotBeforeNs = latencyClock.getAsLong() + retryBackoffNs;
            if (firstShortfall)
            {
                LOG.warn("memory quota: still {} bytes in use after reclaiming (low water {}): nothing else could be" +
                        " reclaimed now; retrying with back-off up to {} ms, not logged again until use is under " +
                        "low water",
                    totalUsed.get(), config.lowWaterBytes(), TimeUnit.NANOSECONDS.toMillis(RETRY_BACKOFF_MAX_NS));
            }
        }
        bytesReclaimed.addAndGet(Math.max(0, before - totalUsed.get()));
        return asked;
    }

    private void clearRetryBackoff()
    {
        retryBackoffNs = 0;
        retryNotBeforeNs = NO_BACKOFF;
    }

    /** Use is under low water again: the reclamation episode that began when use crossed max is over. */
    private void endEpisode()
    {
        final long since = overMaxSinceNs.getAndSet(NOT_OVER);
        if (since == NOT_OVER)
        {
            return;
        }
        final long latency = Math.max(0, latencyClock.getAsLong() - since);
        lastReclaimLatencyNs = latency;
        if (latency > worstReclaimLatencyNs)
        {
            worstReclaimLatencyNs = latency; // only the reclaimer writes, under the reclaim lock
        }
        reclaimEpisodes.incrementAndGet();
    }

    /** Puts every open account that holds data into the heap. */
    private int fillHeap(final PriorityQueue<Candidate> heap)
    {
        final List<AccountRecord> snapshot;
        synchronized (registryLock)
        {
            snapshot = new ArrayList<>(accounts.values());
        }
        int added = 0;
        for (final AccountRecord account : snapshot)
        {
            final long oldest = oldestOf(account);
            if (oldest != Participant.NO_DATA)
            {
                heap.add(new Candidate(account, oldest));
                added++;
            }
        }
        return added;
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
        cleanups.clear();
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
        this.reclaimWakeUp = wakeUp;
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
            if (overMaxSinceNs.get() == NOT_OVER)
            {
                overMaxSinceNs.compareAndSet(NOT_OVER, latencyClock.getAsLong()); // the claim that crossed max
            }
            reclaimWanted = true;
            reclaimWakeUp.run();
            if (after - bytes > config.maxBytes())
            {
                // already over max before this refill: refuse it, so use stays within max plus what each
                // participant holds in its local cache plus the one claim that crossed
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

    private List<ParticipantRecord> participantsOf(final AccountRecord account)
    {
        synchronized (registryLock)
        {
            return new ArrayList<>(account.participants);
        }
    }

    private List<ParticipantRecord> subtreeParticipants(final AccountRecord root)
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

    /** Oldest data time of an account's participants; forgets the ones that were garbage-collected. */
    private long oldestOf(final AccountRecord account)
    {
        long oldest = Participant.NO_DATA;
        for (final ParticipantRecord p : participantsOf(account))
        {
            final Participant participant = p.participant.get();
            if (participant == null)
            {
                if (forget(p) >= 0)
                {
                    collapsed.incrementAndGet(); // a collected participant counts as freed
                }
                continue;
            }
            oldest = Math.min(oldest, participant.oldestDataTimeNs());
        }
        return oldest;
    }

    private Reclaimed reclaimOne(final ParticipantRecord p, final long discardBoundNs)
    {
        if (p.used.get() == FORGOTTEN)
        {
            return Reclaimed.COLLAPSING;
        }
        final Participant participant = p.participant.get();
        if (participant == null)
        {
            if (forget(p) >= 0)
            {
                collapsed.incrementAndGet();
            }
            return Reclaimed.COLLAPSING;
        }
        final long wanted = Math.max(0, totalUsed.get() - config.lowWaterBytes());
        try
        {
            final Reclaimed result = participant.reclaim(discardBoundNs, wanted).toCompletableFuture()
                .get(config.reclaimTimeout().toNanos(), TimeUnit.NANOSECONDS);
            if (result == Reclaimed.COLLAPSING)
            {
                forget(p); // may have forgotten itself already (a queue closes its participation)
                collapsed.incrementAndGet();
            }
            return result;
        }
        catch (final TimeoutException ex)
        {
            unresponsive.incrementAndGet();
            LOG.warn("memory quota: participant {} of account {} did not answer a reclaim request within {}; moving on",
                p.id, p.account.id, config.reclaimTimeout());
        }
        catch (final ExecutionException | RuntimeException ex)
        {
            unresponsive.incrementAndGet();
            LOG.warn("memory quota: participant {} of account {} failed to reclaim; moving on", p.id, p.account.id, ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        return Reclaimed.PARTIAL;
    }

    /** An account in the reclamation heap. */
    private static final class Candidate
    {
        final AccountRecord account;
        final long oldestNs;

        Candidate(final AccountRecord account, final long oldestNs)
        {
            this.account = account;
            this.oldestNs = oldestNs;
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
