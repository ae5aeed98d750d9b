package io.troupe.bench;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * {@code membership.join}: the time from a joiner's start until every member sees it up. Three members in this
 * JVM (node 1 the voter; {@link MembershipBench}); each of N joins launches a node process whose config has no
 * node id, only the seeds, and one sample is from just before the launch (the JVM's own start included) until all
 * three members list it as UP. The joiner then leaves (SIGTERM) and is gone from every table before the next join
 * starts. Figures: p50 and p99 of the samples, in milliseconds (target p50 &le; 2 s).
 *
 * <p>{@code --warmup} and {@code --seconds} do not apply: the work is a fixed count.
 */
final class MembershipJoinWorkload implements Workload
{
    private static final String JOINS = "joins";
    private static final long DEFAULT_JOINS = 20;

    @Override
    public String name()
    {
        return "membership.join";
    }

    @Override
    public List<String> options()
    {
        return List.of(JOINS);
    }

    @Override
    public String usage()
    {
        return "  membership.join [--joins N]      3 members in this JVM; a node process with only the seeds\n" +
            "                                 joins, N times (default 20): from its launch until all 3 see it\n" +
            "                                 up; p50/p99 ms";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final int joins = (int)options.count(JOINS, DEFAULT_JOINS, 1, 1_000);
        final long[] samples = new long[joins];
        try (MembershipBench bench = MembershipBench.start())
        {
            for (int i = 0; i < joins; i++)
            {
                final long startNs = System.nanoTime();
                final MembershipBench.Joiner joiner = bench.launchJoiner();
                samples[i] = bench.awaitAll(table -> MembershipBench.up(table, joiner), "joiner " + (i + 1) + " up") -
                    startNs;
                Report.progress("join %d: %.0f ms", i + 1, samples[i] / 1e6);
                joiner.process().terminate();
                bench.awaitAll(table -> MembershipBench.gone(table, joiner), "joiner " + (i + 1) + " gone");
                joiner.process().awaitExit(Duration.ofSeconds(30));
            }
        }
        Arrays.sort(samples);
        Report.result("membership.join.p50", MembershipDownWorkload.percentile(samples, 0.50) / 1e6, "ms");
        Report.result("membership.join.p99", MembershipDownWorkload.percentile(samples, 0.99) / 1e6, "ms");
    }
}
