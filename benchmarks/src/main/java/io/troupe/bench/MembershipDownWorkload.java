package io.troupe.bench;

import java.util.Arrays;
import java.util.List;

/**
 * {@code membership.down}: the time from a kill -9 of a member until every member sees it downed. Three members in
 * this JVM (node 1 the voter; {@link MembershipBench}); for each of N rounds a node process joins with only the
 * seeds, and once all three list it as UP it is killed with SIGKILL; one sample is from just before the kill until
 * it is gone from all three tables. Figures: p50 and max of the samples, in milliseconds (target: at most the lease,
 * 10 s by default, plus 1 s).
 *
 * <p>{@code --warmup} and {@code --seconds} do not apply: the work is a fixed count.
 */
final class MembershipDownWorkload implements Workload
{
    private static final String DOWNS = "downs";
    private static final long DEFAULT_DOWNS = 10;

    @Override
    public String name()
    {
        return "membership.down";
    }

    @Override
    public List<String> options()
    {
        return List.of(DOWNS);
    }

    @Override
    public String usage()
    {
        return "  membership.down [--downs N]      3 members in this JVM; a joined node process is killed -9, N\n" +
            "                                 times (default 10): from the kill until all 3 see it downed;\n" +
            "                                 p50/max ms";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final int downs = (int)options.count(DOWNS, DEFAULT_DOWNS, 1, 1_000);
        final long[] samples = new long[downs];
        try (MembershipBench bench = MembershipBench.start())
        {
            Report.progress("lease %d ms", bench.lease().toMillis());
            for (int i = 0; i < downs; i++)
            {
                final MembershipBench.Joiner joiner = bench.launchJoiner();
                bench.awaitAll(table -> MembershipBench.up(table, joiner), "joiner " + (i + 1) + " up");
                final long killNs = System.nanoTime();
                joiner.process().kill();
                samples[i] = bench.awaitAll(table -> MembershipBench.gone(table, joiner),
                    "joiner " + (i + 1) + " downed") - killNs;
                Report.progress("down %d: %.0f ms", i + 1, samples[i] / 1e6);
            }
        }
        Arrays.sort(samples);
        Report.result("membership.down.p50", percentile(samples, 0.50) / 1e6, "ms");
        Report.result("membership.down.max", samples[samples.length - 1] / 1e6, "ms");
    }

    /**
     * A percentile of sorted samples (nearest rank).
     *
     * @param sorted   the samples, ascending.
     * @param fraction 0..1.
     * @return the sample.
     */
    static long percentile(final long[] sorted, final double fraction)
    {
        final int index = (int)Math.ceil(fraction * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
}
