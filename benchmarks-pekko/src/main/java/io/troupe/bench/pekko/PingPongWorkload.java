package io.troupe.bench.pekko;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code local.pingpong}: actor-to-actor messaging throughput when every send wakes an idle actor, the Pekko
 * side of Troupe's workload of the same name.
 *
 * <p>N pairs of typed actors ({@link Player}) bounce one shared immutable message (a static final String) back
 * and forth, one in flight per pair. The user guardian spawns them, tells each its partner, and starts each pair
 * by sending the ball to its second player. Each player counts the balls it handles and publishes the count
 * ({@link HandledCounters}); the figure is the sum's delta over the window after the warm-up, divided by the
 * exact elapsed nanoseconds.
 */
final class PingPongWorkload implements Workload
{
    /** Chosen default executor (benchmarks-pekko/README.md). */
    static final String DEFAULT_EXECUTOR = PekkoSystems.FORK_JOIN;
    /** Chosen default dispatcher throughput (benchmarks-pekko/README.md). */
    static final int DEFAULT_THROUGHPUT = 5;

    private static final String PAIRS = "pairs";
    private static final int DEFAULT_PAIRS = 1;
    private static final int MAX_PAIRS = 1_000_000;
    private static final int DEFAULT_THREADS = 2;
    private static final long START_TIMEOUT_S = 60;
    private static final long STOP_TIMEOUT_S = 10;

    @Override
    public String name()
    {
        return "local.pingpong";
    }

    @Override
    public List<String> options()
    {
        return List.of(PAIRS);
    }

    @Override
    public String usage()
    {
        return "  local.pingpong [--pairs N]     N pairs of typed actors bouncing one message each, one in flight " +
            "per\n" +
            "                                 pair (default 1); prints messages handled per second";
    }

    @Override
    public void run(final Options options) throws Exception
    {
        final int pairs = (int)options.count(PAIRS, DEFAULT_PAIRS, 1, MAX_PAIRS);
        final PekkoSystems.Dispatcher dispatcher = options.dispatcher(DEFAULT_THREADS, DEFAULT_EXECUTOR,
            DEFAULT_THROUGHPUT);
        final long warmupNs = options.warmupNs();
        final long measureNs = options.measureNs();
        Report.progress("local.pingpong (pekko): pairs=%d %s warmup=%.1fs window=%.1fs",
            pairs, dispatcher, warmupNs / 1e9, measureNs / 1e9);

        final HandledCounters counters = new HandledCounters(2 * pairs);
        final CountDownLatch started = new CountDownLatch(1);
        final Queue<ActorRef<Object>> players = new ConcurrentLinkedQueue<>();
        final ActorSystem<Void> system =
            PekkoSystems.start(guardian(pairs, counters, players, started), PekkoSystems.config(dispatcher, ""));
        try
        {
            final DeadLetterWatch undelivered = DeadLetterWatch.start(system);
            if (!started.await(START_TIMEOUT_S, TimeUnit.SECONDS))
            {
                throw new IllegalStateException("the pairs did not start within " + START_TIMEOUT_S + " s");
            }
            TimeUnit.NANOSECONDS.sleep(warmupNs);
            final ThreadCpu cpu = ThreadCpu.start();
            final long startCount = counters.sum();
            final long startNs = System.nanoTime();
            TimeUnit.NANOSECONDS.sleep(measureNs);
            final long endCount = counters.sum();
            final long endNs = System.nanoTime();
            Report.progress("  window: %d messages in %.3f s; dispatcher threads' CPU ms %s", endCount - startCount,
                (endNs - startNs) / 1e9, cpu.perThreadMs(PekkoSystems.DISPATCHER_THREADS));
            undelivered.report("pekko");
            Report.result("local.pingpong.pairs" + pairs, (endCount - startCount) * 1e9 / (endNs - startNs), "msgs/s");
        }
        finally
        {
            stop(players, counters);
            PekkoSystems.terminate(system);
        }
    }

    /**
     * Stops the balls before the system terminates. While every dispatcher thread is busy with players, a
     * ForkJoinPool worker keeps running the tasks its own queue refills and never looks at tasks submitted from
     * outside the pool, such as the termination's: with as many busy pairs as threads the system would not
     * terminate. A {@link Player#STOP} told to each player lands in its mailbox, which is scheduled anyway.
     */
    private static void stop(final Queue<ActorRef<Object>> players, final HandledCounters counters)
        throws InterruptedException
    {
        for (final ActorRef<Object> player : players)
        {
            player.tell(Player.STOP);
        }
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_TIMEOUT_S);
        long last = -1;
        long now = counters.sum();
        while (now != last && System.nanoTime() - deadlineNs < 0)
        {
            TimeUnit.MILLISECONDS.sleep(20);
            last = now;
            now = counters.sum();
        }
    }

    private static Behavior<Void> guardian(final int pairs, final HandledCounters counters,
        final Queue<ActorRef<Object>> players, final CountDownLatch started)
    {
        return Behaviors.setup(context ->
        {
            for (int i = 0; i < pairs; i++)
            {
                final ActorRef<Object> a = context.spawn(Player.create(counters, 2 * i), "a" + i);
                final ActorRef<Object> b = context.spawn(Player.create(counters, 2 * i + 1), "b" + i);
                a.tell(new Player.Partner(b));
                b.tell(new Player.Partner(a));
                // b hears of a before the ball, and a of b before b's answer: same sender, in order
                b.tell(Player.BALL);
                players.add(a);
                players.add(b);
            }
            started.countDown();
            return Behaviors.empty();
        });
    }
}
