package io.troupe.broker;

import io.troupe.broker.TestRequests.RecordingSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;
import java.util.List;

import static io.troupe.broker.TestRequests.dequeueAll;
import static io.troupe.broker.TestRequests.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DropQueueTest
{
    @ParameterizedTest
    @CsvSource({
        "HEAD, FIFO, 1 2, 3 4 5",
        "HEAD, LIFO, 1 2, 5 4 3",
        "TAIL, FIFO, 4 5, 1 2 3",
        "TAIL, LIFO, 4 5, 3 2 1",
    })
    void dropsAtItsEndWhenFullAndServesInItsOrder(
        final DropEnd drop, final ServeOrder order, final String dropped, final String served)
    {
        final RequestQueue queue = new DropQueueSpec(3, drop, order).newQueue();
        final RecordingSink sink = new RecordingSink();
        for (int i = 1; i <= 5; i++)
        {
            queue.enqueue(request(i, i), i, sink);
            assertThat(queue.size()).isEqualTo(Math.min(i, 3));
        }
        assertThat(sink.refs()).isEqualTo(parse(dropped));
        assertThat(sink.timesNs).containsExactly(4L, 5L);
        assertThat(dequeueAll(queue, 10, sink)).isEqualTo(parse(served));
        assertThat(sink.dropped).hasSize(2);
    }

    @ParameterizedTest
    @EnumSource(DropEnd.class)
    void maxZeroDropsEveryRequestAtOnce(final DropEnd drop)
    {
        final RequestQueue queue = new DropQueueSpec(0, drop, ServeOrder.FIFO).newQueue();
        final RecordingSink sink = new RecordingSink();
        for (int i = 1; i <= 3; i++)
        {
            queue.enqueue(request(i, i), i, sink);
            assertThat(queue.size()).isZero();
        }
        assertThat(sink.refs()).containsExactly(1L, 2L, 3L);
        assertThat(queue.dequeue(10, sink)).isNull();
    }

    @Test
    void neverDropsByTime()
    {
        final RequestQueue queue = DropQueueSpec.unbounded().newQueue();
        final RecordingSink sink = new RecordingSink();
        queue.enqueue(request(1, 0), 0, sink);
        queue.expire(Long.MAX_VALUE / 2, sink);
        assertThat(queue.nextExpiryNs(0)).isEqualTo(Long.MAX_VALUE);
        assertThat(queue.size()).isEqualTo(1);
        assertThat(sink.dropped).isEmpty();
    }

    @Test
    void cancelRemovesOnlyTheRequestOfThatRequesterAndRef()
    {
        final RequestQueue queue = DropQueueSpec.fifo(10).newQueue();
        final RecordingSink sink = new RecordingSink();
        final BrokerRequest one = request(1, 0);
        final BrokerRequest two = request(2, 0);
        queue.enqueue(one, 0, sink);
        queue.enqueue(two, 0, sink);
        assertThat(queue.cancel(one.requester(), 2)).isNull();
        assertThat(queue.cancel(two.requester(), 2)).isSameAs(two);
        assertThat(queue.cancel(two.requester(), 2)).isNull();
        assertThat(queue.size()).isEqualTo(1);
        assertThat(queue.dequeue(0, sink)).isSameAs(one);
    }

    @Test
    void adoptKeepsEveryRequestPastMaxAndTheNextArrivalTrimsFromTheHead()
    {
        final RequestQueue queue = new DropQueueSpec(2, DropEnd.HEAD, ServeOrder.FIFO).newQueue();
        for (int i = 1; i <= 4; i++)
        {
            queue.adopt(request(i, i));
        }
        assertThat(queue.size()).isEqualTo(4);
        final RecordingSink sink = new RecordingSink();
        queue.enqueue(request(5, 5), 5, sink);
        assertThat(sink.refs()).containsExactly(1L, 2L, 3L);
        assertThat(dequeueAll(queue, 5, sink)).containsExactly(4L, 5L);
    }

    @Test
    void adoptKeepsEveryRequestPastMaxAndTheNextArrivalTrimsFromTheTail()
    {
        final RequestQueue queue = new DropQueueSpec(2, DropEnd.TAIL, ServeOrder.FIFO).newQueue();
        for (int i = 1; i <= 4; i++)
        {
            queue.adopt(request(i, i));
        }
        final RecordingSink sink = new RecordingSink();
        queue.enqueue(request(5, 5), 5, sink);
        assertThat(sink.refs()).containsExactly(4L, 3L, 5L);
        assertThat(dequeueAll(queue, 5, sink)).containsExactly(1L, 2L);
    }

    @Test
    void factoriesAndValidation()
    {
        assertThat(DropQueueSpec.fifo(5)).isEqualTo(new DropQueueSpec(5, DropEnd.TAIL, ServeOrder.FIFO));
        assertThat(DropQueueSpec.lifo(5)).isEqualTo(new DropQueueSpec(5, DropEnd.HEAD, ServeOrder.LIFO));
        assertThat(new DropQueueSpec(Integer.MAX_VALUE, DropEnd.HEAD, ServeOrder.FIFO).max())
            .isEqualTo(DropQueueSpec.UNBOUNDED);
        assertThatThrownBy(() -> DropQueueSpec.fifo(-1))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("DropQueueSpec.max must be 0 or more (Integer.MAX_VALUE for no limit), was -1");
        assertThatThrownBy(() -> new DropQueueSpec(1, null, ServeOrder.FIFO))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("DropQueueSpec.drop must not be null");
        assertThatThrownBy(() -> new DropQueueSpec(1, DropEnd.HEAD, null))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("DropQueueSpec.order must not be null");
    }

    private static List<Long> parse(final String refs)
    {
        return Arrays.stream(refs.split(" ")).map(Long::valueOf).toList();
    }
}
