package io.troupe.broker;

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

/** A broker replaces a queue's spec by draining the old queue into a new one: {@code old.drainTo(new::adopt)}. */
class ReconfigurationTest
{
    private final RecordingSink sink = new RecordingSink();
    private final List<BrokerRequest> handedOver = new ArrayList<>();

    @Test
    void codelQueueWhileDroppingIntoATimeoutQueue()
    {
        // plain RFC 8289: every request here is past the default sojourn limit
        final CodelQueue codel =
            (CodelQueue)CodelQueueSpec.defaults().withSojournLimit(CodelQueueSpec.NO_SOJOURN_LIMIT).newQueue();
        final List<BrokerRequest> sent = new ArrayList<>();
        for (int i = 0; i < 10; i++)
        {
            final BrokerRequest request = request(i, ms(100 * i));
            sent.add(request);
            codel.enqueue(request, ms(100 * i), sink);
        }
        codel.expire(ms(900), sink);
        codel.expire(ms(1_900), sink);
        assertThat(codel.isDropping()).isTrue();
        assertThat(sink.refs()).containsExactly(0L);

        final RequestQueue timeout = reconfigure(codel, TimeoutQueueSpec.of(Duration.ofMillis(1_500)));
        // every request, oldest first, the very same instances with their times
        assertThat(handedOver).containsExactlyElementsOf(sent.subList(1, 10));
        assertThat(timeout.size()).isEqualTo(9);
        assertThat(codel.size()).isZero();
        // the timeout applies from the next call: past 1500 ms at 1900 ms are those sent at 100..300 ms
        assertThat(timeout.nextExpiryNs(ms(1_900))).isEqualTo(ms(1_600) + 1);
        timeout.expire(ms(1_900), sink);
        assertThat(sink.refs()).containsExactly(0L, 1L, 2L, 3L);
        assertThat(timeout.size()).isEqualTo(6);
    }

    @Test
    void lifoDropQueueIntoACodelQueueThatStartsAfresh()
    {
        final RequestQueue lifo = DropQueueSpec.lifo(100).newQueue();
        for (int i = 0; i < 5; i++)
        {
            lifo.enqueue(request(i, 0), 0, sink);
        }
        final CodelQueue codel = (CodelQueue)reconfigure(lifo,
            CodelQueueSpec.defaults().withSojournLimit(CodelQueueSpec.NO_SOJOURN_LIMIT));
        // oldest first by sent time, ties in queue order: not the LIFO serve order
        assertThat(refs(handedOver)).containsExactly(0L, 1L, 2L, 3L, 4L);
        // long above target already, but CoDel must first see it above target for an interval
        codel.expire(ms(5_000), sink);
        assertThat(sink.dropped).isEmpty();
        assertThat(codel.nextExpiryNs(ms(5_000))).isEqualTo(ms(6_000));
        assertThat(codel.dequeue(ms(6_000), sink).ref()).isEqualTo(1);
        assertThat(sink.refs()).containsExactly(0L);
    }

    @Test
    void fairQueueIntoABoundedFifoQueueKeepsEveryRequestUntilTheNextArrival()
    {
        final RequestQueue fair = new FairQueueSpec(DropQueueSpec.unbounded(), FairKey.REQUEST_KEY).newQueue();
        fair.enqueue(request(1, 10, "A"), 10, sink);
        fair.enqueue(request(2, 30, "A"), 30, sink);
        fair.enqueue(request(3, 20, "B"), 30, sink);
        fair.enqueue(request(4, 40, "C"), 40, sink);
        final RequestQueue fifo = reconfigure(fair, new DropQueueSpec(2, DropEnd.HEAD, ServeOrder.FIFO));
        assertThat(refs(handedOver)).containsExactly(1L, 3L, 2L, 4L);
        assertThat(fifo.size()).isEqualTo(4);
        assertThat(sink.dropped).isEmpty();
        fifo.enqueue(request(5, 50), 50, sink);
        assertThat(sink.refs()).containsExactly(1L, 3L, 2L);
        assertThat(dequeueAll(fifo, 60, sink)).containsExactly(4L, 5L);
    }

    @Test
    void requestsArrivedOutOfSentOrderAreHandedOverBySentTime()
    {
        final RequestQueue fifo = DropQueueSpec.unbounded().newQueue();
        fifo.enqueue(request(1, ms(20)), ms(20), sink);
        fifo.enqueue(request(2, ms(5)), ms(21), sink);
        fifo.enqueue(request(3, ms(22)), ms(22), sink);
        final RequestQueue timeout = reconfigure(fifo, TimeoutQueueSpec.of(Duration.ofMillis(100)));
        assertThat(refs(handedOver)).containsExactly(2L, 1L, 3L);
        assertThat(timeout.nextExpiryNs(ms(22))).isEqualTo(ms(105) + 1);
    }

    @Test
    void timeoutQueueIntoAFairQueueGroupsTheRequestsByKey()
    {
        final RequestQueue timeout = TimeoutQueueSpec.of(Duration.ofSeconds(1)).newQueue();
        final String keys = "AABAC";
        for (int i = 0; i < keys.length(); i++)
        {
            timeout.enqueue(request(i, i, keys.substring(i, i + 1)), i, sink);
        }
        final FairQueue fair = (FairQueue)reconfigure(timeout, new FairQueueSpec(
            TimeoutQueueSpec.of(Duration.ofMillis(1)), FairKey.REQUEST_KEY));
        assertThat(fair.size()).isEqualTo(5);
        assertThat(fair.innerQueues()).isEqualTo(3);
        assertThat(dequeueAll(fair, 10, sink)).containsExactly(0L, 2L, 4L, 1L, 3L);
        assertThat(sink.dropped).isEmpty();
    }

    private RequestQueue reconfigure(final RequestQueue old, final QueueSpec spec)
    {
        final RequestQueue next = spec.newQueue();
        old.drainTo(request ->
        {
            handedOver.add(request);
            next.adopt(request);
        });
        return next;
    }
}
