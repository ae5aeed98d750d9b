package io.troupe.actor.mailbox;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * All mailboxes of a node, indexed by hint in a two-dimensional table: lines of {@value #LINE_SIZE} mailboxes
 * are allocated when first needed. A mailbox stays in its slot for the life of the node; when its last actor
 * passes away it goes on a free list (one per pool and mailbox type) and is reused by a later registration.
 * Hint 0 is never used, so the all-zero id never resolves.
 *
 * <p>Thread safety: {@link #get} and {@link #allocate} are safe from any thread. Free lists are Treiber
 * stacks whose top carries a stamp, so a mailbox popped and pushed again between a reader's load and CAS
 * cannot corrupt them (no ABA).
 */
public final class MailboxTable
{
    /** log2 of the line size. */
    public static final int LINE_SHIFT = 12;
    /** Mailboxes per line. */
    public static final int LINE_SIZE = 1 << LINE_SHIFT;
    /** Lines the table can hold. */
    public static final int MAX_LINES = 1 << 16;
    /** Largest hint the table can hand out. */
    public static final int MAX_HINT = Integer.MAX_VALUE;

    private static final int LINE_MASK = LINE_SIZE - 1;
    private static final VarHandle LINES = MethodHandles.arrayElementVarHandle(Mailbox[][].class);
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Mailbox[].class);

    private final Mailbox[][] lines = new Mailbox[MAX_LINES][];
    private final AtomicInteger nextHint = new AtomicInteger(1);
    private final AtomicLong[] freeLists;
    private final AtomicLong vacant = new AtomicLong();

    /**
     * Creates an empty table.
     *
     * @param poolCount number of executor pools mailboxes may be pinned to.
     */
    public MailboxTable(final int poolCount)
    {
        freeLists = new AtomicLong[poolCount * MailboxType.values().length];
        for (int i = 0; i < freeLists.length; i++)
        {
            freeLists[i] = new AtomicLong();
        }
    }

    /**
     * The mailbox at a hint.
     *
     * @param hint the hint from an actor id.
     * @return the mailbox, or null if the hint was never handed out.
     */
    public Mailbox get(final int hint)
    {
        if (hint <= 0 || (hint >>> LINE_SHIFT) >= MAX_LINES)
        {
            return null;
        }
        final Mailbox[] line = (Mailbox[])LINES.getAcquire(lines, hint >>> LINE_SHIFT);
        return line == null ? null : (Mailbox)SLOTS.getAcquire(line, hint & LINE_MASK);
    }

    /**
     * A vacant mailbox for a new actor: a reused one if the pool has one of that type, else a new one.
     *
     * @param poolId the pool.
     * @param type   the mailbox type.
     * @return a vacant mailbox, owned by the caller until it calls {@link Mailbox#occupy}.
     * @throws IllegalStateException if the table is full.
     */
    public Mailbox allocate(final int poolId, final MailboxType type)
    {
        final Mailbox reused = pop(freeLists[freeListIndex(poolId, type)]);
        if (reused != null)
        {
            vacant.decrementAndGet();
            return reused;
        }
        final int hint = nextHint.getAndIncrement();
        if (hint <= 0 || (hint >>> LINE_SHIFT) >= MAX_LINES)
        {
            nextHint.decrementAndGet();
            throw new IllegalStateException("mailbox table is full: " + capacity() + " mailboxes in use");
        }
        final Mailbox mailbox = type == MailboxType.SIMPLE ?
            new SimpleMailbox(hint, poolId) : new RevolvingMailbox(hint, poolId);
        SLOTS.setRelease(line(hint >>> LINE_SHIFT), hint & LINE_MASK, mailbox);
        return mailbox;
    }

    /**
     * Returns a vacant mailbox to its free list. Call once, after the mailbox was marked idle.
     *
     * @param mailbox the mailbox whose last actor passed away.
     */
    public void release(final Mailbox mailbox)
    {
        final AtomicLong top = freeLists[freeListIndex(mailbox.poolId(), mailbox.type())];
        while (true)
        {
            final long current = top.get();
            mailbox.nextFree = (int)current;
            if (top.compareAndSet(current, stamped(current, mailbox.hint())))
            {
                vacant.incrementAndGet();
                return;
            }
        }
    }

    /**
     * Number of hints handed out so far (mailboxes ever created).
     *
     * @return the count.
     */
    public int created()
    {
        return nextHint.get() - 1;
    }

    /**
     * Number of vacant mailboxes waiting for reuse.
     *
     * @return the count.
     */
    public long vacant()
    {
        return vacant.get();
    }

    /**
     * Visits every mailbox created so far. Not a snapshot: for shutdown and diagnostics.
     *
     * @param visitor called once per mailbox.
     */
    public void forEach(final Consumer<Mailbox> visitor)
    {
        final int last = nextHint.get();
        for (int hint = 1; hint < last; hint++)
        {
            final Mailbox mailbox = get(hint);
            if (mailbox != null)
            {
                visitor.accept(mailbox);
            }
        }
    }

    private static long capacity()
    {
        return (long)MAX_LINES * LINE_SIZE;
    }

    private int freeListIndex(final int poolId, final MailboxType type)
    {
        return poolId * MailboxType.values().length + type.ordinal();
    }

    private Mailbox pop(final AtomicLong top)
    {
        while (true)
        {
            final long current = top.get();
            final int hint = (int)current;
            if (hint == 0)
            {
                return null;
            }
            final Mailbox mailbox = get(hint);
            if (top.compareAndSet(current, stamped(current, mailbox.nextFree)))
            {
                return mailbox;
            }
        }
    }

    private static long stamped(final long previous, final int hint)
    {
        return (((previous >>> 32) + 1) << 32) | (hint & 0xFFFF_FFFFL);
    }

    private Mailbox[] line(final int lineIndex)
    {
        Mailbox[] line = (Mailbox[])LINES.getAcquire(lines, lineIndex);
        if (line == null)
        {
            final Mailbox[] created = new Mailbox[LINE_SIZE];
            line = LINES.compareAndSet(lines, lineIndex, null, created) ?
                created : (Mailbox[])LINES.getAcquire(lines, lineIndex);
        }
        return line;
    }
}
