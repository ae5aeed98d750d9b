package io.troupe.bench;

import java.util.Arrays;
import java.util.List;

/**
 * Command-line entry of the benchmark jar:
 * {@code java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -jar troupe-benchmarks.jar <workload>
 * [--option value]...}. Runs one workload per JVM and prints each figure as one
 * {@code RESULT name=<name> value=<number> unit=<unit>} line on stdout; {@code jmh [args...]} hands the rest
 * of the command line to JMH. A bad command line prints the usage on stderr and exits with
 * {@value #EXIT_USAGE}.
 */
public final class Main
{
    /** Exit code for an unknown workload or option, or a bad option value. */
    static final int EXIT_USAGE = 2;

    private static final String JMH = "jmh";
    private static final List<Workload> WORKLOADS =
        List.of(new PingPongWorkload(), new FanInWorkload(), new SpawnWorkload(), new MemQuotaFloodWorkload(),
            new BrokerMatchWorkload(), new BrokerOverloadWorkload(), new RemoteThroughputWorkload(),
            new RemoteRttWorkload(), new RemotePeerWorkload(), new FlowOverheadWorkload(), new FlowFloodWorkload(),
            new RegistryConvergenceWorkload(), new ClientIngressWorkload(), new ClientAskRttWorkload(),
            new ClientFloodWorkload(), new ClientNodeWorkload(), new SchedulerThroughputWorkload(),
            new SchedulerFairnessWorkload(), new RawAeronWorkload(), new MembershipJoinWorkload(),
            new MembershipDownWorkload(), new MembershipScaleWorkload(), new WatchCostWorkload());

    private Main()
    {
    }

    /**
     * Runs a workload, or JMH.
     *
     * @param args the workload name followed by its options, or {@code jmh} followed by JMH's arguments.
     * @throws Exception if JMH fails, or the main thread is interrupted.
     */
    public static void main(final String[] args) throws Exception
    {
        if (args.length > 0 && JMH.equals(args[0]))
        {
            org.openjdk.jmh.Main.main(Arrays.copyOfRange(args, 1, args.length)); // name clash
            return;
        }
        System.exit(run(args));
    }

    private static int run(final String[] args) throws InterruptedException
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
            .append("usage: java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -jar troupe-benchmarks.jar")
            .append(" <workload> [--option value]...\n")
            .append("workloads:\n");
        for (final Workload workload : WORKLOADS)
        {
            text.append(workload.usage()).append('\n');
        }
        return text
            .append("  jmh [jmh args...]              JMH microbenchmarks, e.g. jmh MailboxBench -f 1 -wi 3 -i 5\n")
            .append("common options:\n")
            .append("  --warmup <seconds>             load before the measurement window (default 5)\n")
            .append("  --seconds <seconds>            length of the measurement window (default 10; 30 for " +
                "broker.overload)\n")
            .append("  --threads <n>                  executor pool threads (default 2; 1 per node for remote.*)\n")
            .append("output: one line per figure on stdout: RESULT name=<name> value=<number> unit=<unit>\n")
            .toString();
    }
}
