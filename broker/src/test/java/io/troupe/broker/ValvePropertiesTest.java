package io.troupe.broker;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random sequences of {@code tryOpen}, {@code close}, {@code keep} and {@code update} at random times over
 * every valve: the size is exact (held + opens - closes - released keeps), never negative, never grows to
 * or beyond {@code max}; spurious releases are counted; {@code nextOpenNs} is in the future; a rate valve
 * never exceeds its limit in any window.
 */
class ValvePropertiesTest
{
    private static final long MS = 1_000_000L;

    /**
     * One step: which call, how far the clock moves before it, how far from the target the relative time of an
     * update is, and whether the relative time crosses to the other side of the target from this step on (runs
     * on one side, so the CoDel valve gets to act).
     */
    record Op(int kind, long advanceNs, long distanceNs, boolean cross)
    {
    }

    @Provide
    Arbitrary<ValveSpec> specs()
    {
        final Arbitrary<Integer> sizes = Arbitraries.integers().between(0, 6);
        final Arbitrary<Duration> intervals = uniformMillis(1, 500);
        final Arbitrary<Duration> targets = uniformMillis(-100, 200);
        final Arbitrary<ValveSpec> open = sizes.map(OpenValveSpec::new);
        final Arbitrary<ValveSpec> rate =
            Combinators.combine(Arbitraries.integers().between(1, 5), intervals, sizes).as(RateValveSpec::new);
        final Arbitrary<ValveSpec> relative = Combinators.combine(targets, sizes, sizes)
            .as((target, a, b) -> new RelativeValveSpec(target, Math.min(a, b), Math.max(a, b)));
        final Arbitrary<ValveSpec> codel = Combinators.combine(targets, intervals, sizes, sizes)
            .as((target, interval, a, b) -> new CodelValveSpec(target, interval, Math.min(a, b), Math.max(a, b)));
        return Arbitraries.oneOf(open, rate, relative, codel);
    }

    private static Arbitrary<Duration> uniformMillis(final long least, final long most)
    {
        return uniform(least, most).map(Duration::ofMillis);
    }

    private static Arbitrary<Long> uniform(final long least, final long most)
    {
        // jqwik's default distribution favours small values: the clock would hardly move
        return Arbitraries.longs().between(least, most).withDistribution(RandomDistribution.uniform());
    }

    @Provide
    Arbitrary<List<Op>> operations()
    {
        final Arbitrary<Op> op = Combinators.combine(
            // tryOpen 35 %, close 15 %, keep 25 %, update 25 %
            uniform(0, 19).map(n -> n < 7 ? 0 : n < 10 ? 1 : n < 15 ? 2 : 3),
            Arbitraries.oneOf(Arbitraries.just(0L), uniform(0, 20 * MS), uniform(0, 400 * MS)),
            uniform(0, 300 * MS),
            // runs of about 20 steps on one side of the target
            uniform(0, 19).map(n -> n == 0)).as(Op::new);
        return op.list().ofMinSize(20).ofMaxSize(200);
    }

    // the ranges are small, so plain random generation reaches the boundaries (max 0, held above max); jqwik's
    // edge cases would mostly be one-step sequences that exercise nothing
    @Property(tries = 1000, edgeCases = EdgeCasesMode.NONE)
    void theSizeIsExactAndStaysWithinBounds(
        @ForAll("specs") final ValveSpec spec,
        @ForAll @IntRange(min = 0, max = 99) final int heldSeed,
        @ForAll final boolean startBelow,
        @ForAll("operations") final List<Op> ops)
    {
        final int max = maxOf(spec);
        // mostly at most max; sometimes above, as after a reconfiguration to a smaller max
        final int held = heldSeed % (max + 3);
        final Valve valve = spec.newValve(held);
        final int min = minOf(spec);
        final long targetNs = targetOf(spec);
        boolean below = startBelow;
        final int ceiling = Math.max(max, held);
        final ArrayDeque<Long> opens = new ArrayDeque<>();
        long nowNs = -1_000 * MS;
        int expected = held;
        long spurious = 0;
        long granted = 0;
        long grownAboveMin = 0;
        long shrunkWithinMax = 0;
        long refusedBelowMax = 0;
        for (final Op op : ops)
        {
            nowNs += op.advanceNs();
            below ^= op.cross();
            final int before = valve.size();
            switch (op.kind())
            {
                case 0 ->
                {
                    if (valve.tryOpen(nowNs))
                    {
                        assertThat(before).as("opened at or above max %d: %s", max, valve).isLessThan(max);
                        expected++;
                        granted++;
                        grownAboveMin += before >= min ? 1 : 0;
                        opens.addLast(nowNs);
                    }
                    else if (before < max)
                    {
                        refusedBelowMax++;
                    }
                }
                case 1 ->
                {
                    valve.close(nowNs);
                    if (before == 0)
                    {
                        spurious++;
                    }
                    else
                    {
                        expected--;
                    }
                }
                case 2 ->
                {
                    if (valve.keep(nowNs))
                    {
                        assertThat(before).as("kept with no slot held").isPositive();
                        assertThat(before).as("kept above max").isLessThanOrEqualTo(max);
                    }
                    else if (before == 0)
                    {
                        spurious++;
                    }
                    else
                    {
                        expected--;
                        shrunkWithinMax += before <= max ? 1 : 0;
                    }
                }
                default -> valve.update(below ? targetNs - 1 - op.distanceNs() : targetNs + op.distanceNs(), nowNs);
            }

            assertThat(valve.size()).as("size after %s: %s", op, valve).isEqualTo(expected)
                .isBetween(0, ceiling);
            assertThat(spuriousReleases(valve)).isEqualTo(spurious);
            final long nextOpenNs = valve.nextOpenNs(nowNs);
            if (nextOpenNs != Long.MAX_VALUE)
            {
                assertThat(nextOpenNs - nowNs).as("nextOpenNs in the future: %s", valve).isPositive();
            }
            if (spec instanceof RateValveSpec rate)
            {
                final long intervalNs = rate.interval().toNanos();
                final long now = nowNs;
                opens.removeIf(openNs -> now - openNs >= intervalNs);
                assertThat(opens.size()).as("opens in the window").isLessThanOrEqualTo(rate.limit());
            }
        }
        checkCoverage(spec, granted, grownAboveMin, shrunkWithinMax, refusedBelowMax);
    }

    /**
     * The generator must keep reaching the interesting states, or the checks of
     * {@link #theSizeIsExactAndStaysWithinBounds} would pass vacuously: collects what one try reached and states the
     * coverage the tries together must have.
     */
    private static void checkCoverage(final ValveSpec spec, final long granted, final long grownAboveMin,
        final long shrunkWithinMax, final long refusedBelowMax)
    {
        final String type = spec.getClass().getSimpleName();
        Statistics.label("opens").collect(granted == 0 ? "none" : "some");
        Statistics.label("growth above min").collect(type, grownAboveMin > 0);
        Statistics.label("shrink within max").collect(type, shrunkWithinMax > 0);
        Statistics.label("refused below max").collect(type, refusedBelowMax > 0);
        Statistics.label("opens").coverage(checker -> checker.check("some").percentage(p -> p > 60));
        Statistics.label("growth above min").coverage(checker ->
        {
            checker.check("RelativeValveSpec", true).count(n -> n >= 10);
            checker.check("CodelValveSpec", true).count(n -> n >= 10);
        });
        Statistics.label("refused below max")
            .coverage(checker -> checker.check("RateValveSpec", true).count(n -> n >= 10));
        Statistics.label("shrink within max").coverage(checker ->
        {
            checker.check("RelativeValveSpec", true).count(n -> n >= 10);
            checker.check("CodelValveSpec", true).count(n -> n >= 10);
        });
    }

    private static int maxOf(final ValveSpec spec)
    {
        if (spec instanceof OpenValveSpec open)
        {
            return open.max();
        }
        if (spec instanceof RateValveSpec rate)
        {
            return rate.max();
        }
        if (spec instanceof RelativeValveSpec relative)
        {
            return relative.max();
        }
        return ((CodelValveSpec)spec).max();
    }

    private static int minOf(final ValveSpec spec)
    {
        if (spec instanceof RelativeValveSpec relative)
        {
            return relative.min();
        }
        if (spec instanceof CodelValveSpec codel)
        {
            return codel.min();
        }
        return 0;
    }

    private static long targetOf(final ValveSpec spec)
    {
        if (spec instanceof RelativeValveSpec relative)
        {
            return relative.target().toNanos();
        }
        if (spec instanceof CodelValveSpec codel)
        {
            return codel.target().toNanos();
        }
        return 0;
    }

    private static long spuriousReleases(final Valve valve)
    {
        if (valve instanceof OpenValve open)
        {
            return open.spuriousReleases();
        }
        if (valve instanceof RateValve rate)
        {
            return rate.spuriousReleases();
        }
        if (valve instanceof RelativeValve relative)
        {
            return relative.spuriousReleases();
        }
        return ((CodelValve)valve).spuriousReleases();
    }
}
