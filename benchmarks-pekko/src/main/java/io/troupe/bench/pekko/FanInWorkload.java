package io.troupe.bench.pekko;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code local.fanin}: how many messages one typed actor receives per second while many threads tell it at
 * once, the Pekko side of Troupe's workload of the same name.
 *
 * <p>N plain Java threads ({@link Producer}, not actors) tell one actor ({@link FanInSink}) as fast as they
 * can, in batches of {@value Producer#BATCH}, pausing while more than {@value Producer#MAX_UNPROCESSED} messages
 * are unprocessed. The figure is messages received per second over the window after the warm-up.
 */
final class FanInWorkload implements Workload
{
    /** Chosen default executor (benchmarks-pekko/README.md). */
    static final String DEFAULT_EXECUTOR = PekkoSystems.FORK_JOIN;
    /** Chosen default dispatcher throughput (benchmarks-pekko/README.md). */
    static final int DEFAULT_THROUGHPUT = 5;

    private static final String PRODUCERS = "producers";
    private static final int DEFAULT_PRODUCERS = 4;
    private static final int MAX_PRODUCERS = 1024;
    private static final int DEFAULT_THREADS = 2;
    private static final long START_TIMEOUT_S = 60;

    @Override
    public String name()
    {
        return "local.fanin";
    }

    @Override
    public List<String> options()
    {
        return List.of(PRODUCERS);
    }

    @Override
    public String usage()
    {
        return "  local.fanin [--producers N]    N plain threads telling one typed actor (default 4);\n" +
            "                                 prints messages received per second";
    }

    @Override
    public void run(final Options options) throws Exception
    {
        final int producers = (int)options.count(PRODUCERS, DEFAULT_PRODUCERS, 1, MAX_PRODUCERS);
        final PekkoSystems.Dispatcher dispatcher = options.dispatcher(DEFAULT_THREADS, DEFAULT_EXECUTOR,
            DEFAULT_THROUGHPUT);
        final long warmupNs = options.warmupNs();
        final long measureNs = options.measureNs();
        Report.progress("local.fanin (pekko): producers=%d %s warmup=%.1fs window=%.1fs",
            producers, dispatcher, warmupNs / 1e9, measureNs / 1e9);

        final FanInLedger ledger = new FanInLedger();
        final CompletableFuture<ActorRef<Object>> sink = new CompletableFuture<>();
        final AtomicBoolean running = new AtomicBoolean(true);
        final Thread[] senders = new Thread[producers];
        final ActorSystem<Void> system = PekkoSystems.start(guardian(ledger, sink),
            PekkoSystems.config(dispatcher, ""));
        try
        {
            final DeadLetterWatch undelivered = DeadLetterWatch.start(system);
            final ActorRef<Object> target = sink.get(START_TIMEOUT_S, TimeUnit.SECONDS);
            for (int i = 0; i < producers; i++)
            {
                senders[i] = new Thread(new Producer(target, ledger, running), "fanin-producer-" + i);
                senders[i].setDaemon(true);
                senders[i].start();
            }
            TimeUnit.NANOSECONDS.sleep(warmupNs);
            final ThreadCpu cpu = ThreadCpu.start();
            final long startCount = ledger.received();
            final long startNs = System.nanoTime();
            TimeUnit.NANOSECONDS.sleep(measureNs);
            final long endCount = ledger.received();
            final long endNs = System.nanoTime();
            final long received = Math.max(1, endCount - startCount);
            Report.progress("  window: %d received in %.3f s", endCount - startCount, (endNs - startNs) / 1e9);
            Report.progress("  cpu per message: producers %.1f ns, dispatcher threads %.1f ns",
                (double)cpu.usedNs("fanin-producer-") / received,
                (double)cpu.usedNs(PekkoSystems.DISPATCHER_THREADS) / received);
            running.set(false);
            for (final Thread sender : senders)
            {
                sender.join();
            }
            // let the receiver drain what is queued, so nothing is left to the shutdown
            final long drainDeadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ledger.unprocessed() > 0 && System.nanoTime() - drainDeadlineNs < 0)
            {
                TimeUnit.MILLISECONDS.sleep(1);
            }
            Report.progress("  sent=%d received=%d", ledger.sent(), ledger.received());
            undelivered.report("pekko");
            Report.result("local.fanin.producers" + producers, (endCount - startCount) * 1e9 / (endNs - startNs),
                "msgs/s");
        }
        finally
        {
            running.set(false);
            PekkoSystems.terminate(system);
        }
    }

    private static Behavior<Void> guardian(final FanInLedger ledger, final CompletableFuture<ActorRef<Object>> sink)
    {
        return Behaviors.setup(context ->
        {
            sink.complete(context.spawn(FanInSink.create(ledger), "sink"));
            return Behaviors.empty();
        });
    }
}
