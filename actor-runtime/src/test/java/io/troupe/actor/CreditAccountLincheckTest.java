package io.troupe.actor;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * Model check of a {@link CreditAccount}'s charge path: {@code charge}, {@code repay}, {@code debt} and
 * {@code ensureClearFunds}, from two threads, on an account opened at its threshold, so that a few operations
 * move it in and out of debt.
 *
 * <ul>
 *   <li>Every answer is linearizable against {@link Spec}: a debt, and "clear" exactly when it is below the
 *   threshold. This holds with two threads because only the other thread's share can change during a read:
 *   the debt is a {@link StripedDebt} sum, which is not a snapshot (see {@link StripedDebtLincheckTest}), so
 *   with two other threads charging and repaying a read may count a later operation of one and miss an earlier
 *   one of the other. The account does not promise more: a spurious "in debt" answer is answered by a notice
 *   once a read sees the debt below the threshold, a spurious "clear" lets an ingress read its source once
 *   more.</li>
 *   <li>No lost or doubled wake-up (the validation, once all operations are over): the debt is exact; if it is
 *   below the threshold, every waiter told "in debt" got a {@link FundsCleared} and none is still registered; a
 *   waiter gets at most one notice per "in debt" answer; every notice carries a debt below the threshold; the
 *   account counts exactly the notices sent. This checks the handshake between {@code repay} (add, fence, read
 *   {@code hasWaiters}) and {@code ensureClearFunds} (register, write {@code hasWaiters}, read the debt
 *   again).</li>
 * </ul>
 *
 * <p>The model checker explores sequentially consistent interleavings only: it checks that handshake as an
 * algorithm, not the fence that keeps it correct on hardware that reorders a store with a later load.
 */
@Timeout(120)
class CreditAccountLincheckTest
{
    static final long THRESHOLD = 10;
    static final int NODE_ID = 1;
    /** Waiters are actors 1 and 2. */
    static final int WAITERS = 2;

    @Test
    void answersAreLinearizableAndNoWakeUpIsLostOrDoubled()
    {
        LincheckBudget.modelChecking(2)
            // the model checker switches threads after this many iterations of a loop, taking it for a spin; a
            // debt read loops over all the slots, and must also be explored running through without a switch
            // (with the default of 10, a repayment always lands in the middle of a waiter's read, and a lost
            // wake-up from reading hasWaiters before adding the repayment goes unnoticed). With this budget the
            // check catches seeded bugs: repay reading hasWaiters before adding, ensureClearFunds without its
            // second read after registering, notifyWaiters not clearing the waiters (a doubled notice).
            .loopIterationsBeforeThreadSwitch(StripedDebt.SLOTS + 8)
            .sequentialSpecification(Spec.class)
            .check(Operations.class);
    }

    private static void check(final boolean condition, final String format, final Object... args)
    {
        if (!condition)
        {
            throw new AssertionError(String.format(format, args));
        }
    }

    /**
     * Opens an account on a fresh flow control and charges it up to its threshold: in debt.
     *
     * @param notices where the account's {@link FundsCleared} notices go.
     * @return the account.
     */
    static CreditAccount open(final Notices notices)
    {
        final FlowControl flow = new FlowControl(new FlowControlConfig(), NODE_ID, notices);
        final CreditAccount account = flow.openAccount(THRESHOLD);
        account.charge(THRESHOLD);
        return account;
    }

    static ActorId waiter(final int index)
    {
        return ActorId.of(NODE_ID, index, index);
    }

    /** The flow control's notifier: counts the notices by waiter and keeps the highest debt one carried. */
    static final class Notices implements BiConsumer<ActorId, FundsCleared>
    {
        final AtomicIntegerArray byWaiter = new AtomicIntegerArray(WAITERS + 1);
        final AtomicLong highestDebt = new AtomicLong(Long.MIN_VALUE);

        @Override
        public void accept(final ActorId waiter, final FundsCleared notice)
        {
            byWaiter.incrementAndGet((int)waiter.localId());
            highestDebt.accumulateAndGet(notice.debt(), Math::max);
        }
    }

    /**
     * The charge path as Lincheck operations, with what was done kept apart from the account for the
     * validation. Public, as is its constructor: Lincheck builds a fresh instance per run by reflection.
     */
    public static final class Operations
    {
        private final Notices notices = new Notices();
        private final CreditAccount account = open(notices);
        /** Charges minus repayments, the opening charge included. */
        private final AtomicLong expectedDebt = new AtomicLong(THRESHOLD);
        /** "In debt" answers, by waiter. */
        private final AtomicIntegerArray inDebtAnswers = new AtomicIntegerArray(WAITERS + 1);

        /**
         * Charges the account.
         *
         * @param cost the cost.
         */
        @Operation
        public void charge(@Param(gen = IntGen.class, conf = "1:3") final int cost)
        {
            account.charge(cost);
            expectedDebt.addAndGet(cost);
        }

        /**
         * Repays the account.
         *
         * @param cost the cost.
         */
        @Operation
        public void repay(@Param(gen = IntGen.class, conf = "1:3") final int cost)
        {
            account.repay(cost);
            expectedDebt.addAndGet(-cost);
        }

        /**
         * An ingress asks before reading its source.
         *
         * @param waiter which of the waiting actors.
         * @return true if clear.
         */
        @Operation
        public boolean ensureClearFunds(@Param(gen = IntGen.class, conf = "1:2") final int waiter)
        {
            final boolean clear = account.ensureClearFunds(waiter(waiter));
            if (!clear)
            {
                inDebtAnswers.incrementAndGet(waiter);
            }
            return clear;
        }

        /**
         * Reads the debt.
         *
         * @return the debt.
         */
        @Operation
        public long debt()
        {
            return account.debt();
        }

        /**
         * Once all operations are over: the debt is exact; a waiter got at most one notice per "in debt" answer;
         * if the debt is below the threshold, every waiter told "in debt" got a notice and none is still
         * registered; every notice carried a debt below the threshold; the account counted the notices sent.
         */
        @Validate
        public void waitsAreSettled()
        {
            final long debt = expectedDebt.get();
            check(account.debt() == debt, "debt %d, but charges minus repayments are %d", account.debt(), debt);
            long sent = 0;
            for (int w = 1; w <= WAITERS; w++)
            {
                final int told = notices.byWaiter.get(w);
                final int inDebt = inDebtAnswers.get(w);
                sent += told;
                check(told <= inDebt, "waiter %d got %d notices for %d in-debt answers", w, told, inDebt);
                check(debt >= THRESHOLD || inDebt == 0 || told > 0,
                    "debt %d is clear, but waiter %d, told in debt %d times, got no notice", debt, w, inDebt);
            }
            check(debt >= THRESHOLD || !account.hasWaiters, "debt %d is clear, but a waiter is still registered",
                debt);
            check(sent == 0 || notices.highestDebt.get() < THRESHOLD,
                "a notice carried debt %d, not below the threshold", notices.highestDebt.get());
            check(account.clearedNotices() == sent, "account counted %d notices, %d were sent",
                account.clearedNotices(), sent);
        }
    }

    /** The sequential specification: a debt and its threshold. */
    public static final class Spec
    {
        private long debt = THRESHOLD;

        /**
         * Charges.
         *
         * @param cost the cost.
         */
        public void charge(final int cost)
        {
            debt += cost;
        }

        /**
         * Repays.
         *
         * @param cost the cost.
         */
        public void repay(final int cost)
        {
            debt -= cost;
        }

        /**
         * Clear check.
         *
         * @param waiter ignored.
         * @return true if the debt is below the threshold.
         */
        public boolean ensureClearFunds(final int waiter)
        {
            return debt < THRESHOLD;
        }

        /**
         * The debt.
         *
         * @return it.
         */
        public long debt()
        {
            return debt;
        }
    }
}
