package io.troupe.memquota;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Several threads claiming and releasing at once must leave the accounting exact. */
class ClaimReleaseStressTest
{
    private static final int THREADS = 4;
    private static final long RUN_NS = TimeUnit.MILLISECONDS.toNanos(1_000);

    @Test
    @Timeout(30)
    void threadsSharingOneParticipation() throws InterruptedException
    {
        try (MemoryQuotaTracker tracker = MemoryQuotaTracker.create(MemoryQuotaConfig.of(1L << 40), () -> 0L);
             Account account = tracker.newAccount())
        {
            final FakeParticipant participant = FakeParticipant.register(account, "shared", 0);
            final List<Participation> perThread = new ArrayList<>();
            for (int i = 0; i < THREADS; i++)
            {
                perThread.add(participant.participation);
            }
            hammer(perThread);
            check(tracker, List.of(participant.participation));
        }
    }

    @Test
    @Timeout(30)
    void threadsWithTheirOwnParticipationsOfOneAccount() throws InterruptedException
    {
        try (MemoryQuotaTracker tracker = MemoryQuotaTracker.create(MemoryQuotaConfig.of(1L << 40), () -> 0L);
             Account account = tracker.newAccount())
        {
            final List<FakeParticipant> participants = new ArrayList<>();
            final List<Participation> perThread = new ArrayList<>();
            for (int i = 0; i < THREADS; i++)
            {
                final FakeParticipant participant = FakeParticipant.register(account, "p" + i, 0);
                participants.add(participant);
                perThread.add(participant.participation);
            }
            hammer(perThread);
            check(tracker, perThread);
            assertThat(participants).hasSize(THREADS); // strongly held to the end
        }
    }

    private static void hammer(final List<Participation> perThread) throws InterruptedException
    {
        final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        final CountDownLatch start = new CountDownLatch(1);
        final List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < perThread.size(); t++)
        {
            final Participation participation = perThread.get(t);
            final long seed = 0x5eed + t;
            final Thread thread = new Thread(() ->
            {
                final SplittableRandom random = new SplittableRandom(seed);
                final Deque<Long> held = new ArrayDeque<>();
                try
                {
                    start.await();
                    final long end = System.nanoTime() + RUN_NS;
                    long ops = 0;
                    while ((ops++ & 255) != 0 || System.nanoTime() < end)
                    {
                        if (held.isEmpty() || held.size() < 64 && random.nextBoolean())
                        {
                            final long bytes = random.nextInt(4) == 0 ? random.nextLong(1, 40_000) :
                                random.nextLong(1, 2_000);
                            participation.claim(bytes);
                            held.add(bytes);
                        }
                        else
                        {
                            participation.release(random.nextBoolean() ? held.pollFirst() : held.pollLast());
                        }
                    }
                    while (!held.isEmpty())
                    {
                        participation.release(held.poll());
                    }
                }
                catch (final Throwable ex)
                {
                    errors.add(ex);
                }
            }, "memquota-stress-" + t);
            threads.add(thread);
            thread.start();
        }
        start.countDown();
        for (final Thread thread : threads)
        {
            thread.join();
        }
        assertThat(errors).isEmpty();
    }

    private static void check(final MemoryQuotaTracker tracker, final List<Participation> participations)
    {
        long sumUsed = 0;
        long sumLocal = 0;
        for (final Participation participation : participations)
        {
            assertThat(participation.isGone()).isFalse();
            assertThat(participation.localCacheBytes()).isBetween(0L, Participation.LOCAL_CACHE_MAX_BYTES);
            sumUsed += participation.usedBytes();
            sumLocal += participation.localCacheBytes();
        }
        // everything was released: what is left is exactly the local caches
        assertThat(tracker.usedBytes()).isEqualTo(sumUsed).isEqualTo(sumLocal);
    }
}
