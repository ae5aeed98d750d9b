package io.troupe.actor.flow;

import java.util.concurrent.atomic.LongAdder;

/**
 * A sum that many threads add to without contending: each thread adds to a {@link DebtCell} of its own with a
 * plain store (no atomic instruction, no cache line shared with another writer), and {@link #sum} adds the cells
 * up.
 *
 * <p>Why not a {@link LongAdder}: its cells are picked by a hash of the thread and shared when threads collide,
 * so every add is an atomic compare-and-set. Why not a thread-local: finding it costs a chain of dependent loads
 * on every send. Here a thread finds its cell in one array load, at its thread id modulo {@link #SLOTS}, and
 * checks that it owns it. A thread whose slot is owned by another live thread adds to an overflow
 * {@code LongAdder} instead (correct, only slower). A cell whose owner has terminated is taken over by the next
 * thread mapped to its slot, which continues the sum: thread termination happens-before {@link Thread#isAlive}
 * returning false, so the new owner sees the final value, and short-lived threads never make the table grow.
 *
 * <p>{@link #sum} is not a snapshot: adds that race with it may or may not be counted, as with {@code LongAdder}.
 */
final class StripedDebt
{
    /** Slots per account: thread ids modulo this pick a thread's cell. */
    static final int SLOTS = 16;

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
            final DebtCell cell = table[(int)thread.getId() & MASK];
            if (cell != null && cell.owner == thread)
            {
                cell.add(delta);
                return;
            }
        }
        addSlow(thread, delta);
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

    private void addSlow(final Thread thread, final long delta)
    {
        final DebtCell cell = claimCell(thread);
        if (cell != null)
        {
            cell.add(delta);
        }
        else
        {
            overflow.add(delta);
        }
    }

    private synchronized DebtCell claimCell(final Thread thread)
    {
        DebtCell[] table = slots;
        if (table == null)
        {
            table = new DebtCell[SLOTS];
            slots = table;
        }
        final int slot = (int)thread.getId() & MASK;
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
        if (!cell.owner.isAlive())
        {
            cell.owner = thread;
            return cell;
        }
        return null;
    }
}
