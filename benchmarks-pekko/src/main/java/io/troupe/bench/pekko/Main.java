package io.troupe.bench.pekko;

import java.util.List;

/**
 * Command-line entry of the Pekko benchmark jar:
 * {@code java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -jar pekko-benchmarks.jar <workload>
 * [--option value]...}. Runs one workload per JVM and prints each figure as one
 * {@code RESULT name=<name> value=<number> unit=<unit>} line on stdout, with the same workload names, options
 * and figure names as Troupe's {@code troupe-benchmarks.jar}. A bad command line prints the usage on stderr and
 * exits with {@value #EXIT_USAGE}.
 */
public final class Main
{
    /** Exit code for an unknown workload or option, or a bad option value. */
    static final int EXIT_USAGE = 2;
    /** Exit code for a run that failed. */
    static final int EXIT_FAILED = 1;

    private static final List<Workload> WORKLOADS = List.of(new PingPongWorkload(), new FanInWorkload(),
        new RemoteThroughputWorkload(), new RemoteRttWorkload(), new RemotePeerWorkload());

    private Main()
    {
    }

    /**
     * Runs a workload and exits.
     *
     * @param args the workload name followed by its options.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args));
    }

    private static int run(final String[] args)
    {
        if (args.length == 1 && ("--help".equals(args[0]) || "-h".equals(args[0])))
        {
            System.out.print(usage());
            return 0;
        }
        try
        {
            if (args.length == 0)
            {
                throw new UsageException("no workload given");
            }
            final Workload workload = find(args[0]);
            workload.run(Options.parse(args, 1, workload.options()));
            return 0;
        }
        catch (final UsageException ex)
        {
            System.err.println("error: " + ex.getMessage());
            System.err.print(usage());
            return EXIT_USAGE;
        }
        catch (final Exception ex)
        {
            System.err.println("error: the run failed");
            ex.printStackTrace();
            return EXIT_FAILED;
        }
    }

    private static Workload find(final String name)
    {
        for (final Workload workload : WORKLOADS)
        {
            if (workload.name().equals(name))
            {
                return workload;
            }
        }
        throw new UsageException("unknown workload '" + name + "'");
    }

    private static String usage()
    {
        final StringBuilder text = new StringBuilder()
            .append("usage: java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -jar pekko-benchmarks.jar")
            .append(" <workload> [--option value]...\n")
            .append("workloads (Apache Pekko typed; the same definitions as troupe-benchmarks.jar):\n");
        for (final Workload workload : WORKLOADS)
        {
            text.append(workload.usage()).append('\n');
        }
        return text
            .append("common options:\n")
            .append("  --warmup <seconds>             load before the measurement window (default 5)\n")
            .append("  --seconds <seconds>            length of the measurement window (default 10)\n")
            .append("  --threads <n>                  default dispatcher threads (default 2; 1 per node for " +
                "remote.*)\n")
            .append("  --executor fork-join|affinity  the default dispatcher's executor (default: the workload's " +
                "choice)\n")
            .append("  --dispatcher-throughput <n>    messages per actor before its thread moves on (default: the\n")
            .append("                                 workload's choice)\n")
            .append("  -Dpekko.<path>=<value>         (a JVM flag) overrides any Pekko setting; remote.* pass it to " +
                "the child\n")
            .append("output: one line per figure on stdout: RESULT name=<name> value=<number> unit=<unit>\n")
            .toString();
    }
}
