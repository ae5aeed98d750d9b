package io.troupe.actor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** 128 bytes ahead of the value, so that cells of different threads share no cache line. */
abstract class DebtCellPadLeft
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

/** The value, written by the owning thread only. */
abstract class DebtCellValue extends DebtCellPadLeft
{
    long value;
}

/** 128 bytes behind the value. */
abstract class DebtCellPadRight extends DebtCellValue
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
 * One thread's share of a {@link StripedDebt}: a running sum that only its owner writes, so adding to it is a
 * plain read and a release store, with no atomic instruction. Another thread may become the owner only once the
 * previous owner has terminated (see {@link StripedDebt}), and it continues the sum.
 */
final class DebtCell extends DebtCellPadRight
{
    private static final VarHandle VALUE;

    static
    {
        try
        {
            VALUE = MethodHandles.lookup().findVarHandle(DebtCellValue.class, "value", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** The thread allowed to add; changed only under the owning {@link StripedDebt}'s lock. */
    Thread owner;

    DebtCell(final Thread owner)
    {
        this.owner = owner;
    }

    /**
     * Adds to the sum. Owner thread only.
     *
     * @param delta what to add.
     */
    void add(final long delta)
    {
        // single writer: no read-modify-write instruction is needed, only a store others may read
        VALUE.setRelease(this, value + delta);
    }

    /**
     * The sum as last published by the owner. Any thread.
     *
     * @return the sum.
     */
    long get()
    {
        return (long)VALUE.getVolatile(this);
    }
}
