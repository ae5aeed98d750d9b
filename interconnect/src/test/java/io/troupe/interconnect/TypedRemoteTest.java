package io.troupe.interconnect;

import io.troupe.actor.ActorRef;
import io.troupe.actor.ServiceKey;
import io.troupe.actor.TypedBehavior;
import io.troupe.actor.TypedContext;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredException;
import io.troupe.actor.UndeliveredReason;
import io.troupe.serialization.DerivedCodec;
import io.troupe.serialization.EventCodecRegistry;
import io.troupe.serialization.wire.TypeTable;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
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
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The typed layer between two nodes: typed sends and asks (from outside and from actors) with derived codecs,
 * timeouts and late replies, the handshake's type check, and events of unregistered types.
 */
@Timeout(60)
class TypedRemoteTest
{
    /** Connects, and asks that must be answered: generous, their timeout is not what is tested. */
    private static final Duration WAIT = Duration.ofSeconds(30);

    sealed interface CounterCommand permits Increment, GetCount, Stall
    {
    }

    record Increment(int by) implements CounterCommand
    {
    }

    record GetCount(ActorRef<Count> replyTo) implements CounterCommand
    {
    }

    record Stall(ActorRef<Count> replyTo) implements CounterCommand
    {
    }

    record Count(long value)
    {
    }

    record Release()
    {
    }

    record Total(long value, String failure)
    {
    }

    /** Two unrelated records that claim one name, hence one derived type id: a conflict. */
    record Fill(long orderId, String venue)
    {
    }

    record FillV2(long orderId, String venue, int quantity)
    {
    }

    static final ServiceKey<CounterCommand> COUNTER = ServiceKey.of(CounterCommand.class, "counter");

    static EventCodecRegistry.Builder typedCodecs()
    {
        return EventCodecRegistry.builder().withTroupeCodecs()
            .register(Increment.class).register(GetCount.class).register(Stall.class).register(Count.class)
            .register(Release.class).register(Total.class);
    }

    private TestCluster cluster;

    @AfterEach
    void tearDown()
    {
        if (cluster != null)
        {
            cluster.close();
        }
    }

    /** A counter that can hold back a reply until a {@link Release}. */
    static final class Counter implements TypedBehavior<CounterCommand>
    {
        private long count;
        private ActorRef<Count> stalled;

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
            if (signal instanceof Release)
            {
                ctx.send(stalled, new Count(count));
                return true;
            }
            return false;
        }
    }

    private TestCluster twoTypedNodes()
    {
        cluster = TestCluster.of(2);
        cluster.codecs = typedCodecs().build();
        cluster.startAll().awaitConnected(WAIT);
        final TestCluster.Node two = cluster.node(2);
        two.system.registerService(COUNTER, two.system.spawn(CounterCommand.class, new Counter()));
        return cluster;
    }

    @Test
    void typedSendsAndAsksCrossNodesWithDerivedCodecs() throws Exception
    {
        final TestCluster.Node one = twoTypedNodes().node(1);
        final ActorRef<CounterCommand> counter = COUNTER.on(2);

        one.system.send(counter, new Increment(5));
        one.system.send(counter, new Increment(6));
        final CompletableFuture<Count> count = one.system.ask(counter, GetCount::new, Count.class, WAIT);

        assertThat(count.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(new Count(11));
        assertThat(one.system.counters().asksPending()).isZero();

        // from an actor of node 1: the reply comes back as the actor's own event
        final BlockingQueue<Total> totals = new LinkedBlockingQueue<>();
        final ActorRef<Object> asker = one.system.spawn(Object.class, (ctx, event) ->
        {
            if (event instanceof Total)
            {
                totals.add((Total)event);
            }
            else
            {
                ctx.ask(counter, GetCount::new, Count.class, WAIT, (reply, failure) ->
                    new Total(reply == null ? -1 : reply.value(), failure == null ? null : failure.toString()));
            }
        });
        one.system.send(asker, "go");
        assertThat(Await.next(totals)).isEqualTo(new Total(11, null));
        assertThat(cluster.handlerFailures()).isZero();
    }

    @Test
    void aRemoteAskTimesOutAndItsLateReplyIsDroppedAndCountedOnTheAskingNode() throws Exception
    {
        final TestCluster.Node one = twoTypedNodes().node(1);
        final ActorRef<CounterCommand> counter = COUNTER.on(2);

        final CompletableFuture<Count> count = one.system.ask(counter, Stall::new, Count.class, Duration.ofMillis(200));

        final ExecutionException failed = assertThrows(ExecutionException.class,
            () -> count.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        assertThat(failed.getCause()).isInstanceOf(TimeoutException.class);
        assertThat(one.system.counters().asksPending()).isZero();
        assertThat(one.system.counters().asksTimedOut()).isEqualTo(1);

        cluster.node(2).system.send(cluster.node(2).system.lookupService(COUNTER).id(), new Release());
        Await.equal(() -> one.system.counters().lateReplies(), 1L, "node 1 counts the late reply");
        assertThat(one.system.counters().undelivered()).isZero();
    }

    @Test
    void aRemoteAskOfAServiceThatIsNotThereEndsWithUndelivered() throws Exception
    {
        final TestCluster.Node one = twoTypedNodes().node(1);
        final ActorRef<CounterCommand> nobody = ServiceKey.of(CounterCommand.class, "nobody").on(2);

        final CompletableFuture<Count> count = one.system.ask(nobody, GetCount::new, Count.class, WAIT);

        final ExecutionException failed = assertThrows(ExecutionException.class,
            () -> count.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        assertThat(failed.getCause()).isInstanceOf(UndeliveredException.class);
        assertThat(((UndeliveredException)failed.getCause()).undelivered().reason())
            .isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);
    }

    @Test
    void nodesThatBindOneTypeIdToDifferentShapesRefuseEachOtherNamingTheType() throws Exception
    {
        cluster = TestCluster.of(2);
        cluster.codecs = typedCodecs().register(DerivedCodec.of(Fill.class, "orders.Fill")).build();
        cluster.start(cluster.node(1), cluster.config(cluster.node(1)));
        cluster.codecs = typedCodecs().register(DerivedCodec.of(FillV2.class, "orders.Fill")).build();
        cluster.start(cluster.node(2), cluster.config(cluster.node(2)));
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);

        // node 1 initiates: it verifies node 2's WELCOME, finds the conflict and refuses
        Await.until(() -> one.interconnect.counters().typeConflicts() >= 2, WAIT,
            "node 1 refuses node 2 (and retries)");
        Await.until(() -> two.interconnect.peerCounters().get(0).handshakesRefused() >= 1, WAIT, "node 2 is told");
        assertThat(one.interconnect.isConnected(2)).isFalse();
        assertThat(two.interconnect.isConnected(1)).isFalse();
        final String conflict = TypeTable.conflicts(
            cluster.codecs, TypeTable.encode(typedCodecs()
                .register(DerivedCodec.of(Fill.class, "orders.Fill")).build()), 1);
        assertThat(conflict).contains("'orders.Fill'").contains("node 1").contains("1 event type differ");
    }

    @Test
    void aTypeRegisteredOnOneSideOnlyIsAllowedAndItsEventsAreRejectedWhereItIsMissing() throws Exception
    {
        cluster = TestCluster.of(2);
        cluster.codecs = typedCodecs().register(Fill.class).build();
        cluster.start(cluster.node(1), cluster.config(cluster.node(1)));
        cluster.codecs = typedCodecs().build();
        cluster.start(cluster.node(2), cluster.config(cluster.node(2)));
        cluster.awaitConnected(WAIT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final BlockingQueue<Object> received = new LinkedBlockingQueue<>();
        final ActorRef<Object> sink = two.system.spawn(Object.class, (ctx, event) -> received.add(event));
        final BlockingQueue<Undelivered> notices = new LinkedBlockingQueue<>();
        final ActorRef<String> sender = one.system.spawn(String.class, new TypedBehavior<>()
        {
            @Override
            public void receive(final TypedContext<String> ctx, final String go)
            {
                ctx.sendTracked(sink, new Fill(1, "XLON"), 77L);
                ctx.send(sink, new Increment(1));
            }

            @Override
            public boolean receiveSignal(final TypedContext<String> ctx, final Object signal)
            {
                if (signal instanceof Undelivered)
                {
                    notices.add((Undelivered)signal);
                    return true;
                }
                return false;
            }
        });

        one.system.send(sender, "go");

        // the Fill never reaches an actor on node 2, and its sender hears of it; the Increment after it arrives
        assertThat(Await.next(received)).isEqualTo(new Increment(1));
        final Undelivered notice = Await.next(notices);
        assertThat(notice.cookie()).isEqualTo(77L);
        assertThat(notice.reason()).isEqualTo(UndeliveredReason.ACTOR_UNKNOWN);
        assertThat(two.interconnect.counters().unknownTypeEvents()).isEqualTo(1);
        assertThat(received).isEmpty();
        assertThat(cluster.handlerFailures()).isZero();
    }
}
