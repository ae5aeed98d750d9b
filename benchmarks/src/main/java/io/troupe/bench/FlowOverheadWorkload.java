package io.troupe.bench;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.Envelope;
import io.troupe.actor.flow.CreditAccount;
import io.troupe.actor.flow.FlowControlConfig;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * {@code flow.overhead}: what credit accounting costs on local ping-pong. The {@code local.pingpong} workload
 * (N pairs bouncing one event each) runs with flow control on and off, alternately on fresh actor systems,
 * {@code --rounds} times each; the medians are reported. With flow control on, each pair's first ball is
 * charged to an account of its own, as an external source's would be, and every bounce is charged to that
 * account and repaid; off, nothing is charged.
 */
final class FlowOverheadWorkload implements Workload
{
    private static final String PAIRS = "pairs";
    private static final String ROUNDS = "rounds";
    private static final int DEFAULT_PAIRS = 1;
    private static final int MAX_PAIRS = 100_000;
    private static final int DEFAULT_ROUNDS = 3;
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
        return List.of(PAIRS, ROUNDS);
    }

    @Override
    public String usage()
    {
        return "  flow.overhead [--pairs N] [--rounds R]\n" +
            "                                 local ping-pong of N pairs (default 1) with credit accounts on and off,\n" +
            "                                 alternately, R rounds each (default 3), --seconds 5 each; prints the\n" +
            "                                 median events handled per second of each";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final int pairs = (int)options.count(PAIRS, DEFAULT_PAIRS, 1, MAX_PAIRS);
        final int rounds = (int)options.count(ROUNDS, DEFAULT_ROUNDS, 1, MAX_ROUNDS);
        final int threads = options.threads();
        final long warmupNs = options.warmupNs();
        final long measureNs = options.measureNs(DEFAULT_SECONDS);
        Report.progress("flow.overhead: pairs=%d rounds=%d threads=%d warmup=%.1fs window=%.1fs",
            pairs, rounds, threads, warmupNs / 1e9, measureNs / 1e9);
        final double[] on = new double[rounds];
        final double[] off = new double[rounds];
        for (int round = 0; round < rounds; round++)
        {
            on[round] = measure(true, pairs, threads, warmupNs, measureNs);
            off[round] = measure(false, pairs, threads, warmupNs, measureNs);
            Report.progress("  round %d: on %.0f, off %.0f msgs/s", round + 1, on[round], off[round]);
        }
        final double medianOn = median(on);
        final double medianOff = median(off);
        Report.progress("  cost of accounting: %.1f%% of the throughput", 100.0 * (medianOff - medianOn) / medianOff);
        Report.result("flow.overhead.on", medianOn, "msgs/s");
        Report.result("flow.overhead.off", medianOff, "msgs/s");
    }

    private static double measure(
        final boolean flowOn, final int pairs, final int threads, final long warmupNs, final long measureNs)
        throws InterruptedException
    {
        final ActorSystem system = ActorSystem.start(BenchSystems.config(threads, 1)
            .flowControl(flowOn ? new FlowControlConfig() : FlowControlConfig.disabled()));
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
                system.send(ball);
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
