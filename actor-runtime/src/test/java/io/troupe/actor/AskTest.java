package io.troupe.actor;

import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static io.troupe.actor.TestActors.USER_TYPE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link ActorSystem#ask} from a non-actor thread.
 */
@Timeout(60)
class AskTest
{
    private static final int NODE = 15;
    /** The timeout of an ask that is to be answered (or to fail otherwise): never reached, even on a slow machine. */
    private static final Duration ANSWERED = Await.DEFAULT_TIMEOUT;
    /**
     * The timeout of an ask that is answered and whose timer is then to go stale within the test: long enough for the
     * reply to come first on a slow machine, short enough to wait for.
     */
    private static final Duration ANSWERED_THEN_STALE = Duration.ofSeconds(2);

    private ActorSystem system;
    private final BlockingQueue<Envelope> requests = new LinkedBlockingQueue<>();
    private ActorId echo;
    private ActorId silent;

    @BeforeEach
    void setUp()
    {
        system = TestActors.start(NODE, 2);
        echo = system.register((ctx, envelope) ->
        {
            requests.add(envelope);
            ctx.reply("first:" + envelope.event());
            ctx.reply("second:" + envelope.event());
        });
        silent = system.register((ctx, envelope) -> requests.add(envelope));
    }

    @AfterEach
    void tearDown()
    {
        system.close();
    }

    private static Throwable failureOf(final CompletableFuture<Object> future)
    {
        final ExecutionException failed = assertThrows(ExecutionException.class,
            () -> future.get(ANSWERED.toMillis(), TimeUnit.MILLISECONDS));
        return failed.getCause();
    }

    @Test
    void askCompletesWithTheFirstReply() throws Exception
    {
        final CompletableFuture<Object> reply = system.ask(echo, "ping", USER_TYPE, ANSWERED);

        assertThat(reply.get(ANSWERED.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("first:ping");
        final Envelope request = Await.next(requests);
        assertThat(request.type()).isEqualTo(USER_TYPE);
        assertThat(request.isTracked()).as("ask requests are tracked").isTrue();
        assertThat(request.sender().isNone()).as("the asker is a temporary actor").isFalse();
        assertThat(request.sender().nodeId()).isEqualTo(NODE);
        assertThat(request.recipient()).isEqualTo(echo);
        // the second reply finds the asker gone: dropped and counted as a late reply
        Await.equal(() -> system.counters().lateReplies(), 1L, "the second reply is a late reply");
        assertThat(system.counters().dropped()).isZero();
    }

    @Test
    void aReplyKeepsTheRequestsTypeOnlyWhenItIsOfTheRequestsClass() throws Exception
    {
        final BlockingQueue<Envelope> replies = new LinkedBlockingQueue<>();
        final ActorId lengths = system.register((ctx, envelope) ->
        {
            ctx.reply(envelope.event());                          // an echo: a String, as asked
            ctx.reply(((String)envelope.event()).length());       // an answer of another class
        });
        final ActorId asker = system.register((ctx, envelope) ->
        {
            if ("go".equals(envelope.event()))
            {
                ctx.send(lengths, "four", USER_TYPE, 0, 7L);
            }
            else
            {
                replies.add(envelope);
            }
        });

        system.send(asker, "go");

        final Envelope echoed = Await.next(replies);
        assertThat(echoed.event()).isEqualTo("four");
        assertThat(echoed.type()).isEqualTo(USER_TYPE);
        assertThat(echoed.cookie()).isEqualTo(7L);
        final Envelope answered = Await.next(replies);
        assertThat(answered.event()).isEqualTo(4);
        assertThat(answered.type()).as("typed by its class, so it finds its own codec across nodes")
            .isEqualTo(EventTypes.BY_CLASS);
        assertThat(answered.cookie()).isEqualTo(7L);
    }

    @Test
    void askTimesOutWhenNoReplyComes() throws Exception
    {
        final long firedBefore = system.counters().timersFired();
        final long start = System.nanoTime();
        final CompletableFuture<Object> reply = system.ask(silent, "hello?", Duration.ofMillis(150));

        final Throwable cause = failureOf(reply);

        final long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(cause).isInstanceOf(TimeoutException.class);
        assertThat(elapsedMs).isGreaterThanOrEqualTo(150);
        assertThat(Await.next(requests).event()).isEqualTo("hello?");
        assertThat(system.counters().timersFired()).isEqualTo(firedBefore + 1);
        Await.equal(() -> system.counters().actorsAlive(), 2L, "actors alive");
    }

    @Test
    void askToAnActorThatDoesNotExistFailsWithUndelivered() throws Exception
    {
        final ActorId mortal = system.register((ctx, envelope) -> ctx.passAway());
        system.send(mortal, "die");
        Await.equal(() -> system.counters().actorsAlive(), 2L, "actors alive");
        final ActorId neverExisted = ActorId.of(NODE, 987_654, 3_000);

        for (final ActorId target : List.of(mortal, neverExisted))
        {
            final CompletableFuture<Object> reply = system.ask(target, "hello?", USER_TYPE, ANSWERED);

            final Throwable cause = failureOf(reply); // an Undelivered, not the timeout
            assertThat(cause).isInstanceOf(UndeliveredException.class);
            final Undelivered undelivered = ((UndeliveredException)cause).undelivered();
            assertThat(undelivered.reason()).isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);
            assertThat(undelivered.recipient()).isEqualTo(target);
            assertThat(undelivered.type()).isEqualTo(USER_TYPE);
            assertThat(cause.getMessage()).contains(target.toString()).contains("ACTOR_UNKNOWN");
        }
        Await.equal(() -> system.counters().actorsAlive(), 2L, "askers passed away");
    }

    @Test
    void askersDoNotLeak() throws Exception
    {
        final long baseline = system.counters().actorsAlive();
        final ActorId nobody = ActorId.of(NODE, 987_654, 3_000);
        final List<CompletableFuture<Object>> replies = new ArrayList<>();
        final List<CompletableFuture<Object>> failures = new ArrayList<>();
        for (int i = 0; i < 300; i++)
        {
            replies.add(system.ask(echo, i, ANSWERED));
            failures.add(system.ask(nobody, i, ANSWERED));
            if (i % 30 == 0)
            {
                failures.add(system.ask(silent, i, Duration.ofMillis(50)));
            }
        }
        for (int i = 0; i < replies.size(); i++)
        {
            assertThat(replies.get(i).get(ANSWERED.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("first:" + i);
        }
        for (final CompletableFuture<Object> failure : failures)
        {
            assertThat(failureOf(failure)).isInstanceOfAny(UndeliveredException.class, TimeoutException.class);
        }
        Await.equal(() -> system.counters().actorsAlive(), baseline, "actors alive after all asks");
        Await.until(() -> system.counters().mailboxesVacant() == system.counters().mailboxesCreated() - 2,
            "every asker's mailbox is vacant again");
    }

    @Test
    void aCompletedAsksTimerIsStaleRatherThanDropped() throws Exception
    {
        final SystemCounters before = system.counters();

        assertThat(system.ask(echo, "quick", ANSWERED_THEN_STALE).get(ANSWERED.toMillis(), TimeUnit.MILLISECONDS))
            .isEqualTo("first:quick");

        Await.equal(() -> system.counters().timersStale(), before.timersStale() + 1, "stale timers");
        final SystemCounters after = system.counters();
        assertThat(after.timersScheduled()).isEqualTo(before.timersScheduled() + 1);
        assertThat(after.timersFired()).isEqualTo(before.timersFired());
        // exactly one late reply (the echo's second), and the timer is neither dropped nor late
        Await.equal(() -> system.counters().lateReplies(), before.lateReplies() + 1, "late replies");
        assertThat(after.dropped()).isEqualTo(before.dropped());
        assertThat(after.deadLetters()).isEqualTo(before.deadLetters());
    }

    @Test
    void askTimeoutMustBePositive()
    {
        assertThatThrownBy(() -> system.ask(echo, "x", Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> system.ask(echo, "x", Duration.ofMillis(-1)))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> system.ask(echo, "x", null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> system.ask(null, "x", Duration.ofSeconds(1))).isInstanceOf(NullPointerException.class);
        assertThat(system.counters().actorsAlive()).isEqualTo(2);
    }

    @Test
    void manyThreadsAskConcurrently() throws Exception
    {
        final int threads = 4;
        final int perThread = 200;
        final List<Thread> askers = new ArrayList<>();
        final BlockingQueue<String> wrong = new LinkedBlockingQueue<>();
        for (int t = 0; t < threads; t++)
        {
            final int base = t * perThread;
            final Thread thread = new Thread(() ->
            {
                for (int i = base; i < base + perThread; i++)
                {
                    try
                    {
                        final Object reply =
                            system.ask(echo, i, ANSWERED).get(ANSWERED.toMillis(), TimeUnit.MILLISECONDS);
                        if (!("first:" + i).equals(reply))
                        {
                            wrong.add(i + " -> " + reply);
                        }
                    }
                    catch (final Exception ex)
                    {
                        wrong.add(i + " -> " + ex);
                    }
                }
            });
            thread.start();
            askers.add(thread);
        }
        for (final Thread thread : askers)
        {
            thread.join(ANSWERED.toMillis());
            assertThat(thread.isAlive()).isFalse();
        }
        assertThat(wrong).isEmpty();
        Await.equal(() -> system.counters().actorsAlive(), 2L, "actors alive");
    }
}
