package io.troupe.bench;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.mailbox.MailboxType;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code local.fanin}: measures how many events one actor receives per second while many threads send to it
 * at once, i.e. the contended send path and the mailbox's many-producer queue.
 *
 * <p>N plain Java threads (not actors) send to one actor as fast as they can, in batches of
 * {@value Producer#BATCH} {@link ActorSystem#send(ActorId, Object)} calls, pausing while more than
 * {@value Producer#MAX_UNPROCESSED} events are unprocessed. The actor's mailbox type is {@code --mailbox}
 * (default revolving, the type designed for many concurrent senders). The figure is events received per
 * second over the window after the warm-up.
 */
final class FanInWorkload implements Workload
{
    private static final String PRODUCERS = "producers";
    private static final String MAILBOX = "mailbox";
    private static final int DEFAULT_PRODUCERS = 4;
    private static final int MAX_PRODUCERS = 1024;
    private static final List<String> MAILBOX_CHOICES = List.of("simple", "revolving");

    @Override
    public String name()
    {
        return "local.fanin";
    }

    @Override
    public List<String> options()
    {
        return List.of(PRODUCERS, MAILBOX);
    }

    @Override
    public String usage()
    {
        return "  local.fanin [--producers N] [--mailbox simple|revolving]\n" +
            "                                 N plain threads sending to one actor (default 4, revolving mailbox);\n" +
            "                                 prints events received per second";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final int producers = (int)options.count(PRODUCERS, DEFAULT_PRODUCERS, 1, MAX_PRODUCERS);
        final MailboxType mailbox =
            MailboxType.valueOf(options.choice(MAILBOX, "revolving", MAILBOX_CHOICES).toUpperCase(Locale.ROOT));
        final int threads = options.threads();
        final long warmupNs = options.warmupNs();
        final long measureNs = options.measureNs();
        Report.progress("local.fanin: producers=%d mailbox=%s threads=%d warmup=%.1fs window=%.1fs",
            producers, mailbox, threads, warmupNs / 1e9, measureNs / 1e9);

        final FanInLedger ledger = new FanInLedger();
        final AtomicBoolean running = new AtomicBoolean(true);
        final Thread[] senders = new Thread[producers];
        try (ActorSystem system = BenchSystems.start(threads))
        {
            final ActorId target = system.register(new Sink(ledger), 0, mailbox);
            for (int i = 0; i < producers; i++)
            {
                senders[i] = new Thread(new Producer(system, target, ledger, running), "fanin-producer-" + i);
                senders[i].setDaemon(true);
                senders[i].start();
            }
            final double receivedPerSecond = RateWindow.perSecond(ledger::received, warmupNs, measureNs);
            running.set(false);
            for (final Thread sender : senders)
            {
                sender.join();
            }
            BenchSystems.reportHealth(system);
            Report.progress("  sent=%d received=%d", ledger.sent(), ledger.received());
            Report.result("local.fanin.producers" + producers, receivedPerSecond, "msgs/s");
        }
        finally
        {
            running.set(false);
        }
    }
}
