package io.troupe.interconnect;

import io.troupe.memquota.CollapseReason;
import io.troupe.memquota.CollapsedException;
import io.troupe.memquota.MemoryQuotaConfig;
import io.troupe.memquota.MemoryQuotaTracker;
import io.troupe.memquota.Participant;
import io.troupe.memquota.Participation;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The per-peer outbound queue: an intrusive, quota-tracked, allocation-free many-to-one list. */
@Timeout(30)
class OutboundQueueTest
{
    private final AtomicLong clockNs = new AtomicLong(1_000);
    private final MemoryQuotaTracker tracker = MemoryQuotaTracker.create(MemoryQuotaConfig.of(1L << 30), clockNs::get);

    @AfterEach
    void closeTracker()
    {
        tracker.close();
    }

    private static OutboundFrame frame(final int length, final int id)
    {
        final OutboundFrame frame = new OutboundFrame();
        final UnsafeBuffer buffer = new UnsafeBuffer();
        frame.wrapForEncoding(length, buffer);
        buffer.putInt(0, id);
        return frame;
    }

    private static int id(final OutboundFrame frame)
    {
        return new UnsafeBuffer(frame.bytes).getInt(0);
    }

    @Test
    void framesComeOutInOrderWithTheirStampsAndTheQueueRefusesWhenFull()
    {
        final OutboundQueue queue = new OutboundQueue(tracker.newAccount(), clockNs::get, 3);
        assertThat(queue.receive()).isNull();
        assertThat(queue.oldestDataTimeNs()).isEqualTo(Participant.NO_DATA);
        assertThat(queue.send(frame(100, 1))).isTrue();
        clockNs.addAndGet(10);
        assertThat(queue.send(frame(100, 2))).isTrue();
        assertThat(queue.send(frame(100, 3))).isTrue();
        assertThat(queue.send(frame(100, 4))).as("full").isFalse();
        assertThat(queue.size()).isEqualTo(3);
        assertThat(queue.oldestDataTimeNs()).isEqualTo(1_000);

        assertThat(id(queue.receive())).isEqualTo(1);
        assertThat(queue.oldestDataTimeNs()).isEqualTo(1_010);
        assertThat(id(queue.receive())).isEqualTo(2);
        assertThat(id(queue.receive())).isEqualTo(3);
        assertThat(queue.receive()).isNull();
        assertThat(queue.size()).isZero();
        assertThat(queue.oldestDataTimeNs()).isEqualTo(Participant.NO_DATA);
    }

    @Test
    void aFullQueueHasRoomAgainForExactlyTheFramesTakenAndNoticesKeepTheirReserve()
    {
        final OutboundQueue queue = new OutboundQueue(tracker.newAccount(), clockNs::get, 4);
        for (int i = 0; i < 4; i++)
        {
            assertThat(queue.send(frame(10, i))).isTrue();
        }
        assertThat(queue.send(frame(10, 99))).as("full").isFalse();
        assertThat(queue.size()).as("a refused send counts itself out").isEqualTo(4);
        assertThat(id(queue.receive())).isZero();
        assertThat(id(queue.receive())).isEqualTo(1);
        assertThat(queue.send(frame(10, 4))).as("room the agent made, seen once the sender looks again").isTrue();
        assertThat(queue.send(frame(10, 5))).isTrue();
        assertThat(queue.send(frame(10, 6))).as("full again").isFalse();
        for (int i = 0; i < OutboundQueue.MIN_RESERVE; i++)
        {
            assertThat(queue.send(frame(10, 1000 + i), true)).as("notice %d in the reserve", i).isTrue();
        }
        assertThat(queue.send(frame(10, 7), true)).as("the reserve is used up too").isFalse();
        assertThat(queue.size()).isEqualTo(4 + OutboundQueue.MIN_RESERVE);
        for (int expected = 2; expected < 6; expected++)
        {
            assertThat(id(queue.receive())).isEqualTo(expected);
        }
        assertThat(queue.size()).isEqualTo(OutboundQueue.MIN_RESERVE);
    }

    @Test
    void takenFramesGiveTheirBytesBackToTheQuotaOncePerDrain()
    {
        final OutboundQueue queue = new OutboundQueue(tracker.newAccount(), clockNs::get, 10);
        for (int i = 0; i < 3; i++)
        {
            assertThat(queue.send(frame(100_000, i))).isTrue();
        }
        final long queued = tracker.usedBytes();
        assertThat(queued).isGreaterThanOrEqualTo(3 * 100_000);
        while (queue.receive() != null)
        {
            // a drain takes what is queued
        }
        assertThat(tracker.usedBytes()).as("still held until the drain ends").isEqualTo(queued);
        queue.releaseTaken();
        assertThat(tracker.usedBytes()).as("given back in one release, but for the participation's local cache")
            .isLessThanOrEqualTo(Participation.LOCAL_CACHE_MAX_BYTES);
        queue.releaseTaken();
        assertThat(tracker.usedBytes()).as("nothing is released twice")
            .isLessThanOrEqualTo(Participation.LOCAL_CACHE_MAX_BYTES);
        assertThat(queue.send(frame(100_000, 3))).isTrue();
        assertThat(tracker.usedBytes()).isGreaterThanOrEqualTo(100_000);
    }

    @Test
    void aTakenFrameCanBeQueuedAgainAtOnceAsThePoolDoes()
    {
        final OutboundQueue queue = new OutboundQueue(tracker.newAccount(), clockNs::get, 10);
        final OutboundFrame reused = frame(50, 7);
        for (int round = 0; round < 5; round++)
        {
            assertThat(queue.send(reused)).isTrue();
            assertThat(queue.send(frame(50, 8))).isTrue();
            assertThat(queue.receive()).isSameAs(reused);
            // the pool hands the frame straight back to a sender while the other frame is still queued
            assertThat(queue.send(reused)).isTrue();
            assertThat(id(queue.receive())).isEqualTo(8);
            assertThat(queue.receive()).isSameAs(reused);
            assertThat(queue.receive()).isNull();
        }
    }

    @Test
    void aCollapseForgetsTheBytesAtOnceRefusesSendsAndHandsEveryFrameToTheAgent()
    {
        final OutboundQueue queue = new OutboundQueue(tracker.newAccount(), clockNs::get, 100);
        for (int i = 0; i < 10; i++)
        {
            queue.send(frame(100_000, i));
        }
        assertThat(tracker.usedBytes()).isGreaterThanOrEqualTo(10 * 100_000);

        queue.reclaim(0, 1);
        assertThat(queue.isCollapsed()).isTrue();
        assertThat(tracker.usedBytes()).isLessThan(100_000);
        assertThat(queue.oldestDataTimeNs()).isEqualTo(Participant.NO_DATA);
        assertThatThrownBy(() -> queue.send(frame(10, 99))).isInstanceOfSatisfying(CollapsedException.class,
            ex -> assertThat(ex.reason()).isEqualTo(CollapseReason.MEMORY_RECLAIMED));
        assertThatThrownBy(queue::receive).isInstanceOf(CollapsedException.class);

        final List<Integer> dropped = new ArrayList<>();
        assertThat(queue.drainCollapsed(frame -> dropped.add(id(frame)))).isTrue();
        assertThat(dropped).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(queue.size()).isZero();
    }

    @Test
    void concurrentSendersEachKeepTheirOrderAndEveryFrameIsTakenOnce() throws Exception
    {
        final int senders = 3;
        final int perSender = 200_000;
        final OutboundQueue queue = new OutboundQueue(tracker.newAccount(), clockNs::get, 1 << 20);
        final Thread[] threads = new Thread[senders];
        for (int s = 0; s < senders; s++)
        {
            final int sender = s;
            threads[s] = new Thread(() ->
            {
                for (int i = 0; i < perSender; i++)
                {
                    while (!queue.send(frame(8, sender << 24 | i)))
                    {
                        Thread.onSpinWait();
                    }
                }
            });
            threads[s].start();
        }
        final int[] next = new int[senders];
        int taken = 0;
        while (taken < senders * perSender)
        {
            final OutboundFrame frame = queue.receive();
            if (frame == null)
            {
                Thread.onSpinWait();
                continue;
            }
            final int id = id(frame);
            final int sender = id >>> 24;
            assertThat(id & 0xFF_FFFF).as("sender %d's next frame", sender).isEqualTo(next[sender]);
            next[sender]++;
            taken++;
        }
        for (final Thread thread : threads)
        {
            thread.join();
        }
        assertThat(queue.receive()).isNull();
        assertThat(queue.size()).isZero();
        assertThat(next).containsOnly(perSender);
    }
}
