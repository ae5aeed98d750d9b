package io.troupe.actor.internal.mailbox;

import io.troupe.actor.MailboxType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class MailboxTableTest
{
    private final MailboxTable table = new MailboxTable(2);

    @Test
    void hintZeroAndUnknownHintsResolveToNothing()
    {
        assertThat(table.get(0)).isNull();
        assertThat(table.get(1)).isNull();
        assertThat(table.get(-1)).isNull();
        assertThat(table.get(Integer.MIN_VALUE)).isNull();

        table.allocate(0, MailboxType.SIMPLE);

        // one batch exists: hints 1..BATCH
        assertThat(table.get(0)).isNull();
        assertThat(table.get(1)).isNotNull();
        assertThat(table.get(MailboxTable.BATCH)).isNotNull();
        assertThat(table.get(MailboxTable.BATCH + 1)).isNull();
        assertThat(table.get(MailboxTable.LINE_SIZE - 1)).isNull();
        assertThat(table.get(MailboxTable.LINE_SIZE)).isNull();
    }

    @Test
    void hintsBeyondTheTableResolveToNothing()
    {
        // a hint from a stale, forged or corrupt id must not blow up the send path
        table.allocate(0, MailboxType.SIMPLE);

        assertThat(table.get(MailboxTable.MAX_LINES * MailboxTable.LINE_SIZE - 1)).isNull();
        assertThat(table.get(MailboxTable.MAX_LINES * MailboxTable.LINE_SIZE)).isNull();
        assertThat(table.get(MailboxTable.MAX_HINT)).isNull();
        assertThat(table.get(Integer.MAX_VALUE)).isNull();
    }

    @Test
    void maxHintIsTheLargestHintTheTableCanHold()
    {
        assertThat((long)MailboxTable.MAX_HINT).isEqualTo((long)MailboxTable.MAX_LINES * MailboxTable.LINE_SIZE - 1);
    }

    @Test
    void allocateCreatesBatchesOfAdjacentHintsFromOne()
    {
        final Set<Integer> hints = new HashSet<>();
        for (int i = 0; i < MailboxTable.BATCH; i++)
        {
            final Mailbox mailbox = table.allocate(1, MailboxType.REVOLVING);
            assertThat(mailbox.type()).isEqualTo(MailboxType.REVOLVING);
            assertThat(mailbox.poolId()).isEqualTo(1);
            assertThat(mailbox.isVacant()).isTrue();
            assertThat(table.get(mailbox.hint())).isSameAs(mailbox);
            assertThat(hints.add(mailbox.hint())).as("hint %d handed out twice", mailbox.hint()).isTrue();
        }
        assertThat(hints).allMatch(h -> h >= 1 && h <= MailboxTable.BATCH);
        assertThat(table.created()).isEqualTo(MailboxTable.BATCH);
        assertThat(table.vacant()).isZero();

        // another pool or type starts a batch of its own
        final Mailbox other = table.allocate(0, MailboxType.SIMPLE);
        assertThat(other.hint()).isBetween(MailboxTable.BATCH + 1, 2 * MailboxTable.BATCH);
        assertThat(table.created()).isEqualTo(2 * MailboxTable.BATCH);
        assertThat(table.vacant()).isEqualTo(MailboxTable.BATCH - 1);
    }

    @Test
    void consecutiveAllocationsAreSpreadInMemory()
    {
        // mailboxes of one batch are created adjacent: actors registered one after another must not be
        int previous = table.allocate(0, MailboxType.SIMPLE).hint();
        for (int i = 1; i < 3 * MailboxTable.BATCH; i++)
        {
            final int hint = table.allocate(0, MailboxType.SIMPLE).hint();
            assertThat(Math.abs(hint - previous)).as("allocation %d", i).isGreaterThanOrEqualTo(16);
            previous = hint;
        }
    }

    @Test
    void linesAreCreatedOnDemand()
    {
        final int count = 2 * MailboxTable.LINE_SIZE + 10;
        final List<Mailbox> allocated = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            allocated.add(table.allocate(0, MailboxType.SIMPLE));
        }

        for (final Mailbox mailbox : allocated)
        {
            assertThat(table.get(mailbox.hint())).isSameAs(mailbox);
        }
        final int created = table.created();
        assertThat(created % MailboxTable.BATCH).isZero();
        assertThat(created).isBetween(count, count + MailboxTable.BATCH - 1);
        for (final int hint : new int[] {MailboxTable.LINE_SIZE - 1, MailboxTable.LINE_SIZE,
            MailboxTable.LINE_SIZE + 1, 2 * MailboxTable.LINE_SIZE - 1, 2 * MailboxTable.LINE_SIZE, created})
        {
            assertThat(table.get(hint)).as("hint %d", hint).isNotNull();
            assertThat(table.get(hint).hint()).isEqualTo(hint);
        }
        // the third line exists but is only partly filled; the fourth was never needed
        assertThat(table.get(created + 1)).isNull();
        assertThat(table.get(3 * MailboxTable.LINE_SIZE - 1)).isNull();
        assertThat(table.get(3 * MailboxTable.LINE_SIZE)).isNull();
    }

    @Test
    void releasedMailboxIsReusedForTheSamePoolAndType()
    {
        final Mailbox first = table.allocate(0, MailboxType.SIMPLE);
        first.occupy(10L, (ctx, envelope) ->
        {
        }, null);
        first.remove(Mailbox.PRIMARY);
        final long vacantBefore = table.vacant();

        table.release(first);

        assertThat(table.vacant()).isEqualTo(vacantBefore + 1);
        final Mailbox again = table.allocate(0, MailboxType.SIMPLE);
        assertThat(again).isSameAs(first);
        assertThat(again.hint()).isEqualTo(first.hint());
        assertThat(table.vacant()).isEqualTo(vacantBefore);
        assertThat(table.created()).isEqualTo(MailboxTable.BATCH);
        assertThat(table.get(first.hint())).isSameAs(first);
    }

    @Test
    void releasedMailboxIsNotReusedForAnotherPoolOrType()
    {
        final Mailbox simple0 = table.allocate(0, MailboxType.SIMPLE);
        table.release(simple0);

        final Mailbox simple1 = table.allocate(1, MailboxType.SIMPLE);
        final Mailbox revolving0 = table.allocate(0, MailboxType.REVOLVING);

        assertThat(simple1).isNotSameAs(simple0);
        assertThat(simple1.poolId()).isEqualTo(1);
        assertThat(simple1.type()).isEqualTo(MailboxType.SIMPLE);
        assertThat(revolving0).isNotSameAs(simple0);
        assertThat(revolving0.poolId()).isEqualTo(0);
        assertThat(revolving0.type()).isEqualTo(MailboxType.REVOLVING);
        assertThat(table.created()).isEqualTo(3 * MailboxTable.BATCH);

        assertThat(table.allocate(0, MailboxType.SIMPLE)).isSameAs(simple0);
    }

    @Test
    void everyReleasedMailboxComesBackOnce()
    {
        final List<Mailbox> released = new ArrayList<>();
        for (int i = 0; i < 10; i++)
        {
            released.add(table.allocate(1, MailboxType.REVOLVING));
        }
        final long vacantBefore = table.vacant();
        for (final Mailbox mailbox : released)
        {
            table.release(mailbox);
        }
        assertThat(table.vacant()).isEqualTo(vacantBefore + 10);

        final Set<Mailbox> reused = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < 10; i++)
        {
            reused.add(table.allocate(1, MailboxType.REVOLVING));
        }

        assertThat(reused).containsExactlyInAnyOrderElementsOf(released);
        assertThat(table.vacant()).isEqualTo(vacantBefore);
        assertThat(table.created()).isEqualTo(MailboxTable.BATCH);
    }

    @Test
    void forEachVisitsEveryMailboxInHintOrder()
    {
        final Set<Mailbox> allocated = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < MailboxTable.LINE_SIZE + 3; i++)
        {
            allocated.add(table.allocate(i % 2, i % 3 == 0 ? MailboxType.REVOLVING : MailboxType.SIMPLE));
        }

        final List<Mailbox> visited = new ArrayList<>();
        table.forEach(visited::add);

        assertThat(visited).hasSize(table.created());
        for (int i = 0; i < visited.size(); i++)
        {
            assertThat(visited.get(i).hint()).isEqualTo(i + 1);
        }
        assertThat(visited).containsAll(allocated);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void concurrentAllocateAndReleaseOnOneFreeListNeverShareOrLoseAMailbox() throws InterruptedException
    {
        // many threads cycling few mailboxes through one free list: the pattern that exposes ABA in a
        // Treiber stack (a mailbox popped and pushed back between another thread's read and its CAS)
        allocateAndReleaseConcurrently(6, 1_000_000, 2, new int[] {0}, new MailboxType[] {MailboxType.SIMPLE});
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void concurrentAllocateAndReleaseAcrossPoolsAndTypesNeverMixThemUp() throws InterruptedException
    {
        allocateAndReleaseConcurrently(4, 200_000, 8, new int[] {0, 1}, MailboxType.values());
    }

    private void allocateAndReleaseConcurrently(
        final int threads,
        final int iterations,
        final int maxHeld,
        final int[] pools,
        final MailboxType[] types) throws InterruptedException
    {
        final Map<Mailbox, AtomicBoolean> owned = new ConcurrentHashMap<>();
        final AtomicInteger doubleOwned = new AtomicInteger();
        final AtomicInteger wrongKind = new AtomicInteger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final CountDownLatch start = new CountDownLatch(1);
        final List<Thread> workers = new ArrayList<>();

        for (int t = 0; t < threads; t++)
        {
            final long seed = 1000L + t;
            final Thread worker = new Thread(() ->
            {
                try
                {
                    final Random random = new Random(seed);
                    final List<Mailbox> held = new ArrayList<>();
                    start.await();
                    for (int i = 0; i < iterations; i++)
                    {
                        if (held.size() < maxHeld && (held.isEmpty() || random.nextBoolean()))
                        {
                            final int pool = pools[random.nextInt(pools.length)];
                            final MailboxType type = types[random.nextInt(types.length)];
                            final Mailbox mailbox = table.allocate(pool, type);
                            if (mailbox.poolId() != pool || mailbox.type() != type)
                            {
                                wrongKind.incrementAndGet();
                            }
                            if (!owned.computeIfAbsent(mailbox, m -> new AtomicBoolean()).compareAndSet(false, true))
                            {
                                doubleOwned.incrementAndGet();
                            }
                            held.add(mailbox);
                        }
                        else
                        {
                            final Mailbox mailbox = held.remove(random.nextInt(held.size()));
                            // give up ownership before the mailbox can be handed to anyone else
                            owned.get(mailbox).set(false);
                            table.release(mailbox);
                        }
                    }
                    for (final Mailbox mailbox : held)
                    {
                        owned.get(mailbox).set(false);
                        table.release(mailbox);
                    }
                }
                catch (final Throwable ex)
                {
                    failure.compareAndSet(null, ex);
                }
            }, "table-worker-" + t);
            worker.setDaemon(true);
            worker.start();
            workers.add(worker);
        }

        start.countDown();
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (final Thread worker : workers)
        {
            worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime())));
            assertThat(worker.isAlive()).as("%s finished", worker.getName()).isFalse();
        }

        assertThat(failure.get()).isNull();
        assertThat(doubleOwned.get()).as("mailboxes handed to two owners at once").isZero();
        assertThat(wrongKind.get()).as("mailboxes of the wrong pool or type").isZero();
        assertThat(owned.keySet().size()).isLessThanOrEqualTo(table.created());
        // reuse works: per pool and type, never more batches than mailboxes that could be held at once
        assertThat(table.created())
            .isLessThanOrEqualTo(threads * maxHeld * pools.length * types.length * MailboxTable.BATCH);
        // every mailbox was released at the end and none was lost from the free lists
        assertThat(table.vacant()).isEqualTo(table.created());

        final int[][] perKind = new int[2][MailboxType.values().length];
        table.forEach(mailbox -> perKind[mailbox.poolId()][mailbox.type().ordinal()]++);
        final int created = table.created();
        final Set<Mailbox> drained = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int pool = 0; pool < 2; pool++)
        {
            for (final MailboxType type : MailboxType.values())
            {
                for (int i = 0; i < perKind[pool][type.ordinal()]; i++)
                {
                    final Mailbox mailbox = table.allocate(pool, type);
                    assertThat(mailbox.poolId()).isEqualTo(pool);
                    assertThat(mailbox.type()).isEqualTo(type);
                    assertThat(drained.add(mailbox)).as("%s handed out twice", mailbox).isTrue();
                }
            }
        }
        assertThat(drained).hasSize(created);
        assertThat(table.created()).as("no new mailbox needed while draining").isEqualTo(created);
        assertThat(table.vacant()).isZero();
    }
}
