package io.troupe.actor.internal.mailbox;

import io.troupe.actor.MailboxType;
import io.troupe.actor.internal.layout.LinePadding;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/** The table's fields, behind {@link LinePadding}: every worker reads {@link #lines} on every send. */
abstract class TableFields extends LinePadding
{
    /** Lines by index + {@link MailboxTable#ARRAY_PAD}. */
    final Mailbox[][] lines = new Mailbox[MailboxTable.MAX_LINES + 2 * MailboxTable.ARRAY_PAD][];
    final AtomicInteger nextHint = new AtomicInteger(1);
    final AtomicLong[] freeLists;
    final AtomicLong vacant = new AtomicLong();

    TableFields(final AtomicLong[] freeLists)
    {
        this.freeLists = freeLists;
    }
}

/**
 * All mailboxes of a node, indexed by hint in a two-dimensional table: lines of {@value #LINE_SIZE} mailboxes
 * are allocated when first needed. A mailbox stays in its slot for the life of the node; when its last actor
 * passes away it goes on a free list (one per pool and mailbox type) and is reused by a later registration.
 * Hint 0 is never used, so the all-zero id never resolves.
 *
 * <p>Layout: new mailboxes are created {@value #BATCH} at a time, adjacent in memory, and handed out in
 * bit-reversed order, so that actors registered one after another (a ping-pong pair, a pipeline, a pool of
 * workers) sit at least 16 mailboxes (1 KiB) apart. Hot actors on different threads then rarely write to
 * the same cache line, without padding each mailbox. A collection may move a mailbox next to any object that
 * referred to it (a worker's hand-off slot, its context), so the shared objects every worker reads on every send
 * (this table, its arrays, the router, the dispatcher, the pool) are padded instead: a busy mailbox cannot land on
 * their lines.
 *
 * <p>Thread safety: {@link #get} and {@link #allocate} are safe from any thread. Free lists are Treiber
 * stacks whose top carries a stamp, so a mailbox popped and pushed again between a reader's load and CAS
 * cannot corrupt them (no ABA).
 */
public final class MailboxTable extends TableFields
{
    /** log2 of the line size. */
    public static final int LINE_SHIFT = 12;
    /** Mailboxes per line. */
    public static final int LINE_SIZE = 1 << LINE_SHIFT;
    /** Lines the table can hold. */
    public static final int MAX_LINES = 1 << 16;
    /** Mailboxes created together. */
    public static final int BATCH = 64;
    /** Largest hint the table can hand out. */
    public static final int MAX_HINT = MAX_LINES * LINE_SIZE - 1;

    private static final int LINE_MASK = LINE_SIZE - 1;
    /**
     * Unused elements at both ends of the lines array and of each line: 128 bytes (with compressed references)
     * between an array's header or end and the elements every worker reads on every send.
     */
    static final int ARRAY_PAD = 32;
    private static final int BATCH_BITS = Integer.numberOfTrailingZeros(BATCH);
    private static final VarHandle LINES = MethodHandles.arrayElementVarHandle(Mailbox[][].class);
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Mailbox[].class);

    /** Padding behind the fields (see {@link LinePadding}). */
    long q00;
    long q01;
    long q02;
    long q03;
    long q04;
    long q05;
    long q06;
    long q07;
    long q08;
    long q09;
    long q10;
    long q11;
    long q12;
    long q13;
    long q14;
    long q15;

    /**
     * Creates an empty table.
     *
     * @param poolCount number of executor pools mailboxes may be pinned to.
     */
    public MailboxTable(final int poolCount)
    {
        super(new AtomicLong[poolCount * MailboxType.values().length]);
        for (int i = 0; i < freeLists.length; i++)
        {
            freeLists[i] = new AtomicLong();
        }
    }

    /**
     * The mailbox at a hint.
     *
     * @param hint the hint from an actor id.
     * @return the mailbox, or null if the hint was never handed out (or is beyond the table).
     */
    public Mailbox get(final int hint)
    {
        if (hint <= 0 || hint > MAX_HINT)
        {
            return null;
        }
        final Mailbox[] line = (Mailbox[])LINES.getAcquire(lines, (hint >>> LINE_SHIFT) + ARRAY_PAD);
        return line == null ? null : (Mailbox)SLOTS.getAcquire(line, (hint & LINE_MASK) + ARRAY_PAD);
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
        final AtomicLong freeList = freeLists[freeListIndex(poolId, type)];
        while (true)
        {
            final Mailbox reused = pop(freeList);
            if (reused != null)
            {
                vacant.decrementAndGet();
                return reused;
            }
            createBatch(poolId, type, freeList);
        }
    }

    private void createBatch(final int poolId, final MailboxType type, final AtomicLong freeList)
    {
        final int first = nextHint.getAndAdd(BATCH);
        if (first <= 0 || ((first + BATCH - 1) >>> LINE_SHIFT) >= MAX_LINES)
        {
            nextHint.getAndAdd(-BATCH);
            throw new IllegalStateException("mailbox table is full: " + created() + " mailboxes created");
        }
        final Mailbox[] batch = new Mailbox[BATCH];
        for (int i = 0; i < BATCH; i++)
        {
            final int hint = first + i;
            batch[i] = type == MailboxType.SIMPLE ? new SimpleMailbox(hint, poolId) :
                new RevolvingMailbox(hint, poolId);
            SLOTS.setRelease(line(hint >>> LINE_SHIFT), (hint & LINE_MASK) + ARRAY_PAD, batch[i]);
        }
        // pops come out as slots rev(63), rev(62), ..., rev(0): consecutive ones >= 16 slots apart, and the
        // last of this batch (slot 0) is 127 slots from the first of the next batch (its slot 63)
        for (int i = 0; i < BATCH; i++)
        {
            push(freeList, batch[Integer.reverse(i) >>> (Integer.SIZE - BATCH_BITS)]);
        }
    }

    /**
     * Returns a vacant mailbox to its free list. Call once, after the mailbox was marked idle.
     *
     * @param mailbox the mailbox whose last actor passed away.
     */
    public void release(final Mailbox mailbox)
    {
        push(freeLists[freeListIndex(mailbox.poolId(), mailbox.type())], mailbox);
    }

    private void push(final AtomicLong top, final Mailbox mailbox)
    {
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
     * Number of mailboxes created so far (the table's high-water mark, in batches of {@value #BATCH}).
     *
     * @return the count.
     */
    public int created()
    {
        return nextHint.get() - 1;
    }

    /**
     * Number of vacant mailboxes: created and not yet used, or waiting for reuse.
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
        final int index = lineIndex + ARRAY_PAD;
        Mailbox[] line = (Mailbox[])LINES.getAcquire(lines, index);
        if (line == null)
        {
            final Mailbox[] created = new Mailbox[LINE_SIZE + 2 * ARRAY_PAD];
            line = LINES.compareAndSet(lines, index, null, created) ?
                created : (Mailbox[])LINES.getAcquire(lines, index);
        }
        return line;
    }
}
