package io.troupe.bench;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.broker.BrokerSpec;
import io.troupe.broker.Brokers;
import io.troupe.broker.CodelQueueSpec;
import io.troupe.broker.DropQueueSpec;
import io.troupe.broker.Lengths;
import io.troupe.broker.QueueSpec;
import io.troupe.broker.TimeoutQueueSpec;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code broker.overload}: how a broker's client queue policy copes when clients arrive at twice the workers'
 * capacity, open loop, for a long window.
 *
 * <p>One broker; its {@code ask} queue is a {@link TimeoutQueueSpec} (timeout {@value #TIMEOUT_MS} ms, FIFO,
 * unbounded) or a {@link CodelQueueSpec} ({@link CodelQueueSpec#defaults()}: target 100 ms, interval 1 s,
 * sojourn limit while dropping 200 ms, FIFO, unbounded; or, with {@code --queue codel-rfc}, the same without
 * the sojourn limit: plain RFC 8289), its {@code askR} queue a {@link DropQueueSpec#fifo(int)} that never fills; no
 * meters.
 * {@code --workers} {@link OverloadWorker}s (default {@value #DEFAULT_WORKERS}) each serve one client at a time
 * for {@code --service-ms} (default {@value #DEFAULT_SERVICE_MS}) on the actor system's timer, so the capacity
 * is workers / service time. An {@link ArrivalGenerator} thread sends Poisson arrivals at
 * {@code --load-percent} of that capacity (default {@value #DEFAULT_LOAD_PERCENT}) on behalf of
 * {@value #CLIENTS} {@link OverloadClient} actors in turn.
 *
 * <p>Outcomes count by when the answer is handled: only answers the clients handle within the window (after
 * {@code --warmup}, for {@code --seconds}, default {@value #DEFAULT_SECONDS}) count, whenever the request was
 * sent; a request still queued at the end of the window counts for nothing, and the load keeps running until
 * the window has closed. Worker busy time is the part of each service inside the window. With
 * {@code --queue both} (the default) the two policies run one after the other, each on a fresh actor system.
 */
final class BrokerOverloadWorkload implements Workload
{
    private static final String QUEUE = "queue";
    private static final String WORKERS = "workers";
    private static final String SERVICE_MS = "service-ms";
    private static final String LOAD_PERCENT = "load-percent";
    private static final String TIMEOUT = "timeout";
    private static final String CODEL = "codel";
    private static final String CODEL_RFC = "codel-rfc";
    private static final String BOTH = "both";
    private static final int DEFAULT_WORKERS = 4;
    private static final int MAX_WORKERS = 10_000;
    private static final int DEFAULT_SERVICE_MS = 10;
    private static final int MAX_SERVICE_MS = 60_000;
    private static final int DEFAULT_LOAD_PERCENT = 200;
    private static final int MAX_LOAD_PERCENT = 10_000;
    private static final double DEFAULT_SECONDS = 30;
    private static final long TIMEOUT_MS = 1000;
    private static final int CLIENTS = 4;
    /** The workers' queue: at most one request per worker is ever queued. */
    private static final int WORKER_QUEUE_MAX = 1 << 20;
    /** Time to register the actors before the arrivals start. */
    private static final long SETUP_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long SEED = 42;
    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(30);
    private static final double NANOS_PER_MS = 1e6;
    private static final int FRACTION_DECIMALS = 3;

    @Override
    public String name()
    {
        return "broker.overload";
    }

    @Override
    public List<String> options()
    {
        return List.of(QUEUE, WORKERS, SERVICE_MS, LOAD_PERCENT);
    }

    @Override
    public String usage()
    {
        return "  broker.overload [--queue timeout|codel|codel-rfc|both] [--workers N] [--service-ms T] " +
            "[--load-percent P]\n" +
            "                                 open-loop Poisson clients at P% (default 200) of the capacity of N " +
            "workers\n" +
            "                                 (default 4) serving T ms each (default 10), through a broker whose " +
            "client\n" +
            "                                 queue times out at 1 s or runs CoDel (100 ms, 1 s, limit 200 ms; " +
            "codel-rfc:\n" +
            "                                 no limit); default both (timeout and codel), one after the other;\n" +
            "                                 --seconds defaults to 30; prints the sojourn p50/p99 (ms)\n" +
            "                                 of requests that got Go, the fraction dropped and the worker utilisation";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final String queue = options.choice(QUEUE, BOTH, List.of(TIMEOUT, CODEL, CODEL_RFC, BOTH));
        final int workers = (int)options.count(WORKERS, DEFAULT_WORKERS, 1, MAX_WORKERS);
        final int serviceMs = (int)options.count(SERVICE_MS, DEFAULT_SERVICE_MS, 1, MAX_SERVICE_MS);
        final int loadPercent = (int)options.count(LOAD_PERCENT, DEFAULT_LOAD_PERCENT, 1, MAX_LOAD_PERCENT);
        final int threads = options.threads();
        final long warmupNs = options.warmupNs();
        final long measureNs = options.measureNs(DEFAULT_SECONDS);
        final double capacityPerSecond = workers * 1000.0 / serviceMs;
        final double arrivalsPerSecond = capacityPerSecond * loadPercent / 100.0;
        Report.progress("broker.overload: queue=%s workers=%d service=%d ms capacity=%.1f/s arrivals=%.1f/s (%d%%) " +
            "clients=%d threads=%d warmup=%.1fs window=%.1fs", queue, workers, serviceMs, capacityPerSecond,
            arrivalsPerSecond, loadPercent, CLIENTS, threads, warmupNs / 1e9, measureNs / 1e9);

        final Run run = new Run(workers, Duration.ofMillis(serviceMs), arrivalsPerSecond, threads, warmupNs, measureNs);
        if (TIMEOUT.equals(queue) || BOTH.equals(queue))
        {
            run.measure(TIMEOUT, TimeoutQueueSpec.of(Duration.ofMillis(TIMEOUT_MS)));
        }
        if (CODEL.equals(queue) || BOTH.equals(queue))
        {
            run.measure(CODEL, CodelQueueSpec.defaults());
        }
        if (CODEL_RFC.equals(queue))
        {
            run.measure(CODEL_RFC, CodelQueueSpec.defaults().withSojournLimit(CodelQueueSpec.NO_SOJOURN_LIMIT));
        }
    }

    /**
     * One measurement with given settings and a given client queue policy.
     *
     * @param workers           worker actors.
     * @param serviceTime       each service.
     * @param arrivalsPerSecond the clients' mean arrival rate.
     * @param threads           executor threads.
     * @param warmupNs          load before the window.
     * @param measureNs         the window.
     */
    private record Run(int workers, Duration serviceTime, double arrivalsPerSecond, int threads, long warmupNs,
        long measureNs)
    {
        void measure(final String label, final QueueSpec askSpec) throws InterruptedException
        {
            final String prefix = "broker.overload." + label;
            Report.progress("%s: ask queue %s", prefix, askSpec);
            final ActorSystem system = BenchSystems.start(threads);
            final AtomicBoolean running = new AtomicBoolean(true);
            Thread thread = null;
            try
            {
                final ActorId broker = Brokers.start(system,
                    new BrokerSpec(askSpec, DropQueueSpec.fifo(WORKER_QUEUE_MAX), List.of()));
                final long loadStartNs = System.nanoTime() + SETUP_NS;
                final long windowStartNs = loadStartNs + warmupNs;
                final long windowEndNs = windowStartNs + measureNs;
                final ActorId[] clients = new ActorId[CLIENTS];
                for (int i = 0; i < CLIENTS; i++)
                {
                    clients[i] = system.register(new OverloadClient(windowStartNs, windowEndNs));
                }
                final List<ActorId> workerIds = new ArrayList<>();
                for (int i = 0; i < workers; i++)
                {
                    final ActorId worker = system.register(
                        new OverloadWorker(broker, serviceTime, windowStartNs, windowEndNs));
                    workerIds.add(worker);
                    system.send(worker, OverloadWorker.START);
                }
                final ArrivalGenerator generator =
                    new ArrivalGenerator(system, broker, clients, arrivalsPerSecond, loadStartNs, SEED, running);
                thread = new Thread(generator, "overload-arrivals");
                thread.start();

                sleepUntil(windowStartNs);
                final long sentAtStart = generator.sent();
                final Lengths lengthsAtStart = lengths(system, broker);
                sleepUntil(windowEndNs);
                final long sentInWindow = generator.sent() - sentAtStart;
                final Lengths lengthsAtEnd = lengths(system, broker);
                report(prefix, system, clients, workerIds, sentInWindow, lengthsAtStart, lengthsAtEnd);
            }
            finally
            {
                running.set(false);
                if (thread != null)
                {
                    thread.join();
                }
                // queued requests are never answered: do not wait for a drain
                system.shutdown(Duration.ZERO);
            }
        }

        private void report(
            final String prefix,
            final ActorSystem system,
            final ActorId[] clients,
            final List<ActorId> workerIds,
            final long sentInWindow,
            final Lengths lengthsAtStart,
            final Lengths lengthsAtEnd) throws InterruptedException
        {
            final Histogram goSojournNs = new Histogram(OverloadClient.HIGHEST_NS, 3);
            long drops = 0;
            for (final ActorId client : clients)
            {
                final ClientTally tally = (ClientTally)query(system, client, OverloadClient.QUERY);
                goSojournNs.add(tally.goSojournNs());
                drops += tally.drops();
            }
            long busyNs = 0;
            long served = 0;
            long servedNs = 0;
            long workerDrops = 0;
            for (final ActorId worker : workerIds)
            {
                final WorkerTally tally = (WorkerTally)query(system, worker, OverloadWorker.QUERY);
                busyNs += tally.busyNs();
                served += tally.served();
                servedNs += tally.servedNs();
                workerDrops += tally.drops();
            }
            final long goes = goSojournNs.getTotalCount();
            final long answered = goes + drops;
            if (answered == 0)
            {
                throw new IllegalStateException(prefix + ": no answer reached a client in the window");
            }
            final double windowSeconds = measureNs / 1e9;
            Report.progress("  window: sent %d (%.1f/s), answered %d: go %d (%.1f/s), drop %d; workers served %d " +
                "(mean service %.3f ms), their own drops %d", sentInWindow, sentInWindow / windowSeconds, answered,
                goes, goes / windowSeconds, drops, served, served == 0 ? 0.0 : servedNs / (double)served / NANOS_PER_MS,
                workerDrops);
            Report.progress("  broker queue lengths (ask, askR): at the window's start %d, %d; at its end %d, %d",
                lengthsAtStart.ask(), lengthsAtStart.askR(), lengthsAtEnd.ask(), lengthsAtEnd.askR());
            Report.progress("  go sojourn ms: min=%.1f mean=%.1f p50=%.1f p90=%.1f p99=%.1f p99.9=%.1f max=%.1f",
                goSojournNs.getMinValue() / NANOS_PER_MS, goSojournNs.getMean() / NANOS_PER_MS,
                goSojournNs.getValueAtPercentile(50) / NANOS_PER_MS,
                goSojournNs.getValueAtPercentile(90) / NANOS_PER_MS,
                goSojournNs.getValueAtPercentile(99) / NANOS_PER_MS,
                goSojournNs.getValueAtPercentile(99.9) / NANOS_PER_MS, goSojournNs.getMaxValue() / NANOS_PER_MS);
            BenchSystems.reportHealth(system);
            Report.result(prefix + ".go-sojourn-p50", goSojournNs.getValueAtPercentile(50) / NANOS_PER_MS, "ms");
            Report.result(prefix + ".go-sojourn-p99", goSojournNs.getValueAtPercentile(99) / NANOS_PER_MS, "ms");
            Report.result(prefix + ".dropped", drops / (double)answered, "fraction", FRACTION_DECIMALS);
            Report.result(prefix + ".utilisation", busyNs / ((double)workers * measureNs), "fraction",
                FRACTION_DECIMALS);
        }
    }

    private static void sleepUntil(final long deadlineNs) throws InterruptedException
    {
        TimeUnit.NANOSECONDS.sleep(deadlineNs - System.nanoTime());
    }

    private static Lengths lengths(final ActorSystem system, final ActorId broker) throws InterruptedException
    {
        try
        {
            return Brokers.lengths(system, broker, QUERY_TIMEOUT).get();
        }
        catch (final ExecutionException ex)
        {
            throw new IllegalStateException("the broker did not tell its queue lengths", ex.getCause());
        }
    }

    private static Object query(final ActorSystem system, final ActorId actor, final Object question)
        throws InterruptedException
    {
        try
        {
            return system.ask(actor, question, QUERY_TIMEOUT).get();
        }
        catch (final ExecutionException ex)
        {
            throw new IllegalStateException("no tally from " + actor, ex.getCause());
        }
    }
}
