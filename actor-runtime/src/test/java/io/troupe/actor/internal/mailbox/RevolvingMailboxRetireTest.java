package io.troupe.actor.internal.mailbox;

import io.troupe.actor.QueueLink;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Used segments of a revolving mailbox must not keep later segments reachable: a segment promoted to the old
 * generation would otherwise retain the whole tail of the queue (GC nepotism). Senders that start from a
 * retired segment must still land every event.
 */
@Timeout(60)
class RevolvingMailboxRetireTest
{
    private static final VarHandle CONSUMER_SEGMENT;
    private static final VarHandle SEGMENT_NEXT;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(RevolvingMailbox.class,
                MethodHandles.lookup());
            CONSUMER_SEGMENT = lookup.findVarHandle(RevolvingMailbox.class, "consumerSegment",
                RevolvingMailbox.Segment.class);
            SEGMENT_NEXT = MethodHandles.privateLookupIn(RevolvingMailbox.Segment.class, MethodHandles.lookup())
                .findVarHandle(RevolvingMailbox.Segment.class, "next", RevolvingMailbox.Segment.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    @Test
    void consumedSegmentNoLongerReferencesItsSuccessor()
    {
        final RevolvingMailbox mailbox = new RevolvingMailbox(1, 0);
        final RevolvingMailbox.Segment first = (RevolvingMailbox.Segment)CONSUMER_SEGMENT.get(mailbox);
        for (int i = 0; i < 3 * RevolvingMailbox.SEGMENT_SIZE; i++)
        {
            mailbox.push(new TestNode(0, i));
        }
        assertThat(SEGMENT_NEXT.get(first)).isNotNull();
        for (int i = 0; i < RevolvingMailbox.SEGMENT_SIZE + 1; i++)
        {
            assertThat(((TestNode)mailbox.poll()).sequence).isEqualTo(i);
        }
        final RevolvingMailbox.Segment second = (RevolvingMailbox.Segment)CONSUMER_SEGMENT.get(mailbox);
        assertThat(second).isNotSameAs(first);
        final Object link = SEGMENT_NEXT.get(first);
        assertThat(link).as("a used segment must not link to a live one").isNotSameAs(second).isNotNull();
        assertThat(((RevolvingMailbox.Segment)link).base).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void sendersStartingFromRetiredSegmentsLoseNothing() throws InterruptedException
    {
        // the reader keeps up closely, so senders often start from a hint the reader has already retired
        final RevolvingMailbox mailbox = new RevolvingMailbox(1, 0);
        final int producers = 3;
        final int perProducer = 200_000;
        final CountDownLatch start = new CountDownLatch(1);
        final Thread[] threads = new Thread[producers];
        for (int p = 0; p < producers; p++)
        {
            final int id = p;
            threads[p] = new Thread(() ->
            {
                try
                {
                    start.await();
                }
                catch (final InterruptedException ex)
                {
                    return;
                }
                for (int i = 0; i < perProducer; i++)
                {
                    mailbox.push(new TestNode(id, i));
                }
            });
            threads[p].start();
        }
        start.countDown();
        final int[] next = new int[producers];
        long received = 0;
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(50);
        while (received < (long)producers * perProducer && System.nanoTime() - deadlineNs < 0)
        {
            final QueueLink node = mailbox.poll();
            if (node == null)
            {
                Thread.onSpinWait();
                continue;
            }
            final TestNode item = (TestNode)node;
            assertThat(item.sequence).as("FIFO per producer %d", item.producer).isEqualTo(next[item.producer]);
            next[item.producer]++;
            received++;
        }
        for (final Thread thread : threads)
        {
            thread.join();
        }
        assertThat(received).isEqualTo((long)producers * perProducer);
        assertThat(mailbox.poll()).isNull();
        assertThat(mailbox.hasPending()).isFalse();
    }
}
