package io.troupe.bench;

import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.EventTypes;
import io.troupe.actor.ServiceId;
import io.troupe.interconnect.scheduler.Channel;
import io.troupe.interconnect.scheduler.Offer;
import io.troupe.interconnect.scheduler.PeerScheduler;
import io.troupe.interconnect.scheduler.Priority;
import io.troupe.interconnect.scheduler.Receiver;
import io.troupe.interconnect.scheduler.RequestFailure;
import io.troupe.interconnect.scheduler.SchedulerConfig;
import io.troupe.interconnect.scheduler.Sender;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code scheduler.throughput}: requests per second from node 1 to the echo services of nodes 2 and 3 (three nodes in
 * this process, {@link SchedulerNodes}) with the same number in flight two ways, alternately in each of
 * {@code --rounds} rounds of {@code --seconds} after one warm-up of each: <b>direct</b>, an actor that keeps
 * {@code 2 x --channels} tracked requests out (half to each peer) and sends the next one as each reply comes; and
 * <b>scheduled</b>, one greedy {@link Sender} of a {@link PeerScheduler} ({@code --channels} per peer, cap
 * {@code 2 x --channels}) that sends on every channel it is offered and schedules itself again. Prints the medians
 * and scheduled / direct (target: 0.8 or more).
 */
final class SchedulerThroughputWorkload implements Workload
{
    private static final String CHANNELS = "channels";
    private static final String ROUNDS = "rounds";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Override
    public String name()
    {
        return "scheduler.throughput";
    }

    @Override
    public List<String> options()
    {
        return List.of(CHANNELS, ROUNDS);
    }

    @Override
    public String usage()
    {
        return "  scheduler.throughput [--channels N] [--rounds R]\n" +
            "                                 requests/s to two in-process peers' echo, direct asks vs. through the\n" +
            "                                 peer scheduler, N channels per peer (default 8), R alternating rounds\n" +
            "                                 (default 5) of --seconds (default 3)";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final int channels = (int)options.count(CHANNELS, 8, 1, 4096);
        final int rounds = (int)options.count(ROUNDS, 5, 1, 1000);
        final long measureNs = options.measureNs(3);
        final long warmupNs = options.warmupNs();
        Report.progress("scheduler.throughput: 3 nodes in this process, %d channels per peer, %d rounds of %.1f s",
            channels, rounds, measureNs / 1e9);
        final double[] direct = new double[rounds];
        final double[] scheduled = new double[rounds];
        try (SchedulerNodes nodes = new SchedulerNodes())
        {
            final PeerScheduler scheduler = PeerScheduler.start(nodes.system(),
                new SchedulerConfig().channelsPerPeer(channels).maxInFlight(2 * channels), SchedulerNodes.PEERS);
            measureDirect(nodes, channels, warmupNs);
            measureScheduled(nodes, scheduler, warmupNs);
            for (int round = 0; round < rounds; round++)
            {
                direct[round] = measureDirect(nodes, channels, measureNs);
                scheduled[round] = measureScheduled(nodes, scheduler, measureNs);
                Report.progress("  round %d: direct %.0f/s, scheduled %.0f/s", round + 1, direct[round],
                    scheduled[round]);
            }
            Report.progress("  scheduler: %s", scheduler.counters());
            scheduler.stop().join();
        }
        final double directMedian = median(direct);
        final double scheduledMedian = median(scheduled);
        Report.result("scheduler.throughput.direct", directMedian, "requests/s");
        Report.result("scheduler.throughput.scheduled", scheduledMedian, "requests/s");
        Report.result("scheduler.throughput.ratio", scheduledMedian / directMedian, "ratio", 3);
    }

    private static double median(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double measureDirect(final SchedulerNodes nodes, final int channels, final long ns)
        throws InterruptedException
    {
        final DirectAsker asker = new DirectAsker(2 * channels);
        final ActorId id = nodes.system().register(asker);
        nodes.system().send(id, DirectAsker.START);
        return rate(asker.completed, ns, () -> asker.stopped = true);
    }

    private static double measureScheduled(final SchedulerNodes nodes, final PeerScheduler scheduler, final long ns)
        throws InterruptedException
    {
        final GreedySender sender = new GreedySender(scheduler);
        scheduler.schedule(sender, Priority.NORMAL);
        final double rate = rate(sender.completed, ns, () -> sender.stopped = true);
        scheduler.withdraw((Sender)sender).join();
        return rate;
    }

    /** Completions per second over {@code ns}, after which {@code stop} runs and the requests out drain. */
    private static double rate(final AtomicLong completed, final long ns, final Runnable stop)
        throws InterruptedException
    {
        Thread.sleep(100); // the window fills
        final long before = completed.get();
        final long start = System.nanoTime();
        Thread.sleep(ns / 1_000_000, (int)(ns % 1_000_000));
        final long count = completed.get() - before;
        final double rate = count * 1e9 / (System.nanoTime() - start);
        stop.run();
        Thread.sleep(200); // what is out comes back
        return rate;
    }

    /** Keeps a fixed number of tracked requests out to the two peers' echo, half to each. */
    private static final class DirectAsker implements Behavior
    {
        static final Object START = new Object();
        final AtomicLong completed = new AtomicLong();
        final int window;
        volatile boolean stopped;
        long done;

        DirectAsker(final int window)
        {
            this.window = window;
        }

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            if (envelope.event() == START)
            {
                for (int i = 0; i < window; i++)
                {
                    ask(ctx, SchedulerNodes.PEERS[i % 2], i + 1);
                }
                return;
            }
            if (envelope.event() instanceof Ping)
            {
                completed.lazySet(++done);
                if (!stopped)
                {
                    ask(ctx, envelope.sender().nodeId(), envelope.cookie());
                }
            }
        }

        private static void ask(final ActorContext ctx, final int node, final long cookie)
        {
            ctx.send(ServiceId.of(node, SchedulerNodes.ECHO), new Ping(cookie), EventTypes.BY_CLASS,
                Envelope.FLAG_TRACK_DELIVERY, cookie);
        }
    }

    /** Sends on every channel it is offered and schedules itself again; counts responses. */
    private static final class GreedySender implements Sender, Receiver
    {
        final AtomicLong completed = new AtomicLong();
        final PeerScheduler scheduler;
        volatile boolean stopped;
        long done;

        GreedySender(final PeerScheduler scheduler)
        {
            this.scheduler = scheduler;
        }

        @Override
        public void onOffer(final Offer offer)
        {
            if (stopped)
            {
                return;
            }
            for (final Channel channel : offer.channels())
            {
                if (offer.remaining() == 0)
                {
                    break;
                }
                offer.request(channel, ServiceId.of(channel.nodeId(), SchedulerNodes.ECHO), new Ping(done), TIMEOUT,
                    this);
            }
            scheduler.schedule(this, Priority.NORMAL);
        }

        @Override
        public void onSuccess(final long requestId, final Object response)
        {
            completed.lazySet(++done);
        }

        @Override
        public void onFailure(final long requestId, final RequestFailure reason)
        {
            Report.progress("  a request failed: %s", reason);
        }
    }
}
