package io.troupe.actor;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.troupe.actor.TestActors.USER_TYPE;
import static io.troupe.actor.TestActors.liveThreads;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Shutdown: refusing sends, draining, the deadline, dead letters for what is left, threads exiting.
 */
@Timeout(60)
class ShutdownTest
{
    private static final int NODE = 17;
    /**
     * A drain deadline for shutdowns that are to drain (or have nothing to drain): generous, so that a slow machine
     * never reaches it; a test that such a shutdown is quick asserts it returns well before it.
     */
    private static final Duration DRAINS = Await.DEFAULT_TIMEOUT;
    /** How long a stopped pair must stay stopped. */
    private static final Duration STOPPED_WINDOW = Duration.ofMillis(50);

    private final TestActors.DeadLetters deadLetters = new TestActors.DeadLetters();
    private ActorSystem system;
    private String prefix;

    @AfterEach
    void tearDown()
    {
        if (system != null)
        {
            system.close();
        }
    }

    private ActorSystem start(final PoolConfig... pools)
    {
        final ActorSystemConfig config = TestActors.config(NODE).deadLetterHandler(deadLetters);
        for (final PoolConfig pool : pools)
        {
            config.pool(pool);
        }
        prefix = config.threadNamePrefix();
        system = ActorSystem.start(config);
        return system;
    }

    private static long millisSince(final long startNs)
    {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
    }

    @Test
    void shutdownOfAnIdleSystemIsQuickAndEveryRuntimeThreadExits()
    {
        start(PoolConfig.named("a").threads(2), PoolConfig.named("b").threads(1));
        assertThat(liveThreads(prefix)).containsExactlyInAnyOrder(
            prefix + NODE + "-a-0", prefix + NODE + "-a-1", prefix + NODE + "-b-0", prefix + NODE + "-timer");
        assertThat(system.isRunning()).isTrue();

        final long startNs = System.nanoTime();
        assertThat(system.shutdown(DRAINS)).as("drained and exited").isTrue();
        final long tookMs = millisSince(startNs);

        assertThat(system.isRunning()).isFalse();
        assertThat(tookMs).as("an idle system has nothing to wait for: far from the deadline")
            .isLessThan(DRAINS.toMillis() / 3);
        Await.until(() -> liveThreads(prefix).isEmpty(), "runtime threads exit");
    }

    @Test
    void sendsAsksAndRegistrationsAfterShutdownAreRefused() throws Exception
    {
        start(PoolConfig.named("x").threads(2));
        final TestActors.Recorder recorder = new TestActors.Recorder();
        final ActorId actor = system.register(recorder);
        system.close();

        assertThat(system.send(actor, "late")).isFalse();
        assertThat(system.counters().rejectedSends()).isEqualTo(1);
        assertThat(deadLetters.received).as("untracked: no dead letter").isEmpty();

        assertThat(system.send(actor, "late and tracked", USER_TYPE, Envelope.FLAG_TRACK_DELIVERY, 12L)).isFalse();
        final TestActors.DeadLetter letter = deadLetters.next();
        assertThat(letter.reason()).isEqualTo(UndeliveredReason.SHUTDOWN);
        assertThat(letter.envelope().cookie()).isEqualTo(12L);
        assertThat(letter.envelope().recipient()).isEqualTo(actor);
        assertThat(system.counters().rejectedSends()).isEqualTo(2);
        assertThat(system.counters().deadLetters()).isEqualTo(1);

        final CompletableFuture<Object> ask = system.ask(actor, "late question", Duration.ofSeconds(5));
        assertThat(ask).isCompletedExceptionally();
        final ExecutionException failed = assertThrows(ExecutionException.class,
            () -> ask.get(Await.DEFAULT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        assertThat(((UndeliveredException)failed.getCause()).undelivered().reason())
            .isEqualTo(UndeliveredReason.SHUTDOWN);
        assertThat(system.counters().rejectedSends()).isEqualTo(3);

        assertThatThrownBy(() -> system.register(recorder)).isInstanceOf(IllegalStateException.class);
        assertThat(recorder.received).isEmpty();
    }

    @Test
    void closeIsIdempotent()
    {
        start(PoolConfig.named("x").threads(1));
        system.close();
        final long startNs = System.nanoTime();
        system.close();
        assertThat(system.shutdown(DRAINS)).isTrue();
        assertThat(millisSince(startNs)).as("later calls return at once, not at a deadline")
            .isLessThan(DRAINS.toMillis() / 3);
        assertThat(system.isRunning()).isFalse();
        Await.until(() -> liveThreads(prefix).isEmpty(), "runtime threads exit");
    }

    @Test
    void shutdownLetsQueuedWorkDrainBeforeStopping() throws Exception
    {
        start(PoolConfig.named("x").threads(1));
        final AtomicLong handled = new AtomicLong();
        final ActorId actor = system.register((ctx, envelope) ->
        {
            TestActors.spin(TimeUnit.MICROSECONDS.toNanos(200));
            handled.incrementAndGet();
        });
        for (int i = 0; i < 1_000; i++)
        {
            system.send(actor, i, USER_TYPE, Envelope.FLAG_TRACK_DELIVERY, i);
        }

        assertThat(system.shutdown(DRAINS)).isTrue();

        assertThat(handled.get()).isEqualTo(1_000);
        assertThat(deadLetters.received).isEmpty();
        Await.until(() -> liveThreads(prefix).isEmpty(), "runtime threads exit");
    }

    @Test
    void eventsStillQueuedAtTheDeadlineEndExactlyOnceAsHandledDeadLetteredOrDropped()
    {
        start(PoolConfig.named("x").threads(1));
        final int events = 600;
        final ConcurrentLinkedQueue<Long> handled = new ConcurrentLinkedQueue<>();
        final CountDownLatch atWork = new CountDownLatch(1);
        final ActorSystem stopping = system;
        final ActorId slow = system.register((ctx, envelope) ->
        {
            if (envelope.cookie() == 0)
            {
                // the first event is handled during the drain, whenever the worker first got to run: so some event
                // is handled, and 599 x 2 ms of work are still queued when the drain begins
                atWork.countDown();
                Await.until(() -> !stopping.isRunning(), "shutdown begins");
            }
            TestActors.spin(TimeUnit.MILLISECONDS.toNanos(2));
            handled.add(envelope.cookie());
        });
        for (long i = 0; i < events; i++)
        {
            // odd cookies are tracked, even ones are not
            system.send(slow, "work", USER_TYPE, (i & 1) == 1 ? Envelope.FLAG_TRACK_DELIVERY : 0, i);
        }
        final long droppedBefore = system.counters().dropped();
        Await.latch(atWork, "the actor is at work");

        assertThat(system.shutdown(Duration.ofMillis(100))).as("not drained by the deadline").isFalse();

        final Set<Long> handledSet = new HashSet<>(handled);
        assertThat(handledSet).as("no event handled twice").hasSameSizeAs(handled);
        final List<Long> lettered = new ArrayList<>();
        for (final TestActors.DeadLetter letter : deadLetters.received)
        {
            assertThat(letter.reason()).isEqualTo(UndeliveredReason.SHUTDOWN);
            assertThat(letter.envelope().recipient()).isEqualTo(slow);
            lettered.add(letter.envelope().cookie());
        }
        assertThat(new HashSet<>(lettered)).as("no event dead-lettered twice").hasSameSizeAs(lettered);
        assertThat(handled).isNotEmpty();
        assertThat(lettered).isNotEmpty();

        final Set<Long> expectedLetters = new HashSet<>();
        long expectedDropped = 0;
        for (long i = 0; i < events; i++)
        {
            if (!handledSet.contains(i))
            {
                if ((i & 1) == 1)
                {
                    expectedLetters.add(i);
                }
                else
                {
                    expectedDropped++;
                }
            }
        }
        assertThat(lettered).containsExactlyInAnyOrderElementsOf(expectedLetters);
        assertThat(system.counters().dropped() - droppedBefore).isEqualTo(expectedDropped);
        assertThat(system.counters().deadLetters()).isEqualTo(expectedLetters.size());
        Await.until(() -> liveThreads(prefix).isEmpty(), "runtime threads exit");
    }

    @Test
    void aBacklogBehindABlockedActorIsDeadLetteredOnceAndNeverHandled() throws Exception
    {
        start(PoolConfig.named("x").threads(2));
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final ConcurrentLinkedQueue<Long> handled = new ConcurrentLinkedQueue<>();
        final ActorId blocked = system.register((ctx, envelope) ->
        {
            handled.add(envelope.cookie());
            if (envelope.cookie() == 0)
            {
                entered.countDown();
                try
                {
                    release.await(30, TimeUnit.SECONDS); // bounded: never hang the build
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }
        });
        system.send(blocked, "block", USER_TYPE, Envelope.FLAG_TRACK_DELIVERY, 0L);
        Await.latch(entered, "the actor to block");
        final int backlog = 50;
        for (long i = 1; i <= backlog; i++)
        {
            system.send(blocked, "queued", USER_TYPE, Envelope.FLAG_TRACK_DELIVERY, i);
        }

        final long startNs = System.nanoTime();
        final boolean clean = system.shutdown(Duration.ofMillis(100));
        final long tookMs = millisSince(startNs);

        assertThat(clean).as("a worker is stuck").isFalse();
        assertThat(tookMs).as("the stuck worker delays shutdown only boundedly").isLessThan(10_000);
        // the stuck worker owns its mailbox's queue: it reports the backlog itself once its handler returns
        assertThat(deadLetters.received).as("nobody else reads a queue its worker still owns").isEmpty();
        release.countDown();
        Await.until(() -> deadLetters.received.size() >= backlog, "the released worker reports its backlog");
        final List<Long> lettered = new ArrayList<>();
        for (final TestActors.DeadLetter letter : deadLetters.received)
        {
            assertThat(letter.reason()).isEqualTo(UndeliveredReason.SHUTDOWN);
            lettered.add(letter.envelope().cookie());
        }
        final List<Long> expected = new ArrayList<>();
        for (long i = 1; i <= backlog; i++)
        {
            expected.add(i);
        }
        assertThat(lettered).as("each queued event exactly once").containsExactlyInAnyOrderElementsOf(expected);

        Await.until(() -> liveThreads(prefix).isEmpty(), "the released worker exits");
        assertThat(handled).as("dead-lettered events are never handled afterwards").containsExactly(0L);
        assertThat(deadLetters.received).hasSize(backlog);
    }

    @Test
    void anIdleSystemDrainsEvenWithAZeroDeadline()
    {
        start(PoolConfig.named("x").threads(2));
        system.register((ctx, envelope) ->
        {
        });

        assertThat(system.shutdown(Duration.ZERO)).as("nothing to drain: a clean shutdown").isTrue();
    }

    @Test
    void pendingAsksFailWithShutdown() throws Exception
    {
        start(PoolConfig.named("x").threads(2));
        final ActorId silent = system.register((ctx, envelope) ->
        {
        });
        final CompletableFuture<Object> pending = system.ask(silent, "will you answer?", USER_TYPE,
            Duration.ofSeconds(30));
        Await.until(() -> system.counters().eventsHandled() == 1, "the request is handled");

        system.close();

        final ExecutionException failed = assertThrows(ExecutionException.class,
            () -> pending.get(Await.DEFAULT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        assertThat(failed.getCause()).isInstanceOf(UndeliveredException.class);
        final Undelivered undelivered = ((UndeliveredException)failed.getCause()).undelivered();
        assertThat(undelivered.reason()).isEqualTo(UndeliveredReason.SHUTDOWN);
        assertThat(undelivered.recipient()).isEqualTo(silent);
        assertThat(undelivered.type()).as("the request's type").isEqualTo(USER_TYPE);
        assertThat(system.counters().timersDiscarded()).as("the ask's timeout timer").isEqualTo(1);
    }

    @Test
    void pendingTimersAreDiscarded() throws Exception
    {
        start(PoolConfig.named("x").threads(1));
        final TestActors.Recorder recorder = new TestActors.Recorder();
        final ActorId actor = system.register((ctx, envelope) ->
        {
            if ("arm".equals(envelope.event()))
            {
                ctx.schedule(Duration.ofSeconds(10), "much later");
                ctx.schedule(Duration.ofSeconds(20), "even later");
            }
            recorder.receive(ctx, envelope);
        });
        system.send(actor, "arm");
        assertThat(recorder.next().event()).isEqualTo("arm");
        Await.until(() -> system.counters().timersScheduled() == 2, "timers scheduled");

        assertThat(system.shutdown(DRAINS)).isTrue();

        assertThat(system.counters().timersDiscarded()).isEqualTo(2);
        assertThat(system.counters().timersFired()).isZero();
        assertThat(recorder.received).isEmpty();
    }

    @Test
    void aPingPongPairRunningForeverDoesNotPreventShutdown() throws Exception
    {
        start(PoolConfig.named("x").threads(2));
        final AtomicLong bounces = new AtomicLong();
        final Behavior bounce = (ctx, envelope) ->
        {
            bounces.incrementAndGet();
            ctx.send(envelope.sender(), "ball", USER_TYPE, Envelope.FLAG_TRACK_DELIVERY, envelope.cookie() + 1);
        };
        final ActorId ping = system.register(bounce);
        final ActorId pong = system.register(bounce);
        ActorSystemSpi.of(system).send(
            new Envelope(ping, pong, USER_TYPE, Envelope.FLAG_TRACK_DELIVERY, 0L, "ball", null));
        Await.until(() -> bounces.get() > 10_000, "the pair to get going");

        final long startNs = System.nanoTime();
        final boolean clean = system.shutdown(Duration.ofMillis(200));
        final long tookMs = millisSince(startNs);

        assertThat(clean).as("never quiet, so not drained").isFalse();
        // at the deadline, then the workers' stop (at most 1 s each, and they are not stuck): bounded, not quick
        assertThat(tookMs).isGreaterThanOrEqualTo(200).isLessThan(10_000);
        Await.until(() -> liveThreads(prefix).isEmpty(), "runtime threads exit");
        final long after = bounces.get();
        Await.holdsFor(STOPPED_WINDOW, () -> bounces.get() == after, "the pair stopped");
        // there was one ball in flight: it ends as exactly one dead letter
        final TestActors.DeadLetter letter = deadLetters.next();
        assertThat(letter.reason()).isEqualTo(UndeliveredReason.SHUTDOWN);
        assertThat(letter.envelope().recipient()).isIn(ping, pong);
        assertThat(deadLetters.received).isEmpty();
    }
}
