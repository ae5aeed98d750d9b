package io.troupe.broker;

import io.troupe.actor.ActorId;
import io.troupe.broker.TestRequests.RecordingSink;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.troupe.broker.TestRequests.dequeueAll;
import static io.troupe.broker.TestRequests.ms;
import static io.troupe.broker.TestRequests.refs;
import static io.troupe.broker.TestRequests.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FairQueueTest
{
    private final RecordingSink sink = new RecordingSink();

    @Test
    void servesKeysRoundRobin()
    {
        final FairQueue queue = byRequestKey(DropQueueSpec.unbounded());
        final String keys = "AAABC";
        for (int i = 0; i < keys.length(); i++)
        {
            queue.enqueue(request(i, i, keys.substring(i, i + 1)), i, sink);
        }
        assertThat(queue.size()).isEqualTo(5);
        assertThat(queue.innerQueues()).isEqualTo(3);
        // A0 B3 C4 A1 A2
        assertThat(dequeueAll(queue, 10, sink)).containsExactly(0L, 3L, 4L, 1L, 2L);
        assertThat(queue.size()).isZero();
        assertThat(queue.innerQueues()).isZero();
    }

    @Test
    void removesInnerQueuesAsTheyEmptyAndANewKeyJoinsAtTheEndOfTheTurn()
    {
        final FairQueue queue = byRequestKey(DropQueueSpec.unbounded());
        queue.enqueue(request(1, 1, "A"), 1, sink);
        queue.enqueue(request(2, 2, "A"), 2, sink);
        queue.enqueue(request(3, 3, "B"), 3, sink);
        assertThat(queue.dequeue(4, sink).ref()).isEqualTo(1);
        assertThat(queue.dequeue(5, sink).ref()).isEqualTo(3);
        assertThat(queue.innerQueues()).isEqualTo(1);
        queue.enqueue(request(4, 6, "C"), 6, sink);
        queue.enqueue(request(5, 7, "B"), 7, sink);
        queue.enqueue(request(6, 8, "A"), 8, sink);
        // the turn is at A; C and then B joined after it
        assertThat(dequeueAll(queue, 10, sink)).containsExactly(2L, 4L, 5L, 6L);
    }

    @Test
    void groupsByNodeOrActorOfTheRequester()
    {
        final FairQueue byNode = (FairQueue)new FairQueueSpec(DropQueueSpec.unbounded(), FairKey.CLIENT_NODE)
            .newQueue();
        final FairQueue byActor = (FairQueue)new FairQueueSpec(DropQueueSpec.unbounded(), FairKey.CLIENT_ACTOR)
            .newQueue();
        for (final FairQueue queue : List.of(byNode, byActor))
        {
            queue.enqueue(onNode(1, 1, 1, 0), 0, sink);
            queue.enqueue(onNode(2, 1, 2, 0), 0, sink);
            queue.enqueue(onNode(3, 1, 1, 0), 0, sink);
            queue.enqueue(onNode(4, 2, 1, 0), 0, sink);
        }
        assertThat(byNode.innerQueues()).isEqualTo(2);
        assertThat(byActor.innerQueues()).isEqualTo(3);
        assertThat(dequeueAll(byNode, 0, sink)).containsExactly(1L, 4L, 2L, 3L);
        assertThat(dequeueAll(byActor, 0, sink)).containsExactly(1L, 2L, 4L, 3L);
    }

    @Test
    void groupsByACustomFunction()
    {
        final RequestQueue queue = new FairQueueSpec(DropQueueSpec.unbounded(),
            FairKey.of(request -> request.ref() % 2)).newQueue();
        for (int i = 1; i <= 6; i++)
        {
            queue.enqueue(request(i, i), i, sink);
        }
        queue.enqueue(request(8, 7), 7, sink);
        queue.enqueue(request(10, 8), 8, sink);
        assertThat(dequeueAll(queue, 10, sink)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 8L, 10L);
    }

    @Test
    void eachInnerQueueHasItsOwnPolicy()
    {
        final RequestQueue queue = byRequestKey(new DropQueueSpec(1, DropEnd.HEAD, ServeOrder.FIFO));
        queue.enqueue(request(1, 1, "A"), 1, sink);
        queue.enqueue(request(2, 2, "B"), 2, sink);
        queue.enqueue(request(3, 3, "A"), 3, sink);
        assertThat(sink.refs()).containsExactly(1L);
        assertThat(queue.size()).isEqualTo(2);
        final RequestQueue none = byRequestKey(new DropQueueSpec(0, DropEnd.HEAD, ServeOrder.FIFO));
        none.enqueue(request(4, 4, "A"), 4, sink);
        assertThat(((FairQueue)none).innerQueues()).isZero();
        assertThat(none.size()).isZero();
        assertThat(sink.refs()).containsExactly(1L, 4L);
    }

    @Test
    void cancelFindsTheRequestByRequesterKeyOrBySearch()
    {
        final FairQueue byActor = (FairQueue)new FairQueueSpec(DropQueueSpec.unbounded(), FairKey.CLIENT_ACTOR)
            .newQueue();
        final FairQueue byRequestKey = byRequestKey(DropQueueSpec.unbounded());
        for (final FairQueue queue : List.of(byActor, byRequestKey))
        {
            final BrokerRequest one = request(1, 1, "A");
            final BrokerRequest two = request(2, 2, "B");
            final BrokerRequest three = request(3, 3, "B");
            queue.enqueue(one, 1, sink);
            queue.enqueue(two, 2, sink);
            queue.enqueue(three, 3, sink);
            assertThat(queue.cancel(two.requester(), 1)).isNull();
            assertThat(queue.cancel(ActorId.of(9, 9, 0), 9)).isNull();
            assertThat(queue.cancel(two.requester(), 2)).isSameAs(two);
            assertThat(queue.cancel(one.requester(), 1)).isSameAs(one);
            assertThat(queue.size()).isEqualTo(1);
            assertThat(queue.innerQueues()).isEqualTo(1);
            assertThat(queue.dequeue(4, sink)).isSameAs(three);
            assertThat(queue.innerQueues()).isZero();
        }
    }

    @Test
    void drainMergesTheInnerQueuesOldestFirst()
    {
        final RequestQueue queue = byRequestKey(DropQueueSpec.unbounded());
        queue.enqueue(request(1, 10, "A"), 10, sink);
        queue.enqueue(request(2, 20, "B"), 20, sink);
        queue.enqueue(request(3, 30, "A"), 30, sink);
        queue.enqueue(request(4, 30, "C"), 30, sink);
        queue.enqueue(request(5, 15, "C"), 35, sink);
        queue.dequeue(40, sink);
        queue.enqueue(request(6, 5, "A"), 45, sink);
        final List<BrokerRequest> out = new ArrayList<>();
        queue.drainTo(out::add);
        // the turn is at B: ties at 30 go in turn order, C (4) before A (3)
        assertThat(refs(out)).containsExactly(6L, 5L, 2L, 4L, 3L);
        assertThat(queue.size()).isZero();
        assertThat(queue.dequeue(50, sink)).isNull();
    }

    @Test
    void expireDropsInEveryInnerQueueAndTheNextExpiryIsTheEarliest()
    {
        final FairQueue queue = byRequestKey(TimeoutQueueSpec.of(Duration.ofMillis(100)));
        assertThat(queue.nextExpiryNs(0)).isEqualTo(Long.MAX_VALUE);
        queue.enqueue(request(1, ms(0), "A"), ms(0), sink);
        queue.enqueue(request(2, ms(20), "A"), ms(20), sink);
        queue.enqueue(request(3, ms(10), "B"), ms(10), sink);
        queue.enqueue(request(4, ms(30), "C"), ms(30), sink);
        assertThat(queue.nextExpiryNs(ms(30))).isEqualTo(ms(100) + 1);
        queue.expire(ms(125), sink);
        // oldest first within an inner queue; the order across inner queues is not specified
        assertThat(sink.refs()).containsExactlyInAnyOrder(1L, 2L, 3L);
        assertThat(sink.refs().indexOf(1L)).isLessThan(sink.refs().indexOf(2L));
        assertThat(queue.size()).isEqualTo(1);
        assertThat(queue.innerQueues()).isEqualTo(1);
        assertThat(queue.nextExpiryNs(ms(125))).isEqualTo(ms(130) + 1);
    }

    @Test
    void dequeueMovesOnWhenTheInnerQueueInTurnDropsAllItHas()
    {
        final FairQueue queue = byRequestKey(TimeoutQueueSpec.of(Duration.ofMillis(100)));
        queue.enqueue(request(1, ms(0), "A"), ms(0), sink);
        queue.enqueue(request(2, ms(90), "B"), ms(90), sink);
        assertThat(queue.dequeue(ms(150), sink).ref()).isEqualTo(2);
        assertThat(sink.refs()).containsExactly(1L);
        assertThat(queue.innerQueues()).isZero();
    }

    @Test
    void adoptPutsEachRequestInItsKeysInnerQueueWithoutDropping()
    {
        final FairQueue queue = byRequestKey(new DropQueueSpec(1, DropEnd.TAIL, ServeOrder.FIFO));
        queue.adopt(request(1, 1, "A"));
        queue.adopt(request(2, 2, "A"));
        queue.adopt(request(3, 3, "B"));
        assertThat(queue.size()).isEqualTo(3);
        assertThat(queue.innerQueues()).isEqualTo(2);
        assertThat(dequeueAll(queue, 4, sink)).containsExactly(1L, 3L, 2L);
        assertThat(sink.dropped).isEmpty();
    }

    @Test
    void validation()
    {
        assertThatThrownBy(() -> new FairQueueSpec(null, FairKey.CLIENT_NODE))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("FairQueueSpec.inner must not be null");
        assertThatThrownBy(() -> new FairQueueSpec(DropQueueSpec.unbounded(), null))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("FairQueueSpec.key must not be null");
        assertThatThrownBy(() -> FairKey.of(null))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("FairKey.Custom.function must not be null");
    }

    private static FairQueue byRequestKey(final QueueSpec inner)
    {
        return (FairQueue)new FairQueueSpec(inner, FairKey.REQUEST_KEY).newQueue();
    }

    private static BrokerRequest onNode(final long ref, final int nodeId, final long localId, final long sentNs)
    {
        final ActorId requester = ActorId.of(nodeId, localId, 0);
        return new BrokerRequest(ref, requester, 0, requester, sentNs, "k");
    }
}
