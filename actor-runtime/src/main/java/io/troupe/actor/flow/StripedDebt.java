package io.troupe.actor.flow;

import java.util.concurrent.atomic.LongAdder;

/** 128 bytes ahead of the fields every add reads, so that no other object's written field shares their line. */
abstract class StripedDebtPadLeft
{
    long p00;
    long p01;
    long p02;
    long p03;
    long p04;
    long p05;
    long p06;
    long p07;
    long p08;
    long p09;
    long p10;
    long p11;
    long p12;
    long p13;
    long p14;
    long p15;
}

/** What every add reads: the slot table is written once, when the first thread adds. */
abstract class StripedDebtFields extends StripedDebtPadLeft
{
    final LongAdder overflow = new LongAdder();
    /** Cells by thread id modulo {@link StripedDebt#SLOTS}; null until the first add. */
    volatile DebtCell[] slots;
}

/** 128 bytes behind those fields. */
abstract class StripedDebtPadRight extends StripedDebtFields
{
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
}

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
 * <p>The fields every add reads are padded apart from other objects, so that no field another thread writes can
 * share their cache line and turn each add into a miss.
 *
 * <p>{@link #sum} is not a snapshot: adds that race with it may or may not be counted, as with {@code LongAdder}.
 */
final class StripedDebt extends StripedDebtPadRight
{
    /** Slots per account: thread ids modulo this pick a thread's cell. */
    static final int SLOTS = 16;

    private static final int MASK = SLOTS - 1;

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
