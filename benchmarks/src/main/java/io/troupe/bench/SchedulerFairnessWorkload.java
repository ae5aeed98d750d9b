package io.troupe.bench;

import io.troupe.actor.ServiceId;
import io.troupe.interconnect.scheduler.Channel;
import io.troupe.interconnect.scheduler.Offer;
import io.troupe.interconnect.scheduler.PeerScheduler;
import io.troupe.interconnect.scheduler.Priority;
import io.troupe.interconnect.scheduler.Receiver;
import io.troupe.interconnect.scheduler.RequestFailure;
import io.troupe.interconnect.scheduler.SchedulerConfig;
import io.troupe.interconnect.scheduler.SchedulerCounters.Counter;
import io.troupe.interconnect.scheduler.Sender;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code scheduler.fairness}: {@code --senders} senders (default 8) of equal demand share a {@link PeerScheduler} on
 * node 1 whose node-wide cap ({@code --cap}, default 8 requests in flight, with 8 channels on each of the two echo
 * peers) is a tenth of what they want together: each wants {@code 10 x cap / senders} requests out at all times and
 * schedules itself whenever it has fewer. After the warm-up, the requests each completes in {@code --seconds} give
 * Jain's fairness index, {@code (sum x)^2 / (n sum x^2)} (1 is perfectly even; target 0.95 or more), and the
 * scheduler's in-flight peak, which must never exceed the cap.
 */
final class SchedulerFairnessWorkload implements Workload
{
    private static final String SENDERS = "senders";
    private static final String CAP = "cap";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Override
    public String name()
    {
        return "scheduler.fairness";
    }

    @Override
    public List<String> options()
    {
        return List.of(SENDERS, CAP);
    }

    @Override
    public String usage()
    {
        return "  scheduler.fairness [--senders N] [--cap C]\n" +
            "                                 N equal senders (default 8) wanting 10x the node-wide cap C (default " +
            "8)\n" +
            "                                 of two in-process echo peers; prints Jain's index of their completed\n" +
            "                                 requests over --seconds (default 5) and the in-flight peak";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final int senders = (int)options.count(SENDERS, 8, 1, 10_000);
        final int cap = (int)options.count(CAP, 8, 1, 100_000);
        final long measureNs = options.measureNs(5);
        final int demand = Math.max(1, 10 * cap / senders);
        Report.progress("scheduler.fairness: %d senders wanting %d each out, node-wide cap %d, %.1f s", senders, demand,
            cap, measureNs / 1e9);
        try (SchedulerNodes nodes = new SchedulerNodes())
        {
            final PeerScheduler scheduler = PeerScheduler.start(nodes.system(),
                new SchedulerConfig().channelsPerPeer(8).maxInFlight(cap), SchedulerNodes.PEERS);
            final DemandingSender[] all = new DemandingSender[senders];
            for (int i = 0; i < senders; i++)
            {
                all[i] = new DemandingSender(scheduler, demand);
                scheduler.schedule(all[i], Priority.NORMAL);
            }
            Thread.sleep(options.warmupNs() / 1_000_000);
            final long[] before = new long[senders];
            for (int i = 0; i < senders; i++)
            {
                before[i] = all[i].completed.get();
            }
            Thread.sleep(measureNs / 1_000_000);
            double sum = 0;
            double squares = 0;
            long least = Long.MAX_VALUE;
            long most = 0;
            for (int i = 0; i < senders; i++)
            {
                final long count = all[i].completed.get() - before[i];
                sum += count;
                squares += (double)count * count;
                least = Math.min(least, count);
                most = Math.max(most, count);
            }
            final long peak = scheduler.counters().get(Counter.IN_FLIGHT_PEAK);
            Report.progress("  completed per sender: min %d max %d, total %.0f (%.0f/s); %s", least, most, sum,
                sum * 1e9 / measureNs, scheduler.counters());
            scheduler.stop().join();
            Report.result("scheduler.fairness.jain", sum * sum / (senders * squares), "index", 4);
            Report.result("scheduler.fairness.requests", sum * 1e9 / measureNs, "requests/s");
            Report.result("scheduler.fairness.in_flight_peak", peak, "requests");
            Report.result("scheduler.fairness.cap", cap, "requests");
            if (peak > cap)
            {
                throw new IllegalStateException("the in-flight peak " + peak + " exceeded the cap " + cap);
            }
        }
    }

    /** Wants {@code demand} requests out at all times; schedules itself whenever it has fewer and is not waiting. */
    private static final class DemandingSender implements Sender, Receiver
    {
        final AtomicLong completed = new AtomicLong();
        final PeerScheduler scheduler;
        final int demand;
        int out;
        boolean waiting = true;
        long done;

        DemandingSender(final PeerScheduler scheduler, final int demand)
        {
            this.scheduler = scheduler;
            this.demand = demand;
        }

        @Override
        public void onOffer(final Offer offer)
        {
            final int before = out;
            for (final Channel channel : offer.channels())
            {
                if (offer.remaining() == 0 || out >= demand)
                {
                    break;
                }
                offer.request(channel, ServiceId.of(channel.nodeId(), SchedulerNodes.ECHO), new Ping(done), TIMEOUT,
                    this);
                out++;
            }
            if (out > before)
            {
                waiting = false; // it sent: it leaves the queue
                again();
            }
        }

        @Override
        public void onSuccess(final long requestId, final Object response)
        {
            out--;
            completed.lazySet(++done);
            again();
        }

        @Override
        public void onFailure(final long requestId, final RequestFailure reason)
        {
            out--;
            again();
        }

        private void again()
        {
            if (!waiting && out < demand)
            {
                waiting = true;
                scheduler.schedule(this, Priority.NORMAL);
            }
        }
    }
}
