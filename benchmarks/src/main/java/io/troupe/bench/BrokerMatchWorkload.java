package io.troupe.bench;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.broker.BrokerSpec;
import io.troupe.broker.Brokers;
import io.troupe.broker.DropQueueSpec;
import io.troupe.broker.Side;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;

/**
 * {@code broker.match}: how many matches per second one broker makes on one node when nothing else limits it.
 *
 * <p>One broker (both queues {@link DropQueueSpec#fifo(int)} with max {@value #QUEUE_MAX}, far above the
 * {@value #ACTORS_PER_SIDE} × window requests that can be outstanding on a side, so nothing is dropped; no
 * meters), {@value #ACTORS_PER_SIDE} client actors asking on {@link Side#ASK} and {@value #ACTORS_PER_SIDE}
 * worker actors asking on {@link Side#ASK_R}, all {@link MatchAsker}s registered with
 * {@link ActorSystem#register(io.troupe.actor.Behavior)}. Each keeps {@code --window} requests outstanding
 * (default {@value #DEFAULT_WINDOW}) and asks again as soon as an answer arrives; a worker serves instantly.
 * The figure is the clients' {@link io.troupe.broker.Go}s per second over the window after the warm-up: one
 * per match, the worker's Go of the same match is not counted.
 */
final class BrokerMatchWorkload implements Workload
{
    private static final String WINDOW = "window";
    private static final int DEFAULT_WINDOW = 8;
    private static final int MAX_WINDOW = 4096;
    private static final int ACTORS_PER_SIDE = 4;
    private static final int QUEUE_MAX = 1 << 20;
    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(10);

    @Override
    public String name()
    {
        return "broker.match";
    }

    @Override
    public List<String> options()
    {
        return List.of(WINDOW);
    }

    @Override
    public String usage()
    {
        return "  broker.match [--window N]      4 client and 4 worker actors, each keeping N requests at one " +
            "broker\n" +
            "                                 (default 8), asking again on every answer; prints matches per second";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final int window = (int)options.count(WINDOW, DEFAULT_WINDOW, 1, MAX_WINDOW);
        final int threads = options.threads();
        final long warmupNs = options.warmupNs();
        final long measureNs = options.measureNs();
        Report.progress("broker.match: clients=%d workers=%d window=%d threads=%d warmup=%.1fs window=%.1fs",
            ACTORS_PER_SIDE, ACTORS_PER_SIDE, window, threads, warmupNs / 1e9, measureNs / 1e9);

        final ActorSystem system = BenchSystems.start(threads);
        try
        {
            final ActorId broker = Brokers.start(system, BrokerSpec.of(DropQueueSpec.fifo(QUEUE_MAX)));
            final List<MatchAsker> clients = new ArrayList<>();
            final List<MatchAsker> workers = new ArrayList<>();
            final List<ActorId> ids = new ArrayList<>();
            for (int i = 0; i < ACTORS_PER_SIDE; i++)
            {
                final MatchAsker client = new MatchAsker(broker, Side.ASK, window);
                final MatchAsker worker = new MatchAsker(broker, Side.ASK_R, window);
                clients.add(client);
                workers.add(worker);
                ids.add(system.register(client));
                ids.add(system.register(worker));
            }
            for (final ActorId id : ids)
            {
                system.send(id, MatchAsker.START);
            }
            final double matchesPerSecond = RateWindow.perSecond(() -> sumGoes(clients), warmupNs, measureNs);
            Report.progress("  since the start: client goes=%d worker goes=%d drops=%d", sumGoes(clients),
                sumGoes(workers), sumDrops(clients) + sumDrops(workers));
            reportLengths(system, broker);
            BenchSystems.reportHealth(system);
            Report.result("broker.match", matchesPerSecond, "matches/s");
        }
        finally
        {
            // the requests never stop: do not wait for a drain that cannot happen
            system.shutdown(Duration.ZERO);
        }
    }

    private static long sumGoes(final List<MatchAsker> askers)
    {
        long sum = 0;
        for (final MatchAsker asker : askers)
        {
            sum += asker.goes();
        }
        return sum;
    }

    private static long sumDrops(final List<MatchAsker> askers)
    {
        long sum = 0;
        for (final MatchAsker asker : askers)
        {
            sum += asker.drops();
        }
        return sum;
    }

    private static void reportLengths(final ActorSystem system, final ActorId broker) throws InterruptedException
    {
        try
        {
            Report.progress("  broker queue lengths: %s", Brokers.lengths(system, broker, QUERY_TIMEOUT).get());
        }
        catch (final ExecutionException ex)
        {
            Report.progress("  broker queue lengths: unknown (%s)", ex.getCause());
        }
    }
}
