package io.troupe.actor.internal.mailbox;

import io.troupe.actor.Envelope;
import io.troupe.memquota.Account;
import io.troupe.memquota.CoarseClock;
import io.troupe.memquota.MemoryQuotaException;
import io.troupe.memquota.Participant;
import io.troupe.memquota.Participation;
import io.troupe.memquota.Reclaimed;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The memory side of a memory-tracked mailbox: a {@link Participant} of the mailbox's account. Senders claim
 * each envelope's cost before it is queued ({@link #admit}); the worker releases it when the envelope is
 * taken ({@link #release}). When the quota reclaims it, the mailbox is marked collapsing and handed to a
 * worker (the only thread that may empty its queue), which reports what was queued and tells its actors;
 * the tracker forgets the mailbox's bytes at once. Afterwards the mailbox joins its account again.
 */
public final class MailboxMemory implements Participant
{
    private static final CompletableFuture<Reclaimed> COLLAPSING =
        CompletableFuture.completedFuture(Reclaimed.COLLAPSING);

    private final Mailbox mailbox;
    private final Account account;
    private final CoarseClock clock;
    private final Consumer<Mailbox> scheduler;
    private volatile Participation participation;
    private volatile boolean collapsing;

    /**
     * Attaches memory tracking to a mailbox.
     *
     * @param mailbox   the mailbox.
     * @param account   the account its queued events are claimed against (a handle the mailbox owns).
     * @param clock     the quota's clock, for enqueue stamps.
     * @param scheduler hands the mailbox to its pool when a collapse needs a worker.
     */
    public MailboxMemory(
        final Mailbox mailbox, final Account account, final CoarseClock clock, final Consumer<Mailbox> scheduler)
    {
        this.mailbox = mailbox;
        this.account = account;
        this.clock = clock;
        this.scheduler = scheduler;
        this.participation = account.register(this);
    }

    /** {@link #admit} result: claimed and stamped; queue it. */
    public static final int ADMITTED = 0;
    /** {@link #admit} result: the mailbox is collapsing or its account is gone. */
    public static final int REFUSED_COLLAPSED = 1;
    /** {@link #admit} result: the node's quota is past its hard cap while reclamation runs. */
    public static final int REFUSED_EXHAUSTED = 2;

    /**
     * Claims an envelope's cost and stamps it, before it is queued. Any thread.
     *
     * @param envelope the envelope.
     * @return {@link #ADMITTED}, or why the envelope must not be queued.
     */
    public int admit(final Envelope envelope)
    {
        if (collapsing)
        {
            return REFUSED_COLLAPSED;
        }
        try
        {
            participation.claim(envelope.memoryCost());
        }
        catch (final MemoryQuotaException.QuotaExhausted ex)
        {
            return REFUSED_EXHAUSTED;
        }
        catch (final MemoryQuotaException ex)
        {
            return REFUSED_COLLAPSED;
        }
        envelope.stampEnqueued(clock.nowNs());
        return ADMITTED;
    }

    /**
     * Releases an envelope's cost once it was taken from the queue. The worker running the mailbox.
     *
     * @param envelope the envelope.
     */
    public void release(final Envelope envelope)
    {
        participation.release(envelope.memoryCost());
    }

    /**
     * Whether a reclamation asked the mailbox to collapse and no worker has done it yet.
     *
     * @return true while a collapse is pending.
     */
    public boolean isCollapsing()
    {
        return collapsing;
    }

    /**
     * Called by the worker after it emptied the queue: the mailbox joins its account again (if it is still
     * open) and accepts events from then on.
     *
     * @return true if tracking resumed; false if the account is closed (events are then refused).
     */
    public boolean rejoin()
    {
        try
        {
            participation = account.register(this);
            collapsing = false;
            return true;
        }
        catch (final MemoryQuotaException ex)
        {
            return false;
        }
    }

    /**
     * Bytes the account counts for this mailbox now.
     *
     * @return bytes.
     */
    public long usedBytes()
    {
        return participation.usedBytes();
    }

    /**
     * The mailbox was vacated (its last actor passed away): leave the account and close the handle held.
     */
    public void leave()
    {
        participation.close();
        account.close();
    }

    @Override
    public long oldestDataTimeNs()
    {
        return collapsing ? NO_DATA : mailbox.peekOldestEnqueuedNs();
    }

    @Override
    public CompletionStage<Reclaimed> reclaim(final long discardOlderThanNs, final long bytesWanted)
    {
        collapsing = true;
        // the state is read after the flag is set, and the worker reads the flag after marking idle: one of
        // the two sees the other, so a collapse is never left unhandled
        if (mailbox.tryMarkScheduled())
        {
            scheduler.accept(mailbox);
        }
        return COLLAPSING;
    }
}
