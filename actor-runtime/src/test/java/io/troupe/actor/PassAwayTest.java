package io.troupe.actor;

import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.troupe.actor.TestActors.USER_TYPE;
import static io.troupe.actor.TestActors.assertNothingArrives;
import static io.troupe.actor.TestActors.assertUndelivered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Passing away, poison, and reuse of a dead actor's mailbox.
 */
@Timeout(60)
class PassAwayTest
{
    private static final int NODE = 12;

    private final TestActors.DeadLetters deadLetters = new TestActors.DeadLetters();
    private ActorSystem system;

    @AfterEach
    void tearDown()
    {
        if (system != null)
        {
            system.close();
        }
    }

    private void start()
    {
        system = ActorSystem.start(TestActors.config(NODE).pool(PoolConfig.named("x").threads(2))
            .deadLetterHandler(deadLetters));
    }

    /** An actor that passes away on "die" and records everything else. */
    private static Behavior mortal(final BlockingQueue<Envelope> log)
    {
        return (ctx, envelope) ->
        {
            if ("die".equals(envelope.event()))
            {
                ctx.passAway();
            }
            else
            {
                log.add(envelope);
            }
        };
    }

    private ActorId deadActor() throws InterruptedException
    {
        final ActorId actor = system.register(mortal(new LinkedBlockingQueue<>()));
        final long alive = system.counters().actorsAlive();
        system.send(actor, "die");
        Await.equal(() -> system.counters().actorsAlive(), alive - 1, "actors alive after passing away");
        return actor;
    }

    @Test
    void passAwayListenersHearEachActorThatPassesAwayUntilClosedAndOneThatThrowsIsCounted() throws Exception
    {
        start();
        final BlockingQueue<ActorId> heard = new LinkedBlockingQueue<>();
        final AutoCloseable listening = system.onPassAway(heard::add);
        final AutoCloseable throwing = system.onPassAway(actor ->
        {
            throw new IllegalStateException("a faulty listener");
        });
        final ActorId first = system.register(mortal(new LinkedBlockingQueue<>()));
        final ActorId second = system.register(mortal(new LinkedBlockingQueue<>()));

        system.send(first, "die");
        assertThat(Await.next(heard)).isEqualTo(first);
        Await.until(() -> system.counters().handlerFailures() == 1, "the throw counted");
        throwing.close();
        system.send(second, "still alive?");
        assertThat(heard.poll(200, TimeUnit.MILLISECONDS)).as("only pass-aways").isNull();

        listening.close();
        system.send(second, "die");
        Await.until(() -> system.counters().actorsAlive() == 0, "the second passed away");
        assertThat(heard).as("no calls after close").isEmpty();
        assertThat(system.counters().handlerFailures()).isEqualTo(1);
    }

    @Test
    void trackedSendsFromAnActorToAnActorThatPassedAwayComeBackAsUndelivered() throws Exception
    {
        start();
        final ActorId dead = deadActor();
        final TestActors.Probe probe = new TestActors.Probe();
        final ActorId probeId = system.register(probe);
        final long undeliveredBefore = system.counters().undelivered();

        system.send(probeId, TestActors.Send.tracked(dead, "are you there", 4242L));

        assertUndelivered(probe.next(), probeId, dead, USER_TYPE, 4242L, UndeliveredReason.ACTOR_UNKNOWN);
        assertThat(system.counters().undelivered()).isEqualTo(undeliveredBefore + 1);
        assertThat(deadLetters.received).isEmpty();
    }

    @Test
    void trackedSendsFromOutsideToAnActorThatPassedAwayGoToTheDeadLetterHandler() throws Exception
    {
        start();
        final ActorId dead = deadActor();
        final long deadLettersBefore = system.counters().deadLetters();

        assertThat(system.send(dead, "hello?", USER_TYPE, Envelope.FLAG_TRACK_DELIVERY, 31L)).isTrue();

        final TestActors.DeadLetter letter = deadLetters.next();
        assertThat(letter.reason()).isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);
        assertThat(letter.envelope().event()).isEqualTo("hello?");
        assertThat(letter.envelope().cookie()).isEqualTo(31L);
        assertThat(letter.envelope().recipient()).isEqualTo(dead);
        assertThat(letter.envelope().sender().isNone()).isTrue();
        assertThat(system.counters().deadLetters()).isEqualTo(deadLettersBefore + 1);
        assertThat(system.counters().undelivered()).as("nobody to send a notice to").isZero();
    }

    @Test
    void untrackedSendsToAnActorThatPassedAwayAreDroppedAndCounted() throws Exception
    {
        start();
        final ActorId dead = deadActor();
        final TestActors.Probe probe = new TestActors.Probe();
        final ActorId probeId = system.register(probe);
        final long droppedBefore = system.counters().dropped();

        system.send(dead, "from outside");
        system.send(probeId, TestActors.Send.untracked(dead, "from an actor"));

        Await.equal(() -> system.counters().dropped(), droppedBefore + 2, "dropped");
        assertNothingArrives(probe.received, Duration.ofMillis(100));
        assertThat(deadLetters.received).isEmpty();
        assertThat(system.counters().undelivered()).isZero();
    }

    @Test
    void trackedEventsQueuedBehindThePassAwayAreUndeliveredInOrder() throws Exception
    {
        start();
        final BlockingQueue<Envelope> log = new LinkedBlockingQueue<>();
        final ActorId target = system.register(mortal(log));
        final TestActors.Probe probe = new TestActors.Probe();
        final ActorId probeId = system.register((ctx, envelope) ->
        {
            if ("go".equals(envelope.event()))
            {
                ctx.send(target, "die");
                for (int i = 1; i <= 20; i++)
                {
                    ctx.send(target, "after-" + i, USER_TYPE, Envelope.FLAG_TRACK_DELIVERY, i);
                }
            }
            else
            {
                probe.receive(ctx, envelope);
            }
        });
        system.send(probeId, "go");

        for (int i = 1; i <= 20; i++)
        {
            assertUndelivered(probe.next(), probeId, target, USER_TYPE, i, UndeliveredReason.ACTOR_UNKNOWN);
        }
        assertThat(log).as("nothing is handled after passing away").isEmpty();
        assertNothingArrives(probe.received, Duration.ofMillis(50));
    }

    @Test
    void poisonIsAnOrdinaryEventAndTheActorDecides() throws Exception
    {
        start();
        final BlockingQueue<Envelope> obedientLog = new LinkedBlockingQueue<>();
        final ActorId obedient = system.register((ctx, envelope) ->
        {
            obedientLog.add(envelope);
            if (envelope.event() == Poison.INSTANCE)
            {
                ctx.passAway();
            }
        });
        final TestActors.Recorder stubborn = new TestActors.Recorder();
        final ActorId stubbornId = system.register(stubborn);
        final long alive = system.counters().actorsAlive();

        system.send(obedient, Poison.INSTANCE, Poison.TYPE, 0, 0L);
        system.send(stubbornId, Poison.INSTANCE, Poison.TYPE, 0, 0L);

        final Envelope poisoned = Await.next(obedientLog);
        assertThat(poisoned.event()).isSameAs(Poison.INSTANCE);
        assertThat(poisoned.type()).isEqualTo(Poison.TYPE);
        Await.equal(() -> system.counters().actorsAlive(), alive - 1, "actors alive");

        final Envelope ignored = stubborn.next();
        assertThat(ignored.event()).isSameAs(Poison.INSTANCE);
        system.send(stubbornId, "still alive?");
        assertThat(stubborn.next().event()).isEqualTo("still alive?");

        final ExecutionException gone = assertThrows(ExecutionException.class,
            () -> system.ask(obedient, "still alive?", Await.DEFAULT_TIMEOUT)
                .get(Await.DEFAULT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        assertThat(gone.getCause()).isInstanceOf(UndeliveredException.class);
        assertThat(((UndeliveredException)gone.getCause()).undelivered().reason())
            .isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);
        assertThat(obedientLog).isEmpty();
        Await.equal(() -> system.counters().actorsAlive(), alive - 1, "actors alive after the ask");
    }

    @ParameterizedTest
    @EnumSource(MailboxType.class)
    void eventsForAnOldIdNeverReachTheActorThatReusedItsMailbox(final MailboxType type) throws Exception
    {
        start();
        final BlockingQueue<Envelope> oldLog = new LinkedBlockingQueue<>();
        final ActorId old = system.register(mortal(oldLog), 0, type);
        final long vacant = system.counters().mailboxesVacant();
        system.send(old, "die");
        Await.equal(() -> system.counters().mailboxesVacant(), vacant + 1, "vacant mailboxes");

        final TestActors.Recorder fresh = new TestActors.Recorder();
        final ActorId freshId = system.register(fresh, 0, type);
        assertThat(freshId.hint()).as("the vacant mailbox is reused").isEqualTo(old.hint());
        assertThat(freshId.poolId()).isEqualTo(old.poolId());
        assertThat(freshId.localId()).as("local ids are never reused").isNotEqualTo(old.localId());
        assertThat(freshId).isNotEqualTo(old);
        assertThat(system.counters().mailboxesVacant()).isEqualTo(vacant);

        final TestActors.Probe probe = new TestActors.Probe();
        final ActorId probeId = system.register(probe);
        for (int i = 1; i <= 10; i++)
        {
            system.send(probeId, TestActors.Send.tracked(old, "for-old-" + i, i));
            system.send(old, "untracked-for-old-" + i);
        }
        system.send(old, "tracked-from-outside", USER_TYPE, Envelope.FLAG_TRACK_DELIVERY, 77L);
        for (int i = 1; i <= 10; i++)
        {
            assertUndelivered(probe.next(), probeId, old, USER_TYPE, i, UndeliveredReason.ACTOR_UNKNOWN);
        }
        final TestActors.DeadLetter letter = deadLetters.next();
        assertThat(letter.reason()).isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);
        assertThat(letter.envelope().cookie()).isEqualTo(77L);

        system.send(freshId, "for-fresh");
        final Envelope received = fresh.next();
        assertThat(received.event()).isEqualTo("for-fresh");
        assertThat(received.recipient()).isEqualTo(freshId);
        // The old-id events were routed to the same mailbox before this one, so they were all processed by now.
        assertThat(fresh.received).isEmpty();
        assertThat(oldLog).isEmpty();
    }

    @Test
    void oneMailboxServesManyActorsInTurnWithoutMixingThemUp() throws Exception
    {
        start();
        final int rounds = 100;
        final List<ActorId> retired = new ArrayList<>();
        final BlockingQueue<Envelope> misdelivered = new LinkedBlockingQueue<>();
        long staleSends = 0;
        long createdAfterFirst = 0;
        long vacantAfterFirst = 0;
        for (int round = 0; round < rounds; round++)
        {
            final int me = round;
            final ActorId actor = system.register((ctx, envelope) ->
            {
                if (!Integer.valueOf(me).equals(envelope.event()))
                {
                    misdelivered.add(envelope);
                }
                ctx.passAway();
            });
            if (round == 0)
            {
                createdAfterFirst = system.counters().mailboxesCreated();
                vacantAfterFirst = system.counters().mailboxesVacant();
            }
            else
            {
                assertThat(actor.hint()).as("the mailbox just vacated is reused").isEqualTo(retired.get(0).hint());
            }
            for (final ActorId previous : retired)
            {
                system.send(previous, -1); // addressed to an earlier occupant: must not reach this one
                staleSends++;
            }
            system.send(actor, me);
            final long vacantWhenGone = vacantAfterFirst + 1;
            Await.until(() -> system.counters().actorsAlive() == 0 &&
                system.counters().mailboxesVacant() == vacantWhenGone,
                "actor " + round + " passed away and its mailbox is vacant");
            retired.add(actor);
        }
        assertThat(misdelivered).isEmpty();
        assertThat(system.counters().mailboxesCreated()).as("no new mailboxes").isEqualTo(createdAfterFirst);
        assertThat(system.counters().actorsRegistered()).isEqualTo(rounds);
        final long expectedDropped = staleSends;
        Await.equal(() -> system.counters().dropped(), expectedDropped, "stale events dropped");
        assertThatThrownBy(() -> system.register(null)).isInstanceOf(NullPointerException.class);
    }
}
