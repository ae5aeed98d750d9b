package io.troupe.actor;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;

import static io.troupe.actor.TestActors.assertNothingArrives;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Death watch on one node (Pekko's DeathWatch semantics): exactly one {@link Terminated} per watch, after what the
 * watched actor sent before it went; at once for an actor already gone; none after an unwatch, not even one already
 * in the mailbox; a node gone for good ends the watches of its actors.
 */
@Timeout(60)
class DeathWatchTest
{
    private static final int NODE = 25;
    private static final Duration QUIET = Duration.ofMillis(150);

    @AutoClose
    private final ActorSystem system = TestActors.start(NODE, 2);

    /** Watches, unwatches or dies on command; records every other envelope it gets. */
    private static final class Watcher implements Behavior
    {
        final BlockingQueue<Envelope> got = new LinkedBlockingQueue<>();
        volatile CountDownLatch hold;

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            final Object event = envelope.event();
            if (event instanceof Watch watch)
            {
                ctx.watch(watch.target());
                if (watch.twice())
                {
                    ctx.watch(watch.target());
                }
                got.add(new Envelope(ctx.self(), ctx.self(), 0, 0, 0L, "watching", null));
            }
            else if (event instanceof Unwatch unwatch)
            {
                final CountDownLatch latch = hold;
                if (latch != null)
                {
                    // meanwhile the Terminated arrives behind this event
                    Await.latch(latch, "the test lets the unwatch go on");
                }
                ctx.unwatch(unwatch.target());
            }
            else if ("die".equals(event))
            {
                ctx.passAway();
            }
            else
            {
                got.add(envelope);
            }
        }
    }

    record Watch(ActorId target, boolean twice)
    {
    }

    record Unwatch(ActorId target)
    {
    }

    /** Sends what it is told to its target, then passes away, on "last words". */
    private static Behavior mortal(final ActorId listener)
    {
        return (ctx, envelope) ->
        {
            if ("last words".equals(envelope.event()))
            {
                ctx.send(listener, "goodbye");
                ctx.passAway();
            }
        };
    }

    private static Envelope next(final BlockingQueue<Envelope> queue) throws InterruptedException
    {
        return Await.next(queue);
    }

    @Test
    void aWatcherGetsOneTerminatedFromTheWatchedActorAfterWhatItSentBefore() throws Exception
    {
        final Watcher watcher = new Watcher();
        final ActorId watcherId = system.register(watcher);
        final ActorId target = system.register(mortal(watcherId));

        system.send(watcherId, new Watch(target, true));
        assertThat(next(watcher.got).event()).isEqualTo("watching");
        system.send(target, "last words");

        assertThat(next(watcher.got).event()).isEqualTo("goodbye");
        final Envelope notice = next(watcher.got);
        assertThat(notice.event()).isEqualTo(new Terminated(target, TerminationReason.PASSED_AWAY));
        assertThat(notice.type()).isEqualTo(Terminated.TYPE);
        assertThat(notice.sender()).as("from the watched actor").isEqualTo(target);
        assertNothingArrives(watcher.got, QUIET); // watched twice: still one
    }

    @Test
    void watchingAnActorThatIsGoneAnswersAtOnceAndSoDoesAnIdThatNeverLived() throws Exception
    {
        final Watcher watcher = new Watcher();
        final ActorId watcherId = system.register(watcher);
        final ActorId gone = system.register(mortal(watcherId));
        final long passedAway = system.counters().get(SystemCounter.ACTORS_PASSED_AWAY);
        system.send(gone, "last words");
        Await.until(() -> system.counters().get(SystemCounter.ACTORS_PASSED_AWAY) > passedAway, "the mortal is gone");
        final ActorId never = ActorId.of(NODE, gone.localId() + 1_000_000, gone.hint());

        system.send(watcherId, new Watch(gone, false));
        system.send(watcherId, new Watch(never, false));

        final List<Object> got = List.of(next(watcher.got).event(), next(watcher.got).event(),
            next(watcher.got).event(), next(watcher.got).event(), next(watcher.got).event());
        assertThat(got).contains("goodbye", "watching", new Terminated(gone, TerminationReason.NOT_ALIVE),
            new Terminated(never, TerminationReason.NOT_ALIVE));
        assertNothingArrives(watcher.got, QUIET);
    }

    @Test
    void anUnwatchedActorsDeathIsNotReportedNotEvenANoticeAlreadyInTheMailbox() throws Exception
    {
        final Watcher watcher = new Watcher();
        final ActorId watcherId = system.register(watcher);
        final ActorId target = system.register(mortal(watcherId));
        system.send(watcherId, new Watch(target, false));
        assertThat(next(watcher.got).event()).isEqualTo("watching");

        final CountDownLatch proceed = new CountDownLatch(1);
        watcher.hold = proceed;
        final long passedAway = system.counters().get(SystemCounter.ACTORS_PASSED_AWAY);
        system.send(watcherId, new Unwatch(target)); // the watcher waits in this handler...
        system.send(target, "last words"); // ...while the target goes and its Terminated queues behind
        Await.until(() -> system.counters().get(SystemCounter.ACTORS_PASSED_AWAY) > passedAway, "the target is gone");
        proceed.countDown();

        assertThat(next(watcher.got).event()).isEqualTo("goodbye");
        assertNothingArrives(watcher.got, QUIET);
    }

    @Test
    void aStoppedChildIsReportedToItsWatchingParentAndTypedActorsGetItAsASignal() throws Exception
    {
        final BlockingQueue<Object> out = new LinkedBlockingQueue<>();
        final ActorRef<String> parent = system.spawn(String.class, new TypedBehavior<>()
        {
            private ActorRef<String> child;

            @Override
            public void receive(final TypedContext<String> ctx, final String event)
            {
                if ("spawn".equals(event))
                {
                    child = ctx.spawn(String.class, (c, e) -> { });
                    ctx.watch(child);
                    out.add("spawned");
                }
                else
                {
                    ctx.stop(child);
                }
            }

            @Override
            public boolean receiveSignal(final TypedContext<String> ctx, final Object signal)
            {
                out.add(signal);
                return true;
            }
        });
        system.send(parent, "spawn");
        assertThat(Await.next(out)).isEqualTo("spawned");
        system.send(parent, "stop");
        final Object signal = Await.next(out);
        assertThat(signal).isInstanceOf(Terminated.class);
        assertThat(((Terminated)signal).reason()).isEqualTo(TerminationReason.PASSED_AWAY);
    }

    @Test
    void aWatcherThatPassesAwayUnwatchesSoTheWatchedActorsDeathSendsNothing() throws Exception
    {
        final Watcher watcher = new Watcher();
        final ActorId watcherId = system.register(watcher);
        final BlockingQueue<Envelope> elsewhere = new LinkedBlockingQueue<>();
        final ActorId listener = system.register((ctx, envelope) -> elsewhere.add(envelope));
        final ActorId target = system.register(mortal(listener));
        system.send(watcherId, new Watch(target, false));
        assertThat(next(watcher.got).event()).isEqualTo("watching");
        final long alive = system.counters().actorsAlive();
        system.send(watcherId, "die");
        Await.until(() -> system.counters().actorsAlive() == alive - 1, "the watcher passed away");
        final long dropped = system.counters().dropped();

        system.send(target, "last words");
        assertThat(next(elsewhere).event()).isEqualTo("goodbye");
        Await.until(() -> system.counters().actorsAlive() == alive - 2, "the target passed away");
        assertThat(system.counters().dropped()).as("no Terminated for a watcher that is gone").isEqualTo(dropped);
    }

    @Test
    void aWatchOfAnotherNodesActorEndsWhenThatNodeIsGoneAndServiceIdsCannotBeWatched() throws Exception
    {
        final Watcher watcher = new Watcher();
        final ActorId watcherId = system.register(watcher);
        final ActorId far = ActorId.of(NODE + 1, 77, 3);
        system.send(watcherId, new Watch(far, false)); // no transport: the request is undelivered, DISCONNECTED
        assertThat(next(watcher.got).event()).isEqualTo("watching");
        assertNothingArrives(watcher.got, QUIET); // a session that is down is not a death

        ActorSystemSpi.of(system).nodeGone(NODE + 1, TerminationReason.NODE_DOWNED);
        final Envelope notice = next(watcher.got);
        assertThat(notice.event()).isEqualTo(new Terminated(far, TerminationReason.NODE_DOWNED));
        ActorSystemSpi.of(system).nodeGone(NODE + 1, TerminationReason.NODE_DOWNED);
        assertNothingArrives(watcher.got, QUIET);

        final BlockingQueue<Throwable> refused = new LinkedBlockingQueue<>();
        final ActorId tries = system.register((ctx, envelope) ->
        {
            try
            {
                ctx.watch(ServiceId.of(0, "someone"));
            }
            catch (final IllegalArgumentException ex)
            {
                refused.add(ex);
            }
        });
        system.send(tries, "go");
        assertThat(Await.next(refused)).hasMessageContaining("not a service id");
        assertThatThrownBy(() -> ActorSystemSpi.of(system).nodeGone(NODE + 1, null))
            .isInstanceOf(NullPointerException.class);
    }
}
