package io.troupe.broker;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.troupe.broker.TestRequests.refs;
import static io.troupe.broker.TestRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

class RequestDequeTest
{
    @Test
    void addsAtTailAndRemovesAtBothEnds()
    {
        final RequestDeque deque = new RequestDeque();
        assertThat(deque.peekFirst()).isNull();
        assertThat(deque.pollLast()).isNull();
        for (int i = 1; i <= 3; i++)
        {
            deque.addLast(request(i, i));
        }
        assertThat(deque.peekFirst().ref()).isEqualTo(1);
        assertThat(deque.peekLast().ref()).isEqualTo(3);
        assertThat(deque.pollFirst().ref()).isEqualTo(1);
        assertThat(deque.pollLast().ref()).isEqualTo(3);
        assertThat(deque.poll(ServeOrder.LIFO).ref()).isEqualTo(2);
        assertThat(deque.isEmpty()).isTrue();
    }

    @Test
    void matchesArrayDequeThroughWrapAroundGrowthAndMiddleRemovals()
    {
        final Random random = new Random(42);
        final RequestDeque deque = new RequestDeque();
        final ArrayDeque<BrokerRequest> model = new ArrayDeque<>();
        long nextId = 1;
        for (int step = 0; step < 20_000; step++)
        {
            final int op = random.nextInt(10);
            if (op < 5)
            {
                final BrokerRequest request = request(nextId, nextId);
                nextId++;
                deque.addLast(request);
                model.addLast(request);
            }
            else if (op < 7)
            {
                assertThat(deque.pollFirst()).isSameAs(model.pollFirst());
            }
            else if (op < 8)
            {
                assertThat(deque.pollLast()).isSameAs(model.pollLast());
            }
            else if (!model.isEmpty())
            {
                final List<BrokerRequest> list = new ArrayList<>(model);
                final BrokerRequest victim = list.get(random.nextInt(list.size()));
                assertThat(deque.remove(victim.requester(), victim.ref())).isSameAs(victim);
                model.remove(victim);
            }
            assertThat(deque.size()).isEqualTo(model.size());
            if (step % 97 == 0)
            {
                final List<BrokerRequest> list = new ArrayList<>(model);
                for (int i = 0; i < list.size(); i++)
                {
                    assertThat(deque.get(i)).isSameAs(list.get(i));
                }
            }
        }
    }

    @Test
    void removeOfAnUnknownRequestFindsNothing()
    {
        final RequestDeque deque = new RequestDeque();
        final BrokerRequest one = request(1, 0);
        deque.addLast(one);
        assertThat(deque.remove(one.requester(), 2)).isNull();
        assertThat(deque.remove(request(2, 0).requester(), 1)).isNull();
        assertThat(deque.size()).isEqualTo(1);
    }

    @Test
    void drainsOldestFirstBySentTimeWithTiesInArrivalOrder()
    {
        final RequestDeque deque = new RequestDeque();
        deque.addLast(request(1, 30));
        deque.addLast(request(2, 10));
        deque.addLast(request(3, 30));
        deque.addLast(request(4, 20));
        final List<BrokerRequest> out = new ArrayList<>();
        deque.drainTo(out::add);
        assertThat(refs(out)).containsExactly(2L, 4L, 1L, 3L);
        assertThat(deque.size()).isZero();
    }
}
