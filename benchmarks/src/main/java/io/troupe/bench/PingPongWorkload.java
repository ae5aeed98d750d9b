package io.troupe.bench;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.actor.ActorId;
import io.troupe.actor.ActorRef;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.Envelope;
import io.troupe.actor.PoolCounters;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code local.pingpong}: measures actor-to-actor messaging throughput when every send wakes an idle actor.
 *
 * <p>N pairs of actors, each registered with {@link ActorSystem#register(io.troupe.actor.Behavior)} (SIMPLE
 * mailbox, pool 0), bounce one shared immutable event back and forth, one in flight per pair. Each pair
 * starts with one event sent from outside whose sender is the partner. The figure is events handled per
 * second over the window after the warm-up, from the deltas of
 * {@link io.troupe.actor.SystemCounters#eventsHandled()} divided by the exact elapsed nanoseconds.
 */
final class PingPongWorkload implements Workload
{
    private static final String PAIRS = "pairs";
    /** Which API the players use: the untyped core, or the typed layer over it. */
    static final String API = "api";
    private static final int DEFAULT_PAIRS = 1;
    private static final int MAX_PAIRS = 1_000_000;

    @Override
    public String name()
    {
        return "local.pingpong";
    }

    @Override
    public List<String> options()
    {
        return List.of(PAIRS, API);
    }

    @Override
    public String usage()
    {
        return "  local.pingpong [--pairs N] [--api untyped|typed]\n" +
            "                                 N pairs of actors bouncing one event each, one in flight per pair\n" +
            "                                 (default 1); typed: TypedBehavior players sending through ActorRefs\n" +
            "                                 (the same figure name, to compare with ab.sh AB_HEAD_ARGS); prints " +
            "events\n" +
            "                                 handled per second";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final int pairs = (int)options.count(PAIRS, DEFAULT_PAIRS, 1, MAX_PAIRS);
        final int threads = options.threads();
        final long warmupNs = options.warmupNs();
        final long measureNs = options.measureNs();
        Report.progress("local.pingpong: pairs=%d threads=%d warmup=%.1fs window=%.1fs",
            pairs, threads, warmupNs / 1e9, measureNs / 1e9);

        final ActorSystem system = BenchSystems.start(threads);
        try
        {
            final boolean typed = "typed".equals(options.choice(API, "untyped", List.of("untyped", "typed")));
            for (int i = 0; i < pairs; i++)
            {
                if (typed)
                {
                    final TypedPlayer left = new TypedPlayer();
                    final TypedPlayer right = new TypedPlayer();
                    final ActorRef<String> a = system.spawn(String.class, left);
                    final ActorRef<String> b = system.spawn(String.class, right);
                    left.partner(b);
                    right.partner(a);
                    ActorSystemSpi.of(system).send(new Envelope(b.id(), a.id(), 0, 0, 0L, Player.BALL, null));
                    continue;
                }
                final ActorId a = system.register(new Player());
                final ActorId b = system.register(new Player());
                ActorSystemSpi.of(system).send(new Envelope(b, a, 0, 0, 0L, Player.BALL, null));
            }
            TimeUnit.NANOSECONDS.sleep(warmupNs);
            final ThreadCpu cpu = ThreadCpu.start();
            final long stealsAtStart = steals(system);
            final double eventsPerSecond = RateWindow.perSecond(() -> system.counters().eventsHandled(), 0, measureNs);
            Report.progress("  window: worker CPU ms %s; steals %d", cpu.perThreadMs("bench-"),
                steals(system) - stealsAtStart);
            BenchSystems.reportHealth(system);
            Report.result("local.pingpong.pairs" + pairs, eventsPerSecond, "msgs/s");
        }
        finally
        {
            // the balls never stop: do not wait for a drain that cannot happen
            system.shutdown(Duration.ZERO);
        }
    }

    private static long steals(final ActorSystem system)
    {
        long steals = 0;
        for (final PoolCounters pool : system.counters().pools())
        {
            steals += pool.steals();
        }
        return steals;
    }
}
