package io.troupe.actor;

import io.troupe.testing.Await;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;

import static io.troupe.actor.TestActors.USER_TYPE;
import static io.troupe.actor.TestActors.assertNothingArrives;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scheduled sends to any recipient (from the system and from actors, once and at a fixed rate, cancellable) and an
 * actor's keyed timers (a key's new timer replaces the old one; an event of a replaced or cancelled timer is never
 * delivered, even one already in the mailbox; timers end with their actor), on a running system.
 */
@Timeout(60)
class ScheduledSendsTest
{
    private static final int NODE = 23;
    private static final Duration QUIET = Duration.ofMillis(150);

    @AutoClose
    private final ActorSystem system = TestActors.start(NODE, 2);

    @Test
    void theSystemSchedulesOnceToAnActorARefAndAServiceAndACancelledOneNeverArrives() throws Exception
    {
        final TestActors.Recorder recorder = new TestActors.Recorder();
        final ActorId id = system.register(recorder);
        final ServiceKey<String> key = ServiceKey.of(String.class, "timed");
        system.registerService(key, ActorRef.of(id));

        system.scheduleOnce(Duration.ofMillis(5), id, "by id", USER_TYPE);
        final Envelope first = recorder.next();
        assertThat(first.event()).isEqualTo("by id");
        assertThat(first.type()).isEqualTo(USER_TYPE);
        assertThat(first.sender()).as("from outside any actor").isEqualTo(ActorId.NONE);
        system.scheduleOnce(Duration.ZERO, ActorRef.<String>of(id), "by ref");
        assertThat(recorder.next().event()).isEqualTo("by ref");
        system.scheduleOnce(Duration.ZERO, key, "by service");
        assertThat(recorder.next().event()).isEqualTo("by service");

        final Cancellable never = system.scheduleOnce(Duration.ofMillis(50), id, "cancelled", USER_TYPE);
        assertThat(never.cancel()).isTrue();
        final Cancellable fired = system.scheduleOnce(Duration.ZERO, id, "fired", USER_TYPE);
        assertThat(recorder.next().event()).isEqualTo("fired");
        assertThat(fired.cancel()).as("after it fired").isFalse();
        assertNothingArrives(recorder.received, Duration.ofMillis(200)); // well past the cancelled one's 50 ms
    }

    @Test
    void aFixedRateSendRepeatsUntilCancelledAndAnActorsSendsCarryItAsTheSender() throws Exception
    {
        final TestActors.Recorder recorder = new TestActors.Recorder();
        final ActorId id = system.register(recorder);
        final BlockingQueue<Cancellable> handles = new LinkedBlockingQueue<>();
        final ActorId scheduler = system.register((ctx, envelope) ->
            handles.add(ctx.scheduleAtFixedRate(Duration.ZERO, Duration.ofMillis(5), id, "beat", USER_TYPE)));

        system.send(scheduler, "start");
        final Cancellable beat = Await.next(handles);
        for (int i = 0; i < 3; i++)
        {
            final Envelope envelope = recorder.next();
            assertThat(envelope.event()).isEqualTo("beat");
            assertThat(envelope.sender()).as("the scheduling actor").isEqualTo(scheduler);
        }
        assertThat(beat.cancel()).isTrue();
        assertThat(beat.isCancelled()).isTrue();
        recorder.received.clear(); // one may have been on its way as the cancel came
        assertNothingArrives(recorder.received, QUIET);
    }

    @Test
    void aKeysNewTimerReplacesTheOldAndATimerFiresOnce() throws Exception
    {
        final BlockingQueue<Object> got = new LinkedBlockingQueue<>();
        final BlockingQueue<Boolean> active = new LinkedBlockingQueue<>();
        final ActorId actor = system.register((ctx, envelope) ->
        {
            final Object event = envelope.event();
            if ("arm".equals(event))
            {
                ctx.timers().startSingleTimer("k", "old", USER_TYPE, Duration.ofMillis(20));
                ctx.timers().startSingleTimer("k", "new", USER_TYPE, Duration.ofMillis(20));
                active.add(ctx.timers().isTimerActive("k"));
            }
            else if ("active?".equals(event))
            {
                active.add(ctx.timers().isTimerActive("k"));
            }
            else
            {
                assertThat(envelope.sender()).isEqualTo(ctx.self());
                assertThat(envelope.type()).isEqualTo(USER_TYPE);
                got.add(event);
            }
        });
        system.send(actor, "arm");
        assertThat(Await.next(active)).isTrue();
        assertThat(Await.next(got)).isEqualTo("new");
        system.send(actor, "active?");
        assertThat(Await.next(active)).as("a single timer is over once delivered").isFalse();
        assertNothingArrives(got, QUIET);
    }

    @Test
    void anEventOfACancelledTimerAlreadyInTheMailboxIsNotDelivered() throws Exception
    {
        final CountDownLatch proceed = new CountDownLatch(1);
        final BlockingQueue<Object> got = new LinkedBlockingQueue<>();
        final ActorId actor = system.register((ctx, envelope) ->
        {
            final Object event = envelope.event();
            if ("arm and wait".equals(event))
            {
                ctx.timers().startSingleTimer("k", "fired", USER_TYPE, Duration.ZERO);
                ctx.timers().startTimerAtFixedRate("r", "repeating", USER_TYPE, Duration.ZERO, Duration.ofMillis(1));
                // meanwhile both fire: their events wait in this mailbox
                Await.latch(proceed, "the test lets the handler go on");
                ctx.timers().cancel("k");
                ctx.timers().cancelAll();
            }
            else
            {
                got.add(event);
            }
        });
        final long firedBefore = system.counters().timersFired();
        system.send(actor, "arm and wait");
        Await.until(() -> system.counters().timersFired() >= firedBefore + 3, "both timers fired (one twice)");
        proceed.countDown();
        system.send(actor, "after");
        assertThat(Await.next(got)).as("nothing of the cancelled timers first").isEqualTo("after");
        assertNothingArrives(got, QUIET);
    }

    @Test
    void aTypedActorsTimersEndWhenItPassesAway() throws Exception
    {
        final BlockingQueue<String> got = new LinkedBlockingQueue<>();
        final ActorRef<String> actor = system.spawn(String.class, (ctx, event) ->
        {
            if ("start".equals(event))
            {
                ctx.timers().startTimerAtFixedRate("beat", "beat", Duration.ofMillis(2));
            }
            else if ("stop".equals(event))
            {
                ctx.passAway();
            }
            else
            {
                got.add(event);
            }
        });
        system.send(actor, "start");
        assertThat(Await.next(got)).isEqualTo("beat");
        assertThat(Await.next(got)).isEqualTo("beat");
        final long staleBefore = system.counters().timersStale();
        system.send(actor, "stop");
        Await.until(() -> system.counters().timersStale() > staleBefore, "the beat ran into its cancel");
        got.clear();
        assertNothingArrives(got, QUIET);
    }
}
