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
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.troupe.actor.TestActors.USER_TYPE;
import static io.troupe.actor.TestActors.assertNothingArrives;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ActorContext#schedule}: delayed events to self, stale timers.
 */
@Timeout(60)
class TimerTest
{
    private static final int NODE = 16;
    /** Generous upper bound on how late a timer may fire on a loaded two-core machine. */
    private static final long LATE_MS = 3_000;

    private ActorSystem system;

    @BeforeEach
    void setUp()
    {
        system = TestActors.start(NODE, 2);
    }

    @AfterEach
    void tearDown()
    {
        system.close();
    }

    /** A timer event that remembers when it was scheduled. */
    record Tick(String name, long scheduledAtNs, long delayMs)
    {
    }

    /** Records when each tick arrives, with the envelope. */
    record Arrival(Tick tick, long arrivedAtNs, Envelope envelope, ActorId self)
    {
        long elapsedMs()
        {
            return TimeUnit.NANOSECONDS.toMillis(arrivedAtNs - tick.scheduledAtNs());
        }
    }

    /** Schedules the ticks it is sent as a list; records arrivals. */
    private ActorId timerActor(final BlockingQueue<Arrival> arrivals)
    {
        return system.register((ctx, envelope) ->
        {
            final Object event = envelope.event();
            if (event instanceof Tick)
            {
                arrivals.add(new Arrival((Tick)event, System.nanoTime(), envelope, ctx.self()));
            }
            else if (event instanceof List<?>)
            {
                for (final Object item : (List<?>)event)
                {
                    final long delayMs = (Long)item;
                    ctx.schedule(Duration.ofMillis(delayMs), new Tick("t" + delayMs, System.nanoTime(), delayMs));
                }
            }
        });
    }

    @Test
    void scheduleDeliversToSelfAfterTheDelay() throws Exception
    {
        final BlockingQueue<Arrival> arrivals = new LinkedBlockingQueue<>();
        final ActorId actor = timerActor(arrivals);

        system.send(actor, List.of(200L));

        final Arrival arrival = Await.next(arrivals);
        assertThat(arrival.elapsedMs()).as("not before the delay").isGreaterThanOrEqualTo(200);
        assertThat(arrival.elapsedMs()).as("not very late either").isLessThan(200 + LATE_MS);
        assertThat(arrival.envelope().recipient()).isEqualTo(actor);
        assertThat(arrival.envelope().sender()).as("timers come from the actor itself").isEqualTo(actor);
        assertThat(arrival.self()).isEqualTo(actor);
        assertThat(system.counters().timersScheduled()).isEqualTo(1);
        assertThat(system.counters().timersFired()).isEqualTo(1);
        assertThat(system.counters().timersStale()).isZero();
    }

    @Test
    void timersFireInDeadlineOrderAndNeverEarly() throws Exception
    {
        final BlockingQueue<Arrival> arrivals = new LinkedBlockingQueue<>();
        final ActorId actor = timerActor(arrivals);

        system.send(actor, List.of(240L, 0L, 80L, 160L, 1L));

        final List<String> order = new ArrayList<>();
        for (int i = 0; i < 5; i++)
        {
            final Arrival arrival = Await.next(arrivals);
            order.add(arrival.tick().name());
            assertThat(arrival.elapsedMs()).as(arrival.tick().name()).isGreaterThanOrEqualTo(arrival.tick().delayMs());
            assertThat(arrival.elapsedMs()).as(arrival.tick().name()).isLessThan(arrival.tick().delayMs() + LATE_MS);
        }
        assertThat(order.subList(2, 5)).containsExactly("t80", "t160", "t240");
        assertThat(order.subList(0, 2)).containsExactlyInAnyOrder("t0", "t1");
        assertThat(system.counters().timersFired()).isEqualTo(5);
    }

    @Test
    void aDelayLongerThanOneTurnOfTheWheelIsNotCutShort() throws Exception
    {
        final BlockingQueue<Arrival> arrivals = new LinkedBlockingQueue<>();
        final ActorId actor = timerActor(arrivals);

        system.send(actor, List.of(1_300L, 40L));

        assertThat(Await.next(arrivals).tick().name()).isEqualTo("t40");
        final Arrival late = Await.next(arrivals);
        assertThat(late.tick().name()).isEqualTo("t1300");
        assertThat(late.elapsedMs()).isGreaterThanOrEqualTo(1_300).isLessThan(1_300 + LATE_MS);
    }

    @Test
    void aTimerWhoseCookieWasDetachedIsStaleAndNotDelivered() throws Exception
    {
        final BlockingQueue<Envelope> received = new LinkedBlockingQueue<>();
        final ActorId actor = system.register((ctx, envelope) ->
        {
            if ("arm".equals(envelope.event()))
            {
                final SchedulerCookie detached = new SchedulerCookie();
                ctx.schedule(Duration.ofMillis(50), "stale", USER_TYPE, detached);
                detached.detach();
                ctx.schedule(Duration.ofMillis(100), "fresh", USER_TYPE + 1, new SchedulerCookie());
            }
            else
            {
                received.add(envelope);
            }
        });

        system.send(actor, "arm");

        final Envelope fresh = Await.next(received);
        assertThat(fresh.event()).isEqualTo("fresh");
        assertThat(fresh.type()).isEqualTo(USER_TYPE + 1);
        // the stale timer was due before the fresh one, so it has been dealt with by now
        assertThat(system.counters().timersStale()).isEqualTo(1);
        assertThat(system.counters().timersFired()).isEqualTo(1);
        assertThat(system.counters().timersScheduled()).isEqualTo(2);
        assertNothingArrives(received, Duration.ofMillis(50));
        assertThat(system.counters().dropped()).isZero();
    }

    @Test
    void detachingTheCookieFromALaterEventMakesAPendingTimerStale() throws Exception
    {
        final BlockingQueue<Envelope> received = new LinkedBlockingQueue<>();
        final SchedulerCookie cookie = new SchedulerCookie();
        final ActorId actor = system.register((ctx, envelope) ->
        {
            if ("arm".equals(envelope.event()))
            {
                ctx.schedule(Duration.ofMillis(300), "should not arrive", USER_TYPE, cookie);
            }
            else if ("disarm".equals(envelope.event()))
            {
                cookie.detach();
                ctx.schedule(Duration.ofMillis(400), "marker", USER_TYPE, null);
            }
            else
            {
                received.add(envelope);
            }
        });

        system.send(actor, "arm");
        system.send(actor, "disarm");

        assertThat(Await.next(received).event()).isEqualTo("marker");
        assertThat(cookie.isAttached()).isFalse();
        assertThat(system.counters().timersStale()).isEqualTo(1);
        assertThat(system.counters().timersFired()).isEqualTo(1);
        assertThat(received).isEmpty();
    }

    @Test
    void aTimerForAnActorThatPassedAwayIsFiredButNotHandled() throws Exception
    {
        final BlockingQueue<Envelope> received = new LinkedBlockingQueue<>();
        final ActorId actor = system.register((ctx, envelope) ->
        {
            received.add(envelope);
            ctx.schedule(Duration.ofMillis(30), "too late");
            ctx.passAway();
        });

        system.send(actor, "schedule and go");

        assertThat(Await.next(received).event()).isEqualTo("schedule and go");
        Await.equal(() -> system.counters().timersFired(), 1L, "timers fired");
        Await.equal(() -> system.counters().dropped(), 1L, "the timer event is dropped (untracked)");
        assertThat(received).isEmpty();
    }

    @Test
    void manyActorsEachGetTheirOwnTimer() throws Exception
    {
        final int actors = 200;
        final BlockingQueue<String> wrong = new LinkedBlockingQueue<>();
        final BlockingQueue<ActorId> fired = new LinkedBlockingQueue<>();
        final List<ActorId> ids = new ArrayList<>();
        for (int i = 0; i < actors; i++)
        {
            ids.add(system.register((ctx, envelope) ->
            {
                if (envelope.event() instanceof ActorId)
                {
                    if (!envelope.event().equals(ctx.self()))
                    {
                        wrong.add(ctx.self() + " got the timer of " + envelope.event());
                    }
                    fired.add(ctx.self());
                }
                else
                {
                    ctx.schedule(Duration.ofMillis(20 + envelope.cookie() % 50), ctx.self());
                }
            }));
        }
        for (int i = 0; i < actors; i++)
        {
            system.send(ids.get(i), "arm", 0, 0, i);
        }
        final List<ActorId> got = new ArrayList<>();
        for (int i = 0; i < actors; i++)
        {
            got.add(Await.next(fired));
        }
        assertThat(got).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(wrong).isEmpty();
        assertThat(system.counters().timersFired()).isEqualTo(actors);
    }
}
