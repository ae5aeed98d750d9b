package io.troupe.actor;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;

/**
 * The one budget every Lincheck test of the runtime starts from, so that the checks cost the same and read the
 * same: scenarios of two operations per thread with one before and one after. The model checker explores twenty
 * scenarios with fifty interleavings each; the stress run repeats five scenarios five hundred times on real
 * threads. Each test adds what is its own (its specification, a loop budget, guarantees) and says which seeded
 * bugs the budget still catches.
 */
public final class LincheckBudget
{
    private LincheckBudget()
    {
    }

    /**
     * The model checker's settings.
     *
     * @param threads threads per scenario.
     * @return fresh options.
     */
    public static ModelCheckingOptions modelChecking(final int threads)
    {
        return new ModelCheckingOptions()
            .threads(threads)
            .actorsPerThread(2)
            .actorsBefore(1)
            .actorsAfter(1)
            .iterations(20)
            .invocationsPerIteration(50);
    }

    /**
     * The stress run's settings: the only run that exercises the hardware's memory ordering rather than
     * sequentially consistent interleavings.
     *
     * @param threads threads per scenario.
     * @return fresh options.
     */
    public static StressOptions stress(final int threads)
    {
        return new StressOptions()
            .threads(threads)
            .actorsPerThread(2)
            .actorsBefore(1)
            .actorsAfter(1)
            .iterations(5)
            .invocationsPerIteration(500);
    }
}
