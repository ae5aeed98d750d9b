package io.troupe.actor;

import io.troupe.testing.Await;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import static io.troupe.actor.TestActors.USER_TYPE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Only an actor decides to die, unless its parent (the actor that registered it) or its node's system stops it:
 * {@code ctx.stop(child)} and {@code system.stop(actor)} take effect behind what was queued before; anyone else's
 * request is refused and counted; a {@link Poison} is an ordinary event.
 */
@Timeout(60)
class StopTest
{
    private static final int NODE = 24;

    @AutoClose
    private final ActorSystem system = TestActors.start(NODE, 2);

    /** Registers a child on "spawn" (reported), stops what it is sent as an id, reports each stop's outcome. */
    private static Behavior parent(final BlockingQueue<Object> out, final Behavior child)
    {
        return (ctx, envelope) ->
        {
            if ("spawn".equals(envelope.event()))
            {
                out.add(ctx.register(child));
            }
            else if (envelope.event() instanceof ActorId target)
            {
                out.add(ctx.stop(target));
            }
        };
    }

    @Test
    void aParentStopsItsChildBehindWhatWasQueuedBeforeAndLaterEventsAreUndelivered() throws Exception
    {
        final TestActors.Recorder recorder = new TestActors.Recorder();
        final BlockingQueue<Object> out = new LinkedBlockingQueue<>();
        final ActorId parent = system.register(parent(out, recorder));
        system.send(parent, "spawn");
        final ActorId child = (ActorId)Await.next(out);
        final long alive = system.counters().actorsAlive();

        system.send(child, "before");
        system.send(parent, child);
        assertThat(Await.next(out)).as("the parent may").isEqualTo(true);
        assertThat(recorder.next().event()).isEqualTo("before");
        Await.equal(() -> system.counters().actorsAlive(), alive - 1, "the child passed away");

        final TestActors.Probe probe = new TestActors.Probe();
        final ActorId probeId = system.register(probe);
        system.send(probeId, TestActors.Send.tracked(child, "after", 9L));
        TestActors.assertUndelivered(probe.next(), probeId, child, USER_TYPE, 9L, UndeliveredReason.ACTOR_UNKNOWN);
        assertThat(system.counters().get(SystemCounter.STOPS_REFUSED)).isZero();
    }

    @Test
    void anActorThatDidNotRegisterItCannotStopItAndIsCounted() throws Exception
    {
        final TestActors.Recorder recorder = new TestActors.Recorder();
        final BlockingQueue<Object> out = new LinkedBlockingQueue<>();
        final ActorId parent = system.register(parent(out, recorder));
        system.send(parent, "spawn");
        final ActorId child = (ActorId)Await.next(out);
        final BlockingQueue<Object> strangerOut = new LinkedBlockingQueue<>();
        final ActorId stranger = system.register(parent(strangerOut, recorder));

        system.send(stranger, child);
        assertThat(Await.next(strangerOut)).as("refused").isEqualTo(false);
        system.send(stranger, ServiceId.of(0, "anything"));
        assertThat(Await.next(strangerOut)).as("by name: refused").isEqualTo(false);
        system.send(stranger, ActorId.of(NODE + 1, child.localId(), child.hint()));
        assertThat(Await.next(strangerOut)).as("on another node: refused").isEqualTo(false);
        assertThat(system.counters().get(SystemCounter.STOPS_REFUSED)).isEqualTo(3);

        system.send(child, "alive");
        assertThat(recorder.next().event()).isEqualTo("alive");
    }

    @Test
    void theSystemStopsAnyOfItsActorsAndAPoisonIsAnOrdinaryEvent() throws Exception
    {
        final TestActors.Recorder recorder = new TestActors.Recorder();
        final ActorId actor = system.register(recorder);
        final long alive = system.counters().actorsAlive();

        system.send(actor, Poison.INSTANCE, Poison.TYPE, 0, 0L);
        assertThat(recorder.next().event()).as("delivered like any event").isSameAs(Poison.INSTANCE);
        assertThat(system.counters().actorsAlive()).isEqualTo(alive);

        assertThat(system.stop(actor)).isTrue();
        Await.equal(() -> system.counters().actorsAlive(), alive - 1, "stopped by its system");
        assertThat(system.stop(actor)).as("gone").isFalse();
        assertThat(system.stop(ActorId.of(NODE + 1, 5, 5))).as("another node's").isFalse();
        assertThat(system.counters().get(SystemCounter.STOPS_REFUSED)).isEqualTo(1);
    }

    @Test
    void aTypedParentStopsTheChildItSpawned() throws Exception
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
                    child = ctx.spawn(String.class, (c, e) -> out.add("child got " + e));
                    ctx.send(child, "hello");
                }
                else
                {
                    out.add(ctx.stop(child));
                }
            }
        });
        final long alive = system.counters().actorsAlive();
        system.send(parent, "spawn");
        assertThat(Await.next(out)).isEqualTo("child got hello");
        system.send(parent, "stop");
        assertThat(Await.next(out)).isEqualTo(true);
        Await.equal(() -> system.counters().actorsAlive(), alive, "the child passed away");
    }
}
