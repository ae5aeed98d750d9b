package io.troupe.memquota;

import io.troupe.memquota.MemoryQuotaTracker.AccountRecord;
import io.troupe.memquota.MemoryQuotaTracker.ParticipantRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The reclaiming side of a {@link MemoryQuotaTracker}: when a claim crosses max it opens an episode and wakes the
 * reclaimer; each round (one at a time, under the reclaim lock) builds a heap of accounts by the age of their
 * oldest data and asks the oldest account's participants, and its descendants', to reclaim until use is under low
 * water, backing off between rounds that fall short; the episode ends, and its latency is recorded, when use is
 * under low water again. Also keeps the clean-ups collapsed participants leave for after a round, and the
 * reclamation counters.
 */
final class Reclamation
{
    private static final Logger LOG = LoggerFactory.getLogger(Reclamation.class);
    private static final int MAX_STEPS_PER_ROUND = 100_000;
    private static final int MAX_REFILLS = 8;
    /** No reclamation episode is open: use has not crossed max since it was last brought under low water. */
    private static final long NOT_OVER = Long.MIN_VALUE;
    /** No back-off: the reclaimer may run a round as soon as one is due. */
    private static final long NO_BACKOFF = Long.MIN_VALUE;
    /** First wait before another round, after a round that could not reach low water; doubles up to the max. */
    static final long RETRY_BACKOFF_MIN_NS = TimeUnit.MILLISECONDS.toNanos(1);
    static final long RETRY_BACKOFF_MAX_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private final MemoryQuotaTracker tracker;
    private final MemoryQuotaConfig config;
    /** Precise time for reclaim latency; read only when a claim crosses max and when a round ends. */
    private final LongSupplier latencyClock;
    /** One reclamation round at a time (the reclaimer agent, or a caller of reclaimIfNeeded). */
    private final ReentrantLock reclaimLock = new ReentrantLock();
    private final AtomicLong rounds = new AtomicLong();
    private final AtomicLong collapsed = new AtomicLong();
    private final AtomicLong bytesReclaimed = new AtomicLong();
    private final AtomicLong unresponsive = new AtomicLong();
    /** When use crossed max in the open reclamation episode, or {@link #NOT_OVER}. */
    private final AtomicLong overMaxSinceNs = new AtomicLong(NOT_OVER);
    private final AtomicLong episodes = new AtomicLong();
    /** Work collapsed participants left for after the round, such as unlinking their dropped contents. */
    private final ConcurrentLinkedQueue<Runnable> cleanups = new ConcurrentLinkedQueue<>();
    private volatile long lastLatencyNs;
    private volatile long worstLatencyNs;
    /** No round before this time (latency clock), or {@link #NO_BACKOFF}: set after a round fell short. */
    private volatile long retryNotBeforeNs = NO_BACKOFF;
    /** The current back-off; written under the reclaim lock. */
    private long retryBackoffNs;
    private volatile boolean wanted;
    private volatile Runnable wakeUp = () -> { };

    Reclamation(final MemoryQuotaTracker tracker, final MemoryQuotaConfig config, final LongSupplier latencyClock)
    {
        this.tracker = tracker;
        this.config = config;
        this.latencyClock = latencyClock;
    }

    /** A claim took use over max: opens the episode if none is open, and wakes the reclaimer. */
    void onOverMax()
    {
        if (overMaxSinceNs.get() == NOT_OVER)
        {
            overMaxSinceNs.compareAndSet(NOT_OVER, latencyClock.getAsLong()); // the claim that crossed max
        }
        wanted = true;
        wakeUp.run();
    }

    void onWanted(final Runnable wakeUp)
    {
        this.wakeUp = wakeUp;
    }

    /** Whether use is over max and a round is due (not while backing off after a round that fell short). */
    boolean isWanted()
    {
        if (!wanted && !(config.enabled() && tracker.usedBytes() > config.maxBytes()))
        {
            return false;
        }
        // after a round that could not reach low water (nothing older left, participants slow to answer),
        // wait a little before the next, instead of spinning the reclaimer's thread on the same accounts
        final long notBefore = retryNotBeforeNs;
        return notBefore == NO_BACKOFF || latencyClock.getAsLong() - notBefore >= 0;
    }

    /** One reclamation round, without the clean-up; returns how many participants were asked. */
    int runRound()
    {
        reclaimLock.lock();
        try
        {
            return round();
        }
        finally
        {
            reclaimLock.unlock();
        }
    }

    /** Leaves work for after the round; run by the reclaimer (or dropped when the tracker closes). */
    void deferCleanup(final Runnable cleanup)
    {
        if (tracker.isClosed())
        {
            return; // nothing will run it; the dropped contents are freed when their owner is
        }
        cleanups.offer(cleanup);
    }

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

    void dropCleanups()
    {
        cleanups.clear();
    }

    MemoryQuotaCounters counters(final long refusedClaims, final int openAccounts)
    {
        final long since = overMaxSinceNs.get();
        final long openNs = since == NOT_OVER ? 0 : Math.max(0, latencyClock.getAsLong() - since);
        return new MemoryQuotaCounters(tracker.usedBytes(), config.maxBytes(), config.lowWaterBytes(), rounds.get(),
            collapsed.get(), bytesReclaimed.get(), unresponsive.get(), refusedClaims, openAccounts, episodes.get(),
            lastLatencyNs, worstLatencyNs, openNs);
    }

    /** Oldest data time of an account's participants; forgets the ones that were garbage-collected. */
    long oldestOf(final AccountRecord account)
    {
        long oldest = Participant.NO_DATA;
        for (final ParticipantRecord p : tracker.participantsOf(account))
        {
            final Participant participant = p.participant.get();
            if (participant == null)
            {
                if (tracker.forget(p) >= 0)
                {
                    collapsed.incrementAndGet(); // a collected participant counts as freed
                }
                continue;
            }
            oldest = Math.min(oldest, participant.oldestDataTimeNs());
        }
        return oldest;
    }

    private int round()
    {
        wanted = false;
        if (!config.enabled() || tracker.usedBytes() <= config.maxBytes() || tracker.isClosed())
        {
            if (tracker.usedBytes() <= config.maxBytes())
            {
                overMaxSinceNs.set(NOT_OVER); // released back under max before a round was needed
                clearRetryBackoff();
            }
            return 0;
        }
        rounds.incrementAndGet();
        final long before = tracker.usedBytes();
        final PriorityQueue<Candidate> heap = new PriorityQueue<>(Comparator.comparingLong(c -> c.oldestNs));
        fillHeap(heap);
        int asked = 0;
        int refills = 0;
        boolean underLowWater = false;
        for (int steps = 0; steps < MAX_STEPS_PER_ROUND; steps++)
        {
            if (tracker.usedBytes() <= config.lowWaterBytes())
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
            asked += askOldest(heap);
        }
        if (underLowWater)
        {
            clearRetryBackoff();
            endEpisode();
        }
        else
        {
            backOff();
        }
        bytesReclaimed.addAndGet(Math.max(0, before - tracker.usedBytes()));
        return asked;
    }

    /** Asks the oldest account's participants and its descendants' to reclaim; returns how many were asked. */
    private int askOldest(final PriorityQueue<Candidate> heap)
    {
        final Candidate victim = heap.poll();
        final Candidate next = heap.peek();
        final long discardBound = next == null ? Long.MAX_VALUE : next.oldestNs;
        int asked = 0;
        boolean partial = false;
        for (final ParticipantRecord p : tracker.subtreeParticipants(victim.account))
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
        return asked;
    }

    private void backOff()
    {
        final boolean firstShortfall = retryBackoffNs == 0;
        retryBackoffNs = firstShortfall ? RETRY_BACKOFF_MIN_NS : Math.min(2 * retryBackoffNs, RETRY_BACKOFF_MAX_NS);
        retryNotBeforeNs = latencyClock.getAsLong() + retryBackoffNs;
        if (firstShortfall)
        {
            LOG.warn("memory quota: still {} bytes in use after reclaiming (low water {}): nothing else could be" +
                    " reclaimed now; retrying with back-off up to {} ms, not logged again until use is under " +
                    "low water",
                tracker.usedBytes(), config.lowWaterBytes(), TimeUnit.NANOSECONDS.toMillis(RETRY_BACKOFF_MAX_NS));
        }
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
        lastLatencyNs = latency;
        if (latency > worstLatencyNs)
        {
            worstLatencyNs = latency; // only the reclaimer writes, under the reclaim lock
        }
        episodes.incrementAndGet();
    }

    /** Puts every open account that holds data into the heap. */
    private int fillHeap(final PriorityQueue<Candidate> heap)
    {
        int added = 0;
        for (final AccountRecord account : tracker.openAccounts())
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

    private Reclaimed reclaimOne(final ParticipantRecord p, final long discardBoundNs)
    {
        if (p.used.get() == MemoryQuotaTracker.FORGOTTEN)
        {
            return Reclaimed.COLLAPSING;
        }
        final Participant participant = p.participant.get();
        if (participant == null)
        {
            if (tracker.forget(p) >= 0)
            {
                collapsed.incrementAndGet();
            }
            return Reclaimed.COLLAPSING;
        }
        final long wantedBytes = Math.max(0, tracker.usedBytes() - config.lowWaterBytes());
        try
        {
            final Reclaimed result = participant.reclaim(discardBoundNs, wantedBytes).toCompletableFuture()
                .get(config.reclaimTimeout().toNanos(), TimeUnit.NANOSECONDS);
            if (result == Reclaimed.COLLAPSING)
            {
                tracker.forget(p); // may have forgotten itself already (a queue closes its participation)
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
}
