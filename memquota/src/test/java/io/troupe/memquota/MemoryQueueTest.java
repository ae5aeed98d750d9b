package io.troupe.memquota;

import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MemoryQueueTest
{
    private static final long MAX = 1L << 20;
    private static final long REFILL = Participation.LOCAL_CACHE_REFILL_BYTES;

    private final ManualClock clock = new ManualClock();
    private final MemoryQuotaTracker tracker = MemoryQuotaTracker.create(MemoryQuotaConfig.of(MAX), clock);

    @AfterEach
    void closeTracker()
    {
        tracker.close();
    }

    @Test
    void queueIsFifoAndTracksItsSizeAndBytes()
    {
        final MemoryQueue<Item> queue = MemoryQueue.unbounded(tracker.newAccount());
        assertThat(queue.receive()).isNull();
        assertThat(queue.oldestDataTimeNs()).isEqualTo(Participant.NO_DATA);
        final long t0 = clock.nowNs();
        assertThat(queue.send(new Item("a", 100))).isTrue();
        clock.advance(10);
        assertThat(queue.send(new Item("b", 200))).isTrue();
        clock.advance(10);
        assertThat(queue.send(new Item("c", 300))).isTrue();
        assertThat(queue.size()).isEqualTo(3);
        assertThat(queue.usedBytes()).isEqualTo(tracker.usedBytes()).isEqualTo(REFILL + 100);
        assertThat(queue.oldestDataTimeNs()).isEqualTo(t0);

        assertThat(queue.receive().name()).isEqualTo("a");
        assertThat(queue.oldestDataTimeNs()).isEqualTo(t0 + 10);
        assertThat(queue.receive().name()).isEqualTo("b");
        assertThat(queue.receive().name()).isEqualTo("c");
        assertThat(queue.receive()).isNull();
        assertThat(queue.size()).isZero();
        assertThat(queue.oldestDataTimeNs()).isEqualTo(Participant.NO_DATA);
        assertThat(queue.usedBytes()).isEqualTo(tracker.usedBytes()).isEqualTo(REFILL + 100);

        queue.send(new Item("big", 100_000));
        assertThat(tracker.usedBytes()).isGreaterThanOrEqualTo(100_000);
        queue.receive();
        assertThat(tracker.usedBytes()).isLessThanOrEqualTo(Participation.LOCAL_CACHE_MAX_BYTES);
    }

    /** An element that keeps its own stamp is queued as it is, with the same FIFO, ages, bytes and drops. */
    @Test
    void queuedElementsAreHeldAsTheyAreWithTheSameAccountingAndAges()
    {
        final List<Stamped> dropped = new ArrayList<>();
        final MemoryQueue<Stamped> queue = MemoryQueue.bounded(tracker.newAccount(), 10, dropped::add);
        final long t0 = clock.nowNs();
        final Stamped a = new Stamped(100);
        final Stamped b = new Stamped(200);
        assertThat(queue.send(a)).isTrue();
        clock.advance(10);
        assertThat(queue.send(b)).isTrue();
        assertThat(a.enqueuedNs()).isEqualTo(t0);
        assertThat(b.enqueuedNs()).isEqualTo(t0 + 10);
        assertThat(queue.oldestDataTimeNs()).isEqualTo(t0);
        assertThat(queue.usedBytes()).isEqualTo(tracker.usedBytes()).isEqualTo(REFILL + 100);

        assertThat(queue.receive()).isSameAs(a);
        assertThat(queue.oldestDataTimeNs()).isEqualTo(t0 + 10);
        final Stamped big = new Stamped(100_000);
        queue.send(big);
        assertThat(tracker.usedBytes()).isGreaterThanOrEqualTo(100_000);
        assertThat(queue.receive()).isSameAs(b);
        assertThat(queue.receive()).isSameAs(big);
        assertThat(tracker.usedBytes()).isLessThanOrEqualTo(Participation.LOCAL_CACHE_MAX_BYTES);

        final Stamped c = new Stamped(10);
        queue.send(c);
        queue.close();
        assertThat(dropped).containsExactly(c);
    }

    private static final class Stamped implements QueuedElement
    {
        private final long cost;
        private long stamp = -1;

        Stamped(final long cost)
        {
            this.cost = cost;
        }

        @Override
        public void enqueuedAt(final long nowNs)
        {
            stamp = nowNs;
        }

        @Override
        public long enqueuedNs()
        {
            return stamp;
        }

        @Override
        public long memoryCost()
        {
            return cost;
        }
    }

    @Test
    void boundedQueueRefusesWhenFullAndClaimsNothingForTheRefusedElement()
    {
        assertThatThrownBy(() -> MemoryQueue.bounded(tracker.newAccount(), 0))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("capacity");
        final MemoryQueue<Item> queue = MemoryQueue.bounded(tracker.newAccount(), 2);
        assertThat(queue.send(new Item("a", 10_000))).isTrue();
        assertThat(queue.send(new Item("b", 10_000))).isTrue();
        final long used = tracker.usedBytes();
        final long local = participationOf(queue).localCacheBytes();

        assertThat(queue.send(new Item("refused", 50_000))).isFalse();

        assertThat(queue.size()).isEqualTo(2);
        assertThat(tracker.usedBytes()).isEqualTo(used);
        assertThat(participationOf(queue).localCacheBytes()).isEqualTo(local);
        assertThat(queue.receive().name()).isEqualTo("a");
        assertThat(queue.send(new Item("c", 10_000))).isTrue();
        assertThat(queue.receive().name()).isEqualTo("b");
        assertThat(queue.receive().name()).isEqualTo("c");
        assertThat(queue.receive()).isNull();
    }

    @Test
    void reclaimCollapsesTheQueueDropsItsContentsAndForgetsItsBytesAtOnce()
    {
        final MemoryQueue<Item> old = MemoryQueue.unbounded(tracker.newAccount());
        final List<CollapseReason> before = new CopyOnWriteArrayList<>();
        final List<CollapseReason> before2 = new CopyOnWriteArrayList<>();
        old.onCollapse(before::add);
        old.onCollapse(reason ->
        {
            throw new IllegalStateException("a failing callback must not stop the others");
        });
        old.onCollapse(before2::add);
        for (int i = 0; i < 7; i++)
        {
            old.send(new Item("old" + i, 100_000));
            clock.advance(1_000);
        }
        final MemoryQueue<Item> young = MemoryQueue.unbounded(tracker.newAccount());
        young.send(new Item("young", 400_000));
        final long youngUse = young.usedBytes();
        assertThat(tracker.usedBytes()).isGreaterThan(MAX);

        assertThat(tracker.reclaimIfNeeded()).isEqualTo(1);

        assertThat(old.isCollapsed()).isTrue();
        assertThat(old.collapseReason()).isEqualTo(CollapseReason.MEMORY_RECLAIMED);
        assertThat(old.size()).isZero();
        assertThat(old.usedBytes()).isZero();
        assertThat(old.oldestDataTimeNs()).isEqualTo(Participant.NO_DATA);
        assertThat(tracker.usedBytes()).isEqualTo(youngUse);
        assertThat(young.isCollapsed()).isFalse();
        assertThat(before).containsExactly(CollapseReason.MEMORY_RECLAIMED);
        assertThat(before2).containsExactly(CollapseReason.MEMORY_RECLAIMED);
        assertThat(tracker.counters().participantsCollapsed()).isEqualTo(1);

        assertThatThrownBy(() -> old.send(new Item("late", 1)))
            .isInstanceOfSatisfying(CollapsedException.class, ex ->
            {
                assertThat(ex.reason()).isEqualTo(CollapseReason.MEMORY_RECLAIMED);
                // a collapsed queue refuses every later send: building a stack trace for each would be wasted
                assertThat(ex.getStackTrace()).isEmpty();
            });
        assertThatThrownBy(old::receive)
            .isInstanceOfSatisfying(CollapsedException.class,
                ex -> assertThat(ex.reason()).isEqualTo(CollapseReason.MEMORY_RECLAIMED));
        assertThat(tracker.usedBytes()).isEqualTo(youngUse);

        final List<CollapseReason> after = new CopyOnWriteArrayList<>();
        old.onCollapse(after::add);
        assertThat(after).containsExactly(CollapseReason.MEMORY_RECLAIMED);

        // collapsing again (reclaim or close) runs nothing twice and does not change the reason
        old.reclaim(0, 0);
        old.close();
        assertThat(old.collapseReason()).isEqualTo(CollapseReason.MEMORY_RECLAIMED);
        assertThat(before).hasSize(1);
        assertThat(before2).hasSize(1);
        assertThat(after).hasSize(1);
    }

    @Test
    void closeCollapsesWithReceiverDropped()
    {
        final MemoryQueue<Item> queue = MemoryQueue.unbounded(tracker.newAccount());
        final List<CollapseReason> seen = new CopyOnWriteArrayList<>();
        queue.onCollapse(seen::add);
        queue.send(new Item("x", 50_000));
        assertThat(tracker.usedBytes()).isPositive();

        queue.close();

        assertThat(seen).containsExactly(CollapseReason.RECEIVER_DROPPED);
        assertThat(queue.collapseReason()).isEqualTo(CollapseReason.RECEIVER_DROPPED);
        assertThat(tracker.usedBytes()).isZero();
        assertThat(queue.size()).isZero();
        assertThatThrownBy(() -> queue.send(new Item("y", 1)))
            .isInstanceOfSatisfying(CollapsedException.class,
                ex -> assertThat(ex.reason()).isEqualTo(CollapseReason.RECEIVER_DROPPED));
        assertThatThrownBy(queue::receive)
            .isInstanceOfSatisfying(CollapsedException.class,
                ex -> assertThat(ex.reason()).isEqualTo(CollapseReason.RECEIVER_DROPPED));
        queue.close();
        assertThat(seen).hasSize(1);
        // nothing left to reclaim: the closed queue is not asked
        assertThat(queue.reclaim(0, 0).toCompletableFuture().join()).isEqualTo(Reclaimed.COLLAPSING);
        assertThat(seen).hasSize(1);
    }

    @Test
    void queuesAreReclaimedOldestFirstDownToLowWater()
    {
        final Account account = tracker.newAccount();
        final MemoryQueue<Item> q1 = MemoryQueue.unbounded(account);
        final MemoryQueue<Item> q2 = MemoryQueue.unbounded(tracker.newAccount());
        final MemoryQueue<Item> q3 = MemoryQueue.unbounded(tracker.newAccount());
        final MemoryQueue<Item> q4 = MemoryQueue.unbounded(tracker.newAccount());
        q3.send(new Item("3", 300_000));
        clock.advance(1);
        q1.send(new Item("1", 300_000));
        clock.advance(1);
        q4.send(new Item("4", 300_000));
        clock.advance(1);
        q2.send(new Item("2", 300_000));

        tracker.reclaimIfNeeded();

        assertThat(q3.isCollapsed()).isTrue();
        assertThat(q1.isCollapsed()).isTrue();
        assertThat(q4.isCollapsed()).isFalse();
        assertThat(q2.isCollapsed()).isFalse();
        assertThat(tracker.usedBytes()).isEqualTo(q2.usedBytes() + q4.usedBytes());
        assertThat(tracker.counters().participantsCollapsed()).isEqualTo(2);
    }

    private static Participation participationOf(final MemoryQueue<Item> queue)
    {
        try
        {
            final Field field = MemoryQueue.class.getDeclaredField("participation");
            field.setAccessible(true);
            return (Participation)field.get(queue);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new AssertionError(ex);
        }
    }

    @Test
    void reclaimLeavesUnlinkingTheDroppedContentsForAfterTheRoundAndThenTheyCanBeCollected()
    {
        final MemoryQueue<Item> queue = MemoryQueue.unbounded(tracker.newAccount());
        Item item = new Item("dropped", 600_000);
        final WeakReference<Item> dropped = new WeakReference<>(item);
        queue.send(item);
        item = null;
        queue.send(new Item("more", 600_000));

        assertThat(tracker.reclaimOnce()).isEqualTo(1);

        assertThat(queue.isCollapsed()).isTrue();
        assertThat(tracker.pendingCleanups()).isEqualTo(1);
        assertThat(tracker.runCleanups(10)).isEqualTo(1);
        assertThat(tracker.pendingCleanups()).isZero();
        awaitCollected(dropped);
        assertThat(queue.isCollapsed()).isTrue(); // the queue itself is still here
    }

    @Test
    void reclaimIfNeededRunsTheCleanupsItselfAndACloseNeedsNone()
    {
        final MemoryQueue<Item> reclaimed = MemoryQueue.unbounded(tracker.newAccount());
        reclaimed.send(new Item("a", 600_000));
        reclaimed.send(new Item("b", 600_000));
        tracker.reclaimIfNeeded();
        assertThat(reclaimed.isCollapsed()).isTrue();
        assertThat(tracker.pendingCleanups()).isZero();

        final MemoryQueue<Item> closed = MemoryQueue.unbounded(tracker.newAccount());
        closed.send(new Item("c", 1_000));
        closed.close();
        assertThat(tracker.pendingCleanups()).isZero();
    }

    @Test
    void theOwnerIsToldOfEveryDroppedElementAfterTheRoundOrAtClose()
    {
        final List<String> dropped = new CopyOnWriteArrayList<>();
        final MemoryQueue<Item> reclaimed = MemoryQueue.bounded(tracker.newAccount(), 10,
            item -> dropped.add(item.name()));
        reclaimed.send(new Item("a", 600_000));
        reclaimed.send(new Item("b", 600_000));
        assertThat(reclaimed.receive().name()).isEqualTo("a");
        reclaimed.send(new Item("c", 600_000));

        assertThat(tracker.reclaimOnce()).isEqualTo(1);
        assertThat(dropped).as("not during the round").isEmpty();
        tracker.runCleanups(10);
        assertThat(dropped).containsExactly("b", "c");

        final List<String> closedDrops = new CopyOnWriteArrayList<>();
        final MemoryQueue<Item> closed = MemoryQueue.bounded(tracker.newAccount(), 10, item ->
        {
            closedDrops.add(item.name());
            throw new IllegalStateException("one failure must not stop the rest");
        });
        closed.send(new Item("x", 10));
        closed.send(new Item("y", 10));
        closed.close();
        assertThat(closedDrops).containsExactly("x", "y");
        assertThatThrownBy(() -> MemoryQueue.bounded(tracker.newAccount(), 0, item -> { }))
            .isInstanceOf(IllegalArgumentException.class);
    }

    private static void awaitCollected(final WeakReference<?> ref)
    {
        Await.until(() ->
        {
            System.gc();
            return ref.get() == null;
        }, "the dropped element is collected");
    }
}
