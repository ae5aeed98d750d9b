package io.troupe.actor;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.actor.spi.RemoteTransport;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The typed layer: {@link ActorRef}, {@link TypedBehavior}, typed asks from outside and from actors, signals and
 * {@link ServiceKey}s, over the untyped runtime.
 */
@Timeout(60)
class TypedActorTest
{
    private static final int NODE = 21;
    /** The timeout of an ask that is to be answered (or to fail otherwise): never reached, even on a slow machine. */
    private static final Duration ANSWERED = Await.DEFAULT_TIMEOUT;
    /**
     * The timeout of an ask that is to time out (the counter stalls its reply), from outside: the test checks the
     * ask is pending before it times out, so long enough for that check to come first on a slow machine.
     */
    private static final Duration STALLED = Duration.ofSeconds(1);

    sealed interface CounterCommand permits Increment, GetCount, Stall
    {
    }

    record Increment(int by) implements CounterCommand
    {
    }

    record GetCount(ActorRef<Count> replyTo) implements CounterCommand
    {
    }

    /** Holds the reply until a {@code Release} comes, to make an ask time out and its reply arrive late. */
    record Stall(ActorRef<Count> replyTo) implements CounterCommand
    {
    }

    record Count(long value)
    {
    }

    /** A counter that can hold back a reply. */
    static final class Counter implements TypedBehavior<CounterCommand>
    {
        long count;
        ActorRef<Count> stalled;
        final BlockingQueue<Object> signals = new LinkedBlockingQueue<>();

        @Override
        public void receive(final TypedContext<CounterCommand> ctx, final CounterCommand command)
        {
            if (command instanceof Increment)
            {
                count += ((Increment)command).by();
            }
            else if (command instanceof GetCount)
            {
                ctx.send(((GetCount)command).replyTo(), new Count(count));
            }
            else
            {
                stalled = ((Stall)command).replyTo();
            }
        }

        @Override
        public boolean receiveSignal(final TypedContext<CounterCommand> ctx, final Object signal)
        {
            if ("release".equals(signal))
            {
                ctx.send(stalled, new Count(count));
                return true;
            }
            if (signal instanceof Undelivered)
            {
                signals.add(signal);
                return true;
            }
            return false;
        }
    }

    private ActorSystem system;
    private Counter counter;
    private ActorRef<CounterCommand> counterRef;

    @BeforeEach
    void setUp()
    {
        system = TestActors.start(NODE, 2);
        counter = new Counter();
        counterRef = system.spawn(CounterCommand.class, counter);
    }

    @AfterEach
    void tearDown()
    {
        system.close();
    }

    private static Throwable failureOf(final CompletableFuture<?> future)
    {
        return assertThrows(ExecutionException.class, () -> future.get(ANSWERED.toMillis(), TimeUnit.MILLISECONDS))
            .getCause();
    }

    @Test
    void typedSendsAndAnAskFromOutsideGiveATypedReply() throws Exception
    {
        system.send(counterRef, new Increment(2));
        system.send(counterRef, new Increment(3));

        final CompletableFuture<Count> count = system.ask(counterRef, GetCount::new, Count.class, ANSWERED);

        assertThat(count.get(ANSWERED.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(new Count(5));
        assertThat(counterRef.id().nodeId()).isEqualTo(NODE);
        Await.equal(() -> system.counters().asksPending(), 0L, "the reply slot is freed");
    }

    @Test
    void aTimedOutAskFreesItsSlotAtOnceAndItsLateReplyIsDroppedAndCounted() throws Exception
    {
        final long alive = system.counters().actorsAlive();
        final CompletableFuture<Count> count = system.ask(counterRef, Stall::new, Count.class, STALLED);
        assertThat(system.counters().asksPending()).isEqualTo(1);

        assertThat(failureOf(count)).isInstanceOf(TimeoutException.class).hasMessageContaining(counterRef.toString());
        assertThat(system.counters().asksPending()).as("freed when the ask times out").isZero();
        assertThat(system.counters().asksTimedOut()).isEqualTo(1);
        Await.equal(() -> system.counters().actorsAlive(), alive, "the reply slot passed away");

        system.send(counterRef.id(), "release");
        Await.equal(() -> system.counters().lateReplies(), 1L, "the late reply is counted");
        assertThat(system.counters().dropped()).as("a late reply is not an ordinary drop").isZero();
        assertThat(system.counters().undelivered()).isZero();
    }

    @Test
    void anAskWhoseSendFailsFailsAtOnceAndFreesItsSlot() throws Exception
    {
        final int otherNode = 7;
        ActorSystemSpi.of(system).attachRemote(new RemoteTransport()
        {
            @Override
            public UndeliveredReason send(final Envelope envelope)
            {
                throw new IllegalArgumentException("no codec is registered for event class " +
                    envelope.event().getClass().getName());
            }

            @Override
            public void subscribe(final int nodeId, final ActorId subscriber)
            {
            }

            @Override
            public void unsubscribe(final int nodeId, final ActorId subscriber)
            {
            }
        });
        final long alive = system.counters().actorsAlive();
        final ActorRef<CounterCommand> remote = ActorRef.of(ActorId.of(otherNode, 5, 5));

        // from outside: the exception reaches the caller, as from a send, and the slot is freed
        assertThatThrownBy(() -> system.ask(remote, GetCount::new, Count.class, Duration.ofSeconds(30)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no codec");
        assertThat(system.counters().asksPending()).isZero();
        Await.equal(() -> system.counters().actorsAlive(), alive, "the reply slot passed away");

        // from an actor: the handler fails with it (counted), and the slot is freed with no outcome
        final BlockingQueue<Object> outcomes = new LinkedBlockingQueue<>();
        final ActorRef<String> asker = system.spawn(String.class, (ctx, text) ->
            ctx.ask(remote, GetCount::new, Count.class, Duration.ofSeconds(30),
                (reply, failure) -> String.valueOf(failure)));
        final long aliveWithAsker = system.counters().actorsAlive();
        system.send(asker, "go");
        Await.equal(() -> system.counters().handlerFailures(), 1L, "the asker's handler failed");
        assertThat(system.counters().asksPending()).isZero();
        Await.equal(() -> system.counters().actorsAlive(), aliveWithAsker, "the reply slot passed away");
        assertThat(system.counters().asksTimedOut()).isZero();
        assertThat(outcomes).isEmpty();
    }

    @Test
    void aReplyOfAnotherTypeFailsTheAsk() throws Exception
    {
        final ActorRef<String> echo = system.spawn(String.class, (ctx, text) -> ctx.untyped().reply(text.length()));

        final CompletableFuture<Count> count = system.ask(echo, replyTo -> "four", Count.class, ANSWERED);

        assertThat(failureOf(count)).isInstanceOf(ClassCastException.class)
            .hasMessageContaining("java.lang.Integer").hasMessageContaining(Count.class.getName());
        assertThat(system.counters().asksPending()).isZero();
    }

    /** Asks the counter from inside an actor and records each outcome, adapted into its own event type. */
    record Outcome(long count, Throwable failure)
    {
    }

    @Test
    void anActorAsksAndItsReplyOrTimeoutArrivesAsItsOwnEvent() throws Exception
    {
        final BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
        final BlockingQueue<String> threads = new LinkedBlockingQueue<>();
        final ActorRef<Object> asker = system.spawn(Object.class, (ctx, event) ->
        {
            threads.add(Thread.currentThread().getName());
            if (event instanceof Outcome)
            {
                outcomes.add((Outcome)event);
            }
            else if ("ask".equals(event))
            {
                ctx.ask(counterRef, GetCount::new, Count.class, ANSWERED,
                    (count, failure) -> new Outcome(count == null ? -1 : count.value(), failure));
            }
            else if ("stall".equals(event))
            {
                ctx.ask(counterRef, Stall::new, Count.class, Duration.ofMillis(100),
                    (count, failure) -> new Outcome(count == null ? -1 : count.value(), failure));
            }
        });
        final long alive = system.counters().actorsAlive();
        system.send(counterRef, new Increment(4));

        system.send(asker, "ask");
        final Outcome replied = Await.next(outcomes);
        assertThat(replied.count()).isEqualTo(4);
        assertThat(replied.failure()).isNull();

        system.send(asker, "stall");
        final Outcome timedOut = Await.next(outcomes);
        assertThat(timedOut.failure()).isInstanceOf(TimeoutException.class);
        assertThat(system.counters().asksTimedOut()).isEqualTo(1);
        assertThat(system.counters().asksPending()).isZero();
        Await.equal(() -> system.counters().actorsAlive(), alive, "both reply slots passed away");

        system.send(counterRef.id(), "release");
        Await.equal(() -> system.counters().lateReplies(), 1L, "the late reply is counted");
        assertThat(outcomes).as("a late reply never reaches the asker").isEmpty();
        assertThat(threads).as("the asker handles its own events and outcomes").hasSize(4);
    }

    @Test
    void anActorsAskOfAnActorThatDoesNotExistEndsWithUndelivered() throws Exception
    {
        final BlockingQueue<Throwable> failures = new LinkedBlockingQueue<>();
        final ActorRef<CounterCommand> nobody = ActorRef.of(ActorId.of(NODE, 987_654, 3_000));
        final ActorRef<Object> asker = system.spawn(Object.class, (ctx, event) ->
        {
            if (event instanceof Throwable)
            {
                failures.add((Throwable)event);
            }
            else
            {
                ctx.ask(nobody, GetCount::new, Count.class, Duration.ofSeconds(30), (count, failure) -> failure);
            }
        });

        system.send(asker, "go");

        final Throwable failure = Await.next(failures);
        assertThat(failure).isInstanceOf(UndeliveredException.class);
        assertThat(((UndeliveredException)failure).undelivered().reason()).isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);
        assertThat(system.counters().asksPending()).isZero();
    }

    @Test
    void eventsOfAnotherTypeGoToSignalsAndUnhandledOnesAreCounted() throws Exception
    {
        final ActorRef<CounterCommand> gone = system.spawn(CounterCommand.class, (ctx, command) -> ctx.passAway());
        system.send(gone, new Increment(1));
        Await.until(() -> system.counters().actorsAlive() == 1, "the actor passed away");
        final BlockingQueue<Object> signals = new LinkedBlockingQueue<>();
        final ActorRef<String> sender = system.spawn(String.class, new TypedBehavior<>()
        {
            @Override
            public void receive(final TypedContext<String> ctx, final String text)
            {
                ctx.sendTracked(gone, new Increment(1), 42L);
            }

            @Override
            public boolean receiveSignal(final TypedContext<String> ctx, final Object signal)
            {
                if (signal instanceof Undelivered)
                {
                    signals.add(signal);
                    return true;
                }
                return false;
            }
        });

        system.send(sender, "go");
        final Undelivered notice = (Undelivered)Await.next(signals);
        assertThat(notice.cookie()).isEqualTo(42L);
        assertThat(notice.reason()).isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);
        assertThat(notice.recipient()).isEqualTo(gone.id());

        system.send(sender.id(), 12_345L); // not a String: nobody handles it
        Await.equal(() -> system.counters().unhandledEvents(), 1L, "the stray event is counted");
        assertThat(signals).isEmpty();
    }

    @Test
    void anUnhandledPoisonIsAnUnhandledEventAndTheActorLivesOn() throws Exception
    {
        final BlockingQueue<String> seen = new LinkedBlockingQueue<>();
        final ActorRef<String> survivor = system.spawn(String.class, (ctx, text) -> seen.add(text));
        final long alive = system.counters().actorsAlive();

        system.send(survivor.id(), Poison.INSTANCE);
        Await.equal(() -> system.counters().unhandledEvents(), 1L, "the poison counted as unhandled");
        system.send(survivor, "still here");

        assertThat(Await.next(seen)).isEqualTo("still here");
        assertThat(system.counters().actorsAlive()).isEqualTo(alive);
    }

    @Test
    void becomeSwitchesTheTypedBehaviourFromTheNextEvent() throws Exception
    {
        final BlockingQueue<String> seen = new LinkedBlockingQueue<>();
        final ActorRef<String> actor = system.spawn(String.class, (ctx, text) ->
        {
            seen.add("first:" + text);
            ctx.become((next, again) -> seen.add("second:" + again));
        });

        system.send(actor, "a");
        system.send(actor, "b");
        system.send(actor, "c");

        assertThat(Await.next(seen)).isEqualTo("first:a");
        assertThat(Await.next(seen)).isEqualTo("second:b");
        assertThat(Await.next(seen)).isEqualTo("second:c");
    }

    @Test
    void aServiceKeyRegistersLooksUpAndAddressesATypedService() throws Exception
    {
        final ServiceKey<CounterCommand> key = ServiceKey.of(CounterCommand.class, "counter");
        assertThat(system.lookupService(key)).isNull();

        assertThat(system.registerService(key, counterRef)).isNull();

        assertThat(system.lookupService(key)).isEqualTo(counterRef);
        system.send(key.local(), new Increment(7));
        system.send(key.on(NODE), new Increment(1));
        assertThat(system.ask(key.local(), GetCount::new, Count.class, ANSWERED)
            .get(ANSWERED.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(new Count(8));
        assertThat(key.name()).isEqualTo("counter");
        assertThat(key.on(3).id()).isEqualTo(ServiceId.of(3, "counter"));
        assertThat(key).isEqualTo(ServiceKey.of(CounterCommand.class, "counter"));
    }

    @Test
    void aRefIsAValueOverItsId()
    {
        final ActorId id = ActorId.of(NODE, 12, 3);
        final ActorRef<Increment> narrowed = ActorRef.<CounterCommand>of(id).narrow();

        assertThat(narrowed).isEqualTo(ActorRef.of(id)).hasSameHashCodeAs(ActorRef.of(id));
        assertThat(narrowed.id()).isSameAs(id);
        assertThat(narrowed).hasToString(id.toString());
    }
}
