package io.troupe.actor;

import io.troupe.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-thread striped sum under the credit account's debt. */
@Timeout(30)
class StripedDebtTest
{
    @Test
    void oneThreadsAddsAreSummed()
    {
        final StripedDebt debt = new StripedDebt();
        assertThat(debt.sum()).isZero();
        debt.add(5);
        debt.add(-2);
        assertThat(debt.sum()).isEqualTo(3);
        assertThat(debt.cellCount()).isEqualTo(1);
    }

    @Test
    void concurrentAddsFromMoreLiveThreadsThanSlotsAreAllCounted() throws Exception
    {
        final StripedDebt debt = new StripedDebt();
        final int threads = StripedDebt.SLOTS * 2 + 3; // some share a slot with a live thread: the overflow
        final int adds = 20_000;
        final CyclicBarrier start = new CyclicBarrier(threads);
        final List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++)
        {
            final long step = t + 1;
            final Thread thread = new Thread(() ->
            {
                await(start);
                for (int i = 0; i < adds; i++)
                {
                    debt.add(step);
                    debt.add(i % 3 == 0 ? -step : 0);
                }
            });
            running.add(thread);
            thread.start();
        }
        long expected = 0;
        for (int t = 0; t < threads; t++)
        {
            running.get(t).join();
            expected += (t + 1L) * adds - (t + 1L) * ((adds + 2) / 3);
        }
        assertThat(debt.sum()).isEqualTo(expected);
        assertThat(debt.cellCount()).isLessThanOrEqualTo(StripedDebt.SLOTS);
    }

    @Test
    void liveThreadsWhoseIdsCollideEachGetACellOfTheirOwn() throws Exception
    {
        // a producer whose id collides with a worker's must not fall back to the overflow (a lock-free but
        // contended adder) on every send: it takes the next free slot
        final StripedDebt debt = new StripedDebt();
        final CountDownLatch done = new CountDownLatch(1);
        final CountDownLatch added = new CountDownLatch(StripedDebt.PROBES);
        final List<Thread> colliding = new ArrayList<>();
        Thread first = null;
        while (colliding.size() < StripedDebt.PROBES)
        {
            final Thread thread = new Thread(() ->
            {
                debt.add(5);
                added.countDown();
                Await.latch(done, "the test's signal"); // stay alive, so no cell can be taken over
            });
            if (first == null || (thread.getId() - first.getId()) % StripedDebt.SLOTS == 0)
            {
                first = first == null ? thread : first;
                colliding.add(thread);
            }
        }
        for (final Thread thread : colliding)
        {
            thread.start();
        }
        Await.latch(added, "the test's signal");
        assertThat(debt.sum()).isEqualTo(5L * StripedDebt.PROBES);
        assertThat(debt.cellCount()).as("every colliding thread owns a cell").isEqualTo(StripedDebt.PROBES);
        assertThat(debt.overflowSum()).isZero();
        done.countDown();
        for (final Thread thread : colliding)
        {
            thread.join();
        }
    }

    @Test
    void aDeadThreadsCellIsTakenOverWithItsSumSoShortLivedThreadsDoNotGrowTheTable() throws Exception
    {
        final StripedDebt debt = new StripedDebt();
        for (int i = 0; i < 200; i++)
        {
            final Thread thread = new Thread(() -> debt.add(1));
            thread.start();
            thread.join();
        }
        assertThat(debt.sum()).isEqualTo(200);
        assertThat(debt.cellCount()).isLessThanOrEqualTo(StripedDebt.SLOTS);
    }

    @Test
    void aSumReadWhileThreadsAddSeesEveryAddThatFinishedBeforeIt() throws Exception
    {
        final StripedDebt debt = new StripedDebt();
        final CountDownLatch added = new CountDownLatch(4);
        final CountDownLatch done = new CountDownLatch(1);
        for (int t = 0; t < 4; t++)
        {
            final Thread thread = new Thread(() ->
            {
                debt.add(10);
                added.countDown();
                Await.latch(done, "the test's signal");
            });
            thread.start();
        }
        Await.latch(added, "every thread added");
        assertThat(debt.sum()).isEqualTo(40);
        done.countDown();
    }

    private static void await(final CyclicBarrier barrier)
    {
        try
        {
            barrier.await();
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
