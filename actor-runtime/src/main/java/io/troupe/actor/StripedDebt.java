package io.troupe.actor;

import java.util.concurrent.atomic.LongAdder;

/**
 * A sum that many threads add to without contending: each thread adds to a {@link DebtCell} of its own with a
 * plain store (no atomic instruction, no cache line shared with another writer), and {@link #sum} adds the cells
 * up.
 *
 * <p>Why not a {@link LongAdder}: its cells are picked by a hash of the thread and shared when threads collide,
 * so every add is an atomic compare-and-set. Why not a thread-local: finding it costs a chain of dependent loads
 * on every send. Here a thread finds its cell within {@link #PROBES} slots from its thread id modulo
 * {@link #SLOTS} (usually at the first), checking that it owns it: two threads whose ids collide each get a
 * cell of their own. A thread whose slots are all owned by other live threads adds to an overflow
 * {@code LongAdder} instead (correct, only slower, and without a lock). A cell whose owner has terminated is
 * taken over by the next thread that finds it in its slots, which continues the sum: thread termination
 * happens-before {@link Thread#isAlive} returning false, so the new owner sees the final value, and short-lived
 * threads never make the table grow. Cells are never removed, so the first empty slot a thread meets ends its
 * search: it claimed the first empty slot it found, and those before it stay taken.
 *
 * <p>{@link #sum} is not a snapshot: adds that race with it may or may not be counted, as with {@code LongAdder}.
 */
final class StripedDebt
{
    /** Slots per account: a thread's cell is within {@link #PROBES} slots of its thread id modulo this. */
    static final int SLOTS = 32;
    /** Slots a thread looks at for its cell. */
    static final int PROBES = 4;

    private static final int MASK = SLOTS - 1;

    private final LongAdder overflow = new LongAdder();
    /** Cells by thread id modulo {@link #SLOTS}; null until the first add; written under this object's lock. */
    private volatile DebtCell[] slots;

    /**
     * Adds to the sum, on the calling thread's cell.
     *
     * @param delta what to add.
     */
    void add(final long delta)
    {
        final Thread thread = Thread.currentThread();
        final DebtCell[] table = slots;
        if (table != null)
        {
            final int home = (int)thread.getId();
            for (int i = 0; i < PROBES; i++)
            {
                final DebtCell cell = table[(home + i) & MASK];
                if (cell == null)
                {
                    break;
                }
                if (cell.owner == thread)
                {
                    cell.add(delta);
                    return;
                }
            }
        }
        addSlow(thread, table, delta);
    }

    /**
     * The sum of every thread's adds.
     *
     * @return the sum.
     */
    long sum()
    {
        long sum = overflow.sum();
        final DebtCell[] table = slots;
        if (table != null)
        {
            for (final DebtCell cell : table)
            {
                if (cell != null)
                {
                    sum += cell.get();
                }
            }
        }
        return sum;
    }

    /**
     * Cells in use.
     *
     * @return the count.
     */
    int cellCount()
    {
        final DebtCell[] table = slots;
        int count = 0;
        if (table != null)
        {
            for (final DebtCell cell : table)
            {
                count += cell == null ? 0 : 1;
            }
        }
        return count;
    }

    /**
     * What was added through the overflow (by threads that found no cell): 0 while every thread has its own.
     *
     * @return the overflow's sum.
     */
    long overflowSum()
    {
        return overflow.sum();
    }

    /**
     * The first add of a thread, or one whose slots are all owned by others: claims a cell if one of its slots
     * is free or owned by a terminated thread (under the lock), else adds to the overflow without locking.
     */
    private void addSlow(final Thread thread, final DebtCell[] table, final long delta)
    {
        final DebtCell cell = table == null || mayClaim(table, thread) ? claimCell(thread) : null;
        if (cell != null)
        {
            cell.add(delta);
        }
        else
        {
            overflow.add(delta);
        }
    }

    /** Whether one of the thread's slots is free or owned by a thread that has terminated. */
    private static boolean mayClaim(final DebtCell[] table, final Thread thread)
    {
        final int home = (int)thread.getId();
        for (int i = 0; i < PROBES; i++)
        {
            final DebtCell cell = table[(home + i) & MASK];
            if (cell == null || !cell.owner.isAlive())
            {
                return true;
            }
        }
        return false;
    }

    /** The thread's cell: its own, a new one in its first free slot, or a terminated thread's; null if none. */
    private synchronized DebtCell claimCell(final Thread thread)
    {
        DebtCell[] table = slots;
        if (table == null)
        {
            table = new DebtCell[SLOTS];
            slots = table;
        }
        final int home = (int)thread.getId();
        DebtCell orphan = null;
        for (int i = 0; i < PROBES; i++)
        {
            final int slot = (home + i) & MASK;
            final DebtCell cell = table[slot];
            if (cell == null)
            {
                final DebtCell created = new DebtCell(thread);
                table[slot] = created;
                // publish the cell: readers of the slot table see it with its owner set
                slots = table;
                return created;
            }
            if (cell.owner == thread)
            {
                return cell;
            }
            if (orphan == null && !cell.owner.isAlive())
            {
                orphan = cell;
            }
        }
        if (orphan != null)
        {
            orphan.owner = thread;
        }
        return orphan;
    }
}
