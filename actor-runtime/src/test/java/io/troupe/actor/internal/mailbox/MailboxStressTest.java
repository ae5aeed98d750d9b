package io.troupe.actor.internal.mailbox;

import io.troupe.actor.MailboxType;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many senders against one reader, for every mailbox type: nothing lost, nothing duplicated, FIFO per sender,
 * and no lost wake-up in the activation protocol.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MailboxStressTest
{
    private static final int PRODUCERS = 4;
    private static final long AWAIT_NS = TimeUnit.SECONDS.toNanos(30);

    @ParameterizedTest
    @EnumSource(MailboxType.class)
    void manyProducersOneConsumer(final MailboxType type) throws InterruptedException
    {
        final int perProducer = 200_000;
        final Mailbox mailbox = newMailbox(type);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final CountDownLatch start = new CountDownLatch(1);
        final List<Thread> producers = startProducers(perProducer, start, failure, (producer, seq) ->
            mailbox.push(new TestNode(producer, seq)));

        start.countDown();
        final int[] next = new int[PRODUCERS];
        final long total = (long)PRODUCERS * perProducer;
        final long deadlineNs = System.nanoTime() + AWAIT_NS;
        long consumed = 0;
        while (consumed < total && System.nanoTime() - deadlineNs < 0 && failure.get() == null)
        {
            final TestNode node = (TestNode)mailbox.poll();
            if (node == null)
            {
                Thread.onSpinWait();
                continue;
            }
            // exactly the next one from this producer: a gap is a loss or reordering, a repeat a duplicate
            assertThat(node.sequence).as("producer %d", node.producer).isEqualTo(next[node.producer]);
            next[node.producer]++;
            consumed++;
        }

        joinAll(producers);
        assertThat(failure.get()).isNull();
        assertThat(consumed).as("consumed before the deadline").isEqualTo(total);
        for (int p = 0; p < PRODUCERS; p++)
        {
            assertThat(next[p]).as("producer %d", p).isEqualTo(perProducer);
        }
        assertThat(mailbox.poll()).isNull();
        assertThat(mailbox.hasPending()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(MailboxType.class)
    void noLostWakeUp(final MailboxType type) throws InterruptedException
    {
        runWakeUpScenario(type, false);
    }

    /** The runtime's send: a sender that finds the mailbox idle claims it first and may skip the queue. */
    @ParameterizedTest
    @EnumSource(MailboxType.class)
    void noLostWakeUpAndFifoWithTheActivatingFirstSlot(final MailboxType type) throws InterruptedException
    {
        runWakeUpScenario(type, true);
    }

    private void runWakeUpScenario(final MailboxType type, final boolean activatingFirst) throws InterruptedException
    {
        final int perProducer = 100_000;
        final int consumers = 2;
        final int quantum = 64;
        final Mailbox mailbox = newMailbox(type);
        final BlockingQueue<Mailbox> runQueue = new LinkedBlockingQueue<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        final AtomicLong activations = new AtomicLong();
        final AtomicLong consumed = new AtomicLong();
        final long total = (long)PRODUCERS * perProducer;
        final CountDownLatch allConsumed = new CountDownLatch(1);
        final CountDownLatch start = new CountDownLatch(1);
        // guarded by the mailbox's activation: only the thread that runs it touches these
        final int[] next = new int[PRODUCERS];
        final int[] outOfOrder = new int[1];

        final AtomicBoolean producersDone = new AtomicBoolean();
        final AtomicBoolean stop = new AtomicBoolean();
        final Runnable onConsumed = () ->
        {
            if (consumed.incrementAndGet() == total)
            {
                allConsumed.countDown();
            }
        };

        final List<Thread> consumerThreads = new ArrayList<>();
        for (int c = 0; c < consumers; c++)
        {
            final Thread consumer = new Thread(() ->
            {
                try
                {
                    while (!stop.get() && failure.get() == null)
                    {
                        Mailbox taken = runQueue.poll(10, TimeUnit.MILLISECONDS);
                        if (taken == null)
                        {
                            // whoever holds the mailbox finishes its activation; a sender's last hand-off
                            // happened before producersDone, so an empty run queue now stays empty
                            if (producersDone.get() && consumed.get() == total && runQueue.isEmpty())
                            {
                                return;
                            }
                            continue;
                        }
                        while (taken != null)
                        {
                            taken = runOnce(
                                taken, quantum, runQueue, running, overlaps, activations, onConsumed, next, outOfOrder);
                        }
                    }
                }
                catch (final Throwable ex)
                {
                    failure.compareAndSet(null, ex);
                    allConsumed.countDown();
                }
            }, "consumer-" + c);
            consumer.setDaemon(true);
            consumer.start();
            consumerThreads.add(consumer);
        }
        final List<Thread> producers = startProducers(perProducer, start, failure, (producer, seq) ->
        {
            final TestNode node = new TestNode(producer, seq);
            if (activatingFirst && mailbox.tryMarkScheduled())
            {
                mailbox.pushActivating(node);
                runQueue.add(mailbox);
                return;
            }
            mailbox.push(node);
            if (mailbox.tryMarkScheduled())
            {
                runQueue.add(mailbox);
            }
        });

        start.countDown();
        joinAll(producers);
        producersDone.set(true);
        final boolean done = allConsumed.await(AWAIT_NS, TimeUnit.NANOSECONDS);
        if (!done)
        {
            stop.set(true);
        }
        joinAll(consumerThreads);

        assertThat(failure.get()).isNull();
        assertThat(done).as("all %d consumed, got %d", total, consumed.get()).isTrue();
        assertThat(consumed.get()).isEqualTo(total);
        assertThat(overlaps.get()).as("activations run by two threads at once").isZero();
        assertThat(outOfOrder[0]).as("elements out of order").isZero();
        for (int p = 0; p < PRODUCERS; p++)
        {
            assertThat(next[p]).as("producer %d", p).isEqualTo(perProducer);
        }
        assertThat(activations.get()).isPositive();
        assertThat(mailbox.state()).isEqualTo(Mailbox.IDLE);
        assertThat(mailbox.hasPending()).isFalse();
        assertThat(mailbox.poll()).isNull();
        assertThat(runQueue).isEmpty();
    }

    /**
     * One activation, as a worker runs it: at most a quantum of elements, then idle with the re-check, or
     * back on the run queue.
     *
     * @return the mailbox if this thread won it again on the re-check and must run it again, else null.
     */
    private static Mailbox runOnce(
        final Mailbox mailbox,
        final int quantum,
        final BlockingQueue<Mailbox> runQueue,
        final AtomicInteger running,
        final AtomicInteger overlaps,
        final AtomicLong activations,
        final Runnable onConsumed,
        final int[] next,
        final int[] outOfOrder)
    {
        activations.incrementAndGet();
        if (running.incrementAndGet() != 1)
        {
            overlaps.incrementAndGet();
        }
        mailbox.markRunning();
        int polled = 0;
        TestNode node = null;
        while (polled < quantum && (node = (TestNode)mailbox.poll()) != null)
        {
            if (node.sequence != next[node.producer])
            {
                outOfOrder[0]++;
            }
            next[node.producer] = node.sequence + 1;
            polled++;
            onConsumed.run();
        }
        // leave the running count before giving the mailbox up, or the next runner would see an overlap
        running.decrementAndGet();
        if (node != null)
        {
            // quantum used up: to the back of the run queue
            mailbox.markRescheduled();
            runQueue.add(mailbox);
            return null;
        }
        mailbox.markIdle();
        // the re-check that pairs with the senders' push-then-tryMarkScheduled
        return mailbox.hasPending() && mailbox.tryMarkScheduled() ? mailbox : null;
    }

    private static Mailbox newMailbox(final MailboxType type)
    {
        return type == MailboxType.SIMPLE ? new SimpleMailbox(1, 0) : new RevolvingMailbox(1, 0);
    }

    private static List<Thread> startProducers(
        final int perProducer,
        final CountDownLatch start,
        final AtomicReference<Throwable> failure,
        final Send send)
    {
        final List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++)
        {
            final int producer = p;
            final Thread thread = new Thread(() ->
            {
                try
                {
                    start.await();
                    for (int seq = 0; seq < perProducer; seq++)
                    {
                        send.send(producer, seq);
                    }
                }
                catch (final Throwable ex)
                {
                    failure.compareAndSet(null, ex);
                }
            }, "producer-" + p);
            thread.setDaemon(true);
            thread.start();
            producers.add(thread);
        }
        return producers;
    }

    private static void joinAll(final List<Thread> threads) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + AWAIT_NS;
        for (final Thread thread : threads)
        {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime())));
            assertThat(thread.isAlive()).as("%s finished", thread.getName()).isFalse();
        }
    }

    @FunctionalInterface
    private interface Send
    {
        void send(int producer, int seq);
    }
}
