package io.troupe.bench;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.Envelope;
import io.troupe.actor.CreditAccount;
import io.troupe.actor.FlowControlConfig;
import io.troupe.actor.MailboxType;
import io.troupe.interconnect.IdleMode;

import java.time.Duration;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code flow.overhead}: what credit accounting costs, on each workload it can touch. A workload runs with flow
 * control on (the default {@code FlowControlConfig}) and off ({@code FlowControlConfig.disabled()}),
 * alternately on fresh actor systems (and, for {@code remote}, fresh child nodes), {@code --rounds} times each;
 * the medians and their ratio (on / off) are reported per workload.
 *
 * <ul>
 *   <li>{@code pingpong}, {@code pingpong4}: {@code local.pingpong} with 1 and 4 pairs (or {@code --pairs}).
 *       With flow control on, each pair's first ball is charged to an account of its own, as an external
 *       source's would be, and every bounce is charged to that account and repaid.</li>
 *   <li>{@code fanin}: {@code local.fanin}, 4 producer threads into one actor's revolving mailbox; their sends
 *       are outside any handler, so with flow control on they are charged to the node's account.</li>
 *   <li>{@code remote}: {@code remote.throughput}, both nodes on or both off.</li>
 * </ul>
 */
final class FlowOverheadWorkload implements Workload
{
    private static final String PAIRS = "pairs";
    private static final String ROUNDS = "rounds";
    private static final String WORKLOAD = "workload";
    private static final String JVM = "jvm";
    /** Internal: measure one side in this JVM and print it (what a child of {@code --jvm fresh} runs). */
    private static final String SIDE = "side";
    private static final String SIDE_RESULT = "flow.overhead.side";
    private static final List<String> WORKLOADS = List.of("pingpong", "pingpong4", "fanin", "remote");
    private static final int FANIN_PRODUCERS = 4;
    private static final int MAX_PAIRS = 100_000;
    private static final int DEFAULT_ROUNDS = 7;
    private static final int MAX_ROUNDS = 100;
    private static final double DEFAULT_SECONDS = 5;

    @Override
    public String name()
    {
        return "flow.overhead";
    }

    @Override
    public List<String> options()
    {
        return List.of(PAIRS, ROUNDS, WORKLOAD, RemoteNodes.IDLE, JVM, SIDE);
    }

    @Override
    public String usage()
    {
        return "  flow.overhead [--workload pingpong|pingpong4|fanin|remote|all] [--rounds R] [--pairs N]\n" +
            "                [--jvm fresh|shared]\n" +
            "                                 each workload (default all four) with credit accounts on and off,\n" +
            "                                 alternately, R rounds each (default 7), --seconds 5 each, each\n" +
            "                                 measurement in a JVM of its own (default; shared: all in this one);\n" +
            "                                 prints the medians and their ratio (on / off) per workload";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final int rounds = (int)options.count(ROUNDS, DEFAULT_ROUNDS, 1, MAX_ROUNDS);
        final String chosen = options.choice(WORKLOAD, "all",
            List.of("pingpong", "pingpong4", "fanin", "remote", "all"));
        final List<String> workloads = chosen.equals("all") ? WORKLOADS : List.of(chosen);
        final long warmupNs = options.warmupNs();
        final long measureNs = options.measureNs(DEFAULT_SECONDS);
        if (options.has(SIDE))
        {
            final boolean flowOn = options.choice(SIDE, "on", List.of("on", "off")).equals("on");
            Report.result(SIDE_RESULT, side(chosen, options, warmupNs, measureNs).measure(flowOn), "msgs/s");
            return;
        }
        final boolean fresh = options.choice(JVM, "fresh", List.of("fresh", "shared")).equals("fresh");
        for (final String workload : workloads)
        {
            final Side side = fresh ? inChildJvm(workload, options) : side(workload, options, warmupNs, measureNs);
            Report.progress("flow.overhead.%s: rounds=%d warmup=%.1fs window=%.1fs jvm=%s", workload, rounds,
                warmupNs / 1e9, measureNs / 1e9, fresh ? "fresh per measurement" : "shared");
            final double[] on = new double[rounds];
            final double[] off = new double[rounds];
            for (int round = 0; round < rounds; round++)
            {
                // alternate which side goes first, so that a drift of the machine favours neither
                if (round % 2 == 0)
                {
                    on[round] = side.measure(true);
                    off[round] = side.measure(false);
                }
                else
                {
                    off[round] = side.measure(false);
                    on[round] = side.measure(true);
                }
                Report.progress("  %s round %d: on %.0f, off %.0f msgs/s", workload, round + 1, on[round], off[round]);
            }
            final double medianOn = median(on);
            final double medianOff = median(off);
            Report.progress("  %s: cost of accounting %.1f%% of the throughput", workload,
                100.0 * (medianOff - medianOn) / medianOff);
            Report.result("flow.overhead." + workload + ".on", medianOn, "msgs/s");
            Report.result("flow.overhead." + workload + ".off", medianOff, "msgs/s");
            Report.result("flow.overhead." + workload + ".ratio", medianOn / medianOff, "ratio", 3);
        }
    }

    /** One measurement of a workload, with flow control on or off. */
    @FunctionalInterface
    private interface Side
    {
        double measure(boolean flowOn) throws InterruptedException;
    }

    private static Side side(final String workload, final Options options, final long warmupNs, final long measureNs)
    {
        switch (workload)
        {
            case "pingpong":
            case "pingpong4":
            {
                final int pairs = (int)options.count(PAIRS, workload.equals("pingpong") ? 1 : 4, 1, MAX_PAIRS);
                final int threads = options.threads();
                return flowOn -> measure(flowOn, pairs, threads, warmupNs, measureNs);
            }
            case "fanin":
            {
                final int threads = options.threads();
                return flowOn -> FanInWorkload.measure(BenchSystems.config(threads, 1).flowControl(flowConfig(flowOn)),
                    FANIN_PRODUCERS, MailboxType.REVOLVING, warmupNs, measureNs);
            }
            case "remote":
            {
                final int threads = options.threads(RemoteNodes.DEFAULT_THREADS);
                final IdleMode idle = RemoteNodes.idle(options);
                return flowOn -> RemoteThroughputWorkload.measure(flowOn, threads, idle, warmupNs, measureNs);
            }
            default:
                throw new UsageException("unknown flow.overhead workload " + workload);
        }
    }

    /**
     * A side measured in a JVM of its own, started with this JVM's flags: on and off then share no JIT profile, no
     * heap layout and no class state, which in one JVM made the ratio swing by more than accounts cost (0.80-1.02
     * between runs of one build).
     */
    private static Side inChildJvm(final String workload, final Options options)
    {
        return flowOn ->
        {
            final List<String> args = new ArrayList<>(List.of(
                "flow.overhead", "--" + WORKLOAD, workload, "--" + SIDE, flowOn ? "on" : "off"));
            args.addAll(options.passOn(List.of(PAIRS, RemoteNodes.IDLE, Options.WARMUP, Options.SECONDS,
                Options.THREADS)));
            final List<String> command = PeerProcess.javaCommand(args);
            return runChild(command);
        };
    }

    private static double runChild(final List<String> command) throws InterruptedException
    {
        final Process process;
        try
        {
            process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("could not start a JVM for one side of flow.overhead", ex);
        }
        final String prefix = "RESULT name=" + SIDE_RESULT + " value=";
        double value = Double.NaN;
        try (BufferedReader out =
            new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = out.readLine()) != null)
            {
                if (line.startsWith(prefix))
                {
                    value = Double.parseDouble(line.substring(prefix.length(), line.indexOf(' ', prefix.length())));
                }
            }
        }
        catch (final IOException ex)
        {
            process.destroyForcibly();
            throw new UncheckedIOException("could not read the result of one side of flow.overhead", ex);
        }
        final int exit = process.waitFor();
        if (exit != 0 || Double.isNaN(value))
        {
            throw new IllegalStateException("one side of flow.overhead failed (exit " + exit + "): " +
                String.join(" ", command));
        }
        return value;
    }

    private static FlowControlConfig flowConfig(final boolean flowOn)
    {
        return flowOn ? new FlowControlConfig() : FlowControlConfig.disabled();
    }

    private static double measure(
        final boolean flowOn, final int pairs, final int threads, final long warmupNs, final long measureNs)
        throws InterruptedException
    {
        final ActorSystem system = ActorSystem.start(BenchSystems.config(threads, 1)
            .flowControl(flowConfig(flowOn)));
        try
        {
            final CreditAccount[] sources = new CreditAccount[pairs];
            for (int i = 0; i < pairs; i++)
            {
                final ActorId a = system.register(new Player());
                final ActorId b = system.register(new Player());
                final Envelope ball = new Envelope(b, a, 0, 0, 0L, Player.BALL, null);
                sources[i] = system.flow().openAccount();
                if (flowOn)
                {
                    ball.chargeTo(sources[i], 1);
                }
                ActorSystemSpi.of(system).send(ball);
            }
            final double rate = RateWindow.perSecond(() -> system.counters().eventsHandled(), warmupNs, measureNs);
            BenchSystems.reportHealth(system);
            for (final CreditAccount source : sources)
            {
                // one ball in flight per pair, its cost passed from bounce to bounce
                if (source.debt() != (flowOn ? 1 : 0))
                {
                    throw new IllegalStateException("a pair's account shows " + source.debt() + " outstanding");
                }
            }
            return rate;
        }
        finally
        {
            system.shutdown(Duration.ZERO);
        }
    }

    private static double median(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
