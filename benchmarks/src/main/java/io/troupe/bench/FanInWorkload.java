package io.troupe.bench;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.FlowControlConfig;
import io.troupe.actor.MailboxType;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
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
    private static final String ACCOUNTS = "accounts";
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
        return List.of(PRODUCERS, MAILBOX, ACCOUNTS);
    }

    @Override
    public String usage()
    {
        return "  local.fanin [--producers N] [--mailbox simple|revolving] [--accounts on|off]\n" +
            "                                 N plain threads sending to one actor (default 4, revolving mailbox,\n" +
            "                                 credit accounts on);\n" +
            "                                 prints events received per second";
    }

    @Override
    public void run(final Options options) throws InterruptedException
    {
        final int producers = (int)options.count(PRODUCERS, DEFAULT_PRODUCERS, 1, MAX_PRODUCERS);
        final MailboxType mailbox =
            MailboxType.valueOf(options.choice(MAILBOX, "revolving", MAILBOX_CHOICES).toUpperCase(Locale.ROOT));
        final boolean accounts = options.choice(ACCOUNTS, "on", List.of("on", "off")).equals("on");
        final int threads = options.threads();
        final long warmupNs = options.warmupNs();
        final long measureNs = options.measureNs();
        Report.progress("local.fanin: producers=%d mailbox=%s accounts=%s threads=%d warmup=%.1fs window=%.1fs",
            producers, mailbox, accounts ? "on" : "off", threads, warmupNs / 1e9, measureNs / 1e9);

        final double receivedPerSecond =
            measure(BenchSystems.config(threads, 1)
                .flowControl(accounts ? new FlowControlConfig() : FlowControlConfig.disabled()), producers, mailbox,
                warmupNs, measureNs);
        Report.result("local.fanin.producers" + producers, receivedPerSecond, "msgs/s");
    }

    /**
     * Runs the fan-in on a fresh actor system of {@code config} and shuts it down.
     *
     * @param config    the actor system's configuration.
     * @param producers the number of producer threads.
     * @param mailbox   the receiving actor's mailbox type.
     * @param warmupNs  load before the window opens.
     * @param measureNs the window.
     * @return events received per second in the window.
     * @throws InterruptedException if interrupted.
     */
    static double measure(
        final ActorSystemConfig config,
        final int producers,
        final MailboxType mailbox,
        final long warmupNs,
        final long measureNs) throws InterruptedException
    {
        final FanInLedger ledger = new FanInLedger();
        final AtomicBoolean running = new AtomicBoolean(true);
        final Thread[] senders = new Thread[producers];
        try (ActorSystem system = ActorSystem.start(config))
        {
            final ActorId target = system.register(new Sink(ledger), 0, mailbox);
            for (int i = 0; i < producers; i++)
            {
                senders[i] = new Thread(new Producer(system, target, ledger, running), "fanin-producer-" + i);
                senders[i].setDaemon(true);
                senders[i].start();
            }
            TimeUnit.NANOSECONDS.sleep(warmupNs);
            final ThreadCpu cpu = ThreadCpu.start();
            final long receivedAtStart = ledger.received();
            final double receivedPerSecond = RateWindow.perSecond(ledger::received, 0, measureNs);
            final long received = Math.max(1, ledger.received() - receivedAtStart);
            Report.progress("  cpu per event: producers %.1f ns, workers %.1f ns",
                (double)cpu.usedNs("fanin-producer-") / received, (double)cpu.usedNs("bench-") / received);
            running.set(false);
            for (final Thread sender : senders)
            {
                sender.join();
            }
            BenchSystems.reportHealth(system);
            Report.progress("  sent=%d received=%d", ledger.sent(), ledger.received());
            return receivedPerSecond;
        }
        finally
        {
            running.set(false);
        }
    }
}
