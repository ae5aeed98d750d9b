package io.troupe.bench;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ServiceId;
import io.troupe.actor.UndeliveredException;
import io.troupe.actor.UndeliveredReason;
import io.troupe.actor.CreditAccount;
import io.troupe.actor.FlowControlConfig;
import io.troupe.actor.PollingIngress;
import io.troupe.interconnect.IdleMode;
import io.troupe.memquota.MemoryQuotaConfig;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code flow.flood}: an unthrottled producer on node {@value RemoteNodes#DRIVER_NODE} floods a consumer on
 * node {@value RemoteNodes#PEER_NODE} (a child process) that can handle a tenth of the offered rate, with
 * credit accounts on and, for contrast, off.
 *
 * <p>Each mode runs on fresh nodes: this process's actor system and a new child ({@code remote.peer}), both
 * with flow control on or off and a memory quota of {@code --quota-mb} MiB. The child's {@link FloodConsumer}
 * lives on a memory-tracked mailbox; a {@link FloodMonitor} on another mailbox answers the driver. The
 * {@link FloodProducer} is an ingress with a source that never runs dry: it sends tracked {@link Chunk}s in
 * batches of {@value FloodProducer#BATCH} as fast as its thread allows, calling {@code ensureClearFunds} before
 * each batch (which always passes with flow control off).
 *
 * <p>The offered rate is measured first, unless {@code --consumer-ns} sets the consumer's service time: after
 * the warm-up, for {@code --calibrate} seconds, the consumer does no work and the figure is the chunks it
 * handles per second, i.e. what the producer gets through to it. The consumer's service time becomes ten times
 * the time per chunk at that rate, and both modes use it. After another warm-up at the new pace comes the
 * window ({@code --seconds}, default 60), then the producer stops and the driver waits until every chunk sent
 * is accounted for (handled by the consumer or reported undelivered to the producer) or nothing changes for
 * {@value #DRAIN_QUIET_S} s. Lost chunks are those never accounted for.
 */
final class FlowFloodWorkload implements Workload
{
    private static final String ACCOUNTS = "accounts";
    private static final String CONSUMER_NS = "consumer-ns";
    private static final String CALIBRATE = "calibrate";
    private static final String QUOTA_MB = "quota-mb";
    private static final List<String> ACCOUNTS_CHOICES = List.of("both", "on", "off");
    private static final double DEFAULT_SECONDS = 60;
    private static final long DEFAULT_CALIBRATE_S = 3;
    private static final long MAX_CALIBRATE_S = 600;
    private static final long DEFAULT_QUOTA_MB = 64;
    private static final long MAX_QUOTA_MB = 1L << 20;
    private static final long MAX_CONSUMER_NS = TimeUnit.SECONDS.toNanos(1);
    /** The consumer handles this fraction of the offered rate: one in ten. */
    private static final long SLOWDOWN = 10;
    private static final long PROGRESS_NS = TimeUnit.SECONDS.toNanos(10);
    private static final long DRAIN_QUIET_S = 10;
    private static final long DRAIN_POLL_MS = 200;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration TALLY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(2);
    private static final long RETRY_MS = 1;

    @Override
    public String name()
    {
        return "flow.flood";
    }

    @Override
    public List<String> options()
    {
        return List.of(ACCOUNTS, CONSUMER_NS, CALIBRATE, QUOTA_MB, RemoteNodes.IDLE);
    }

    @Override
    public String usage()
    {
        return "  flow.flood [--accounts both|on|off] [--consumer-ns N] [--calibrate S] [--quota-mb M]\n" +
            "            [--idle backoff|spin]\n" +
            "                                 an unthrottled producer floods a consumer in a child node process " +
            "that\n" +
            "                                 handles a tenth of the offered rate (measured for --calibrate 3 s, or\n" +
            "                                 N ns per event), --seconds 60, with credit accounts on and off " +
            "(default\n" +
            "                                 both), a memory quota of M MiB per node (default 64); prints consumer\n" +
            "                                 utilisation, producer and consumer rates, peak heap, lost and " +
            "undelivered";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final String accounts = options.choice(ACCOUNTS, "both", ACCOUNTS_CHOICES);
        final Settings settings = new Settings(
            RemoteNodes.idle(options),
            options.threads(RemoteNodes.DEFAULT_THREADS),
            options.warmupNs(),
            options.measureNs(DEFAULT_SECONDS),
            TimeUnit.SECONDS.toNanos(options.count(CALIBRATE, DEFAULT_CALIBRATE_S, 1, MAX_CALIBRATE_S)),
            options.count(QUOTA_MB, DEFAULT_QUOTA_MB, 1, MAX_QUOTA_MB));
        long serviceNs = options.has(CONSUMER_NS) ? options.count(CONSUMER_NS, 0, 0, MAX_CONSUMER_NS) : -1;
        Report.progress("flow.flood: accounts=%s idle=%s threads=%d per node warmup=%.1fs window=%.1fs quota=%d MiB " +
            "consumer=%s; max heap per process %d MiB", accounts, settings.idle, settings.threads,
            settings.warmupNs / 1e9, settings.measureNs / 1e9, settings.quotaMb,
            serviceNs < 0 ? "1/" + SLOWDOWN + " of the offered rate" : serviceNs + " ns per event",
            Runtime.getRuntime().maxMemory() >> 20);
        final List<Boolean> modes = new ArrayList<>();
        if (!accounts.equals("off"))
        {
            modes.add(true);
        }
        if (!accounts.equals("on"))
        {
            modes.add(false);
        }
        for (final boolean withAccounts : modes)
        {
            serviceNs = runMode(withAccounts, serviceNs, settings);
        }
    }

    /** Returns the consumer's service time it used, so that the next mode uses the same. */
    private static long runMode(final boolean withAccounts, final long givenServiceNs, final Settings settings)
        throws InterruptedException
    {
        final String prefix = withAccounts ? "flow.flood" : "flow.flood.no-accounts";
        final int port = RemoteNodes.freeUdpPort(0);
        final int peerPort = RemoteNodes.freeUdpPort(port);
        Report.progress("%s: credit accounts %s; node %d on %s:%d, node %d (child) on port %d", prefix,
            withAccounts ? "on" : "off", RemoteNodes.DRIVER_NODE, RemoteNodes.HOST, port, RemoteNodes.PEER_NODE,
            peerPort);
        HeapPeak.reset();
        final ActorSystem system = ActorSystem.start(BenchSystems.config(settings.threads, RemoteNodes.DRIVER_NODE)
            .flowControl(withAccounts ? new FlowControlConfig() : FlowControlConfig.disabled())
            .memoryQuota(MemoryQuotaConfig.of(settings.quotaMb << 20)));
        return RemoteNodes.runPair(system, port, peerPort, settings.idle, settings.threads, (interconnect, peer) ->
        {
            final Run run = new Run(system, peer, prefix);
            RemoteNodes.awaitAnswer(system, interconnect, peer, run.monitor, FloodTally.REQUEST,
                RemoteCodecs.FLOOD_TALLY_TYPE, CONNECT_TIMEOUT);
            final long serviceNs = run.flood(givenServiceNs, settings);
            RemoteNodes.reportHealth(interconnect);
            BenchSystems.reportHealth(system);
            return serviceNs;
        }, "--" + RemotePeerWorkload.ACCOUNTS, withAccounts ? "on" : "off",
            "--" + RemotePeerWorkload.QUOTA_MB, Long.toString(settings.quotaMb));
    }

    /** The options every mode shares. */
    private record Settings(IdleMode idle, int threads, long warmupNs, long measureNs, long calibrateNs, long quotaMb)
    {
    }

    /** One mode's run, on the driver's main thread. */
    private static final class Run
    {
        private final ActorSystem system;
        private final PeerProcess peer;
        private final String prefix;
        private final ActorId monitor = ServiceId.of(RemoteNodes.PEER_NODE, RemotePeerWorkload.FLOOD_MONITOR);
        private final CreditAccount account;
        private final FloodProducer producer;
        private long questionsShed;
        private long questionsUnanswered;

        Run(final ActorSystem system, final PeerProcess peer, final String prefix)
        {
            this.system = system;
            this.peer = peer;
            this.prefix = prefix;
            this.account = system.flow().openAccount();
            this.producer = new FloodProducer(account, ServiceId.of(RemoteNodes.PEER_NODE, RemotePeerWorkload.FLOOD));
        }

        long flood(final long givenServiceNs, final Settings settings) throws InterruptedException
        {
            final ActorId producerId = system.register(producer);
            system.send(producerId, PollingIngress.POLL, PollingIngress.POLL_TYPE, 0, 0L);
            TimeUnit.NANOSECONDS.sleep(settings.warmupNs);
            final long serviceNs = givenServiceNs >= 0 ? givenServiceNs : calibrate(settings.calibrateNs);
            ask(new FloodPace(serviceNs), RemoteCodecs.FLOOD_PACE_TYPE);
            HeapPeak.reset();
            Report.progress("  consumer pace: %d ns per event (at most %.0f events/s); settling for %.1f s", serviceNs,
                serviceNs == 0 ? Double.POSITIVE_INFINITY : 1e9 / serviceNs, settings.warmupNs / 1e9);
            TimeUnit.NANOSECONDS.sleep(settings.warmupNs);

            final FloodTally start = tally();
            final long sentAtStart = producer.sent();
            final long startNs = System.nanoTime();
            final long endNs = startNs + settings.measureNs;
            long nowNs = startNs;
            while (endNs - nowNs > 0)
            {
                TimeUnit.NANOSECONDS.sleep(Math.min(PROGRESS_NS, endNs - nowNs));
                nowNs = System.nanoTime();
                progress(tally(), (nowNs - startNs) / 1e9);
            }
            final FloodTally end = tally();
            final long sentAtEnd = producer.sent();
            final long windowNs = System.nanoTime() - startNs;
            producer.stop();
            final FloodTally drained = drain();

            final long childNs = end.atNs() - start.atNs();
            final double utilisation = (double)(end.busyNs() - start.busyNs()) / childNs;
            final double consumerRate = (end.received() - start.received()) * 1e9 / childNs;
            final double producerRate = (sentAtEnd - sentAtStart) * 1e9 / windowNs;
            final long peakHeap = Math.max(HeapPeak.peakBytes(), drained.peakHeapBytes());
            final long sent = producer.sent();
            final long undelivered = producer.undelivered();
            final long lost = sent - drained.received() - undelivered;
            final long collapsed = producer.undelivered(UndeliveredReason.COLLAPSED);
            final long shed = producer.undelivered(UndeliveredReason.SHED);
            final long disconnected = producer.undelivered(UndeliveredReason.DISCONNECTED);
            Report.progress("  %s: sent %d, handled %d, undelivered %d (collapsed %d, shed %d, disconnected %d, " +
                "other %d), lost %d; consumer mailbox collapsed %d times dropping %d; producer waited for funds %d " +
                "times; questions to the monitor shed %d times, unanswered %d times; peak heap driver %d MiB, child " +
                "%d MiB", prefix, sent, drained.received(), undelivered, collapsed, shed, disconnected,
                undelivered - collapsed - shed - disconnected,
                lost, drained.collapses(), drained.collapsedEvents(), account.waits(), questionsShed,
                questionsUnanswered, HeapPeak.peakBytes() >> 20, drained.peakHeapBytes() >> 20);
            Report.result(prefix + ".consumer-utilisation", utilisation, "fraction", 3);
            Report.result(prefix + ".producer-rate", producerRate, "msgs/s");
            Report.result(prefix + ".consumer-rate", consumerRate, "msgs/s");
            Report.result(prefix + ".peak-heap-bytes", peakHeap, "bytes", 0);
            Report.result(prefix + ".lost", lost, "events", 0);
            Report.result(prefix + ".undelivered", undelivered, "events", 0);
            return serviceNs;
        }

        /** The consumer does no work; returns ten times its time per event at the rate it then handles. */
        private long calibrate(final long calibrateNs) throws InterruptedException
        {
            ask(new FloodPace(0), RemoteCodecs.FLOOD_PACE_TYPE);
            final FloodTally start = tally();
            TimeUnit.NANOSECONDS.sleep(calibrateNs);
            final FloodTally end = tally();
            final long received = end.received() - start.received();
            if (received <= 0)
            {
                throw new IllegalStateException("the consumer handled nothing while calibrating: the flood stalled");
            }
            final double offeredRate = received * 1e9 / (end.atNs() - start.atNs());
            Report.progress("  offered rate: %.0f events/s reach a consumer that does no work", offeredRate);
            Report.result(prefix + ".offered-rate", offeredRate, "msgs/s");
            return Math.round(SLOWDOWN * 1e9 / offeredRate);
        }

        private void progress(final FloodTally tally, final double seconds)
        {
            final long sent = producer.sent();
            final long undelivered = producer.undelivered();
            Report.progress("  %5.1f s: sent %d, handled %d, undelivered %d, in flight or queued %d, account debt " +
                "%d, collapses %d, peak heap driver %d MiB child %d MiB", seconds, sent, tally.received(), undelivered,
                sent - tally.received() - undelivered, account.debt(), tally.collapses(), HeapPeak.peakBytes() >> 20,
                tally.peakHeapBytes() >> 20);
        }

        /** Waits until every chunk sent is handled or reported undelivered, or nothing changes for a while. */
        private FloodTally drain() throws InterruptedException
        {
            final long drainStartNs = System.nanoTime();
            FloodTally tally = tally();
            long accounted = tally.received() + producer.undelivered();
            long changedNs = System.nanoTime();
            while (accounted < producer.sent() &&
                System.nanoTime() - changedNs < TimeUnit.SECONDS.toNanos(DRAIN_QUIET_S))
            {
                TimeUnit.MILLISECONDS.sleep(DRAIN_POLL_MS);
                tally = tally();
                final long now = tally.received() + producer.undelivered();
                if (now != accounted)
                {
                    accounted = now;
                    changedNs = System.nanoTime();
                }
            }
            Report.progress("  drained in %.1f s: %d of %d chunks accounted for",
                (System.nanoTime() - drainStartNs) / 1e9, accounted, producer.sent());
            return tally;
        }

        private FloodTally tally() throws InterruptedException
        {
            return ask(FloodTally.REQUEST, RemoteCodecs.FLOOD_TALLY_TYPE);
        }

        /**
         * Asks the monitor. Without flow control the flood fills the outbound queues both ways (chunks to the
         * child, undelivered notices back), so a question or its answer may be shed like any event: a question
         * reported shed is asked again after {@value #RETRY_MS} ms, one unanswered for {@link #ATTEMPT_TIMEOUT}
         * at once, until {@link #TALLY_TIMEOUT} has passed. The retries are counted.
         */
        private FloodTally ask(final Object request, final int type) throws InterruptedException
        {
            final long deadlineNs = System.nanoTime() + TALLY_TIMEOUT.toNanos();
            while (true)
            {
                peer.checkAlive();
                try
                {
                    return (FloodTally)system.ask(monitor, request, type, ATTEMPT_TIMEOUT)
                        .get(2 * ATTEMPT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                }
                catch (final ExecutionException | TimeoutException ex)
                {
                    final boolean shed = ex.getCause() instanceof UndeliveredException undelivered &&
                        undelivered.undelivered().reason() == UndeliveredReason.SHED;
                    final boolean unanswered = ex instanceof TimeoutException ||
                        ex.getCause() instanceof TimeoutException;
                    if (!(shed || unanswered) || System.nanoTime() - deadlineNs > 0)
                    {
                        throw new IllegalStateException(monitor + " did not answer within " + TALLY_TIMEOUT, ex);
                    }
                    if (shed)
                    {
                        questionsShed++;
                        TimeUnit.MILLISECONDS.sleep(RETRY_MS);
                    }
                    else
                    {
                        questionsUnanswered++;
                    }
                }
            }
        }
    }
}
