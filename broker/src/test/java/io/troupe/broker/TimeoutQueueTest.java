package io.troupe.broker;

import io.troupe.broker.TestRequests.RecordingSink;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.troupe.broker.TestRequests.dequeueAll;
import static io.troupe.broker.TestRequests.ms;
import static io.troupe.broker.TestRequests.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TimeoutQueueTest
{
    private static final Duration TIMEOUT = Duration.ofMillis(100);

    @Test
    void dropsExactlyTheRequestsPastTheTimeoutOldestFirst()
    {
        final RequestQueue queue = TimeoutQueueSpec.of(TIMEOUT).newQueue();
        final RecordingSink sink = new RecordingSink();
        for (int i = 0; i < 6; i++)
        {
            queue.enqueue(request(i, ms(10 * i)), ms(10 * i), sink);
        }
        queue.expire(ms(110), sink);
        // request 0 waited 110 ms; request 1 exactly 100 ms, which is not past the timeout
        assertThat(sink.refs()).containsExactly(0L);
        assertThat(queue.nextExpiryNs(ms(110))).isEqualTo(ms(110) + 1);
        queue.expire(ms(110) + 1, sink);
        assertThat(sink.refs()).containsExactly(0L, 1L);
        queue.expire(ms(135), sink);
        assertThat(sink.refs()).containsExactly(0L, 1L, 2L, 3L);
        assertThat(sink.timesNs).containsExactly(ms(110), ms(110) + 1, ms(135), ms(135));
        assertThat(queue.size()).isEqualTo(2);
        assertThat(queue.nextExpiryNs(ms(135))).isEqualTo(ms(140) + 1);
    }

    @Test
    void neverDropsBelowMin()
    {
        final RequestQueue queue = new TimeoutQueueSpec(TIMEOUT, 3, 100, DropEnd.TAIL, ServeOrder.FIFO).newQueue();
        final RecordingSink sink = new RecordingSink();
        for (int i = 0; i < 5; i++)
        {
            queue.enqueue(request(i, 0), 0, sink);
        }
        assertThat(queue.nextExpiryNs(0)).isEqualTo(ms(100) + 1);
        queue.expire(ms(10_000), sink);
        assertThat(sink.refs()).containsExactly(0L, 1L);
        assertThat(queue.size()).isEqualTo(3);
        assertThat(queue.nextExpiryNs(ms(10_000))).isEqualTo(Long.MAX_VALUE);
        // a fourth request makes one timed-out request droppable again
        queue.enqueue(request(5, ms(10_000)), ms(10_000), sink);
        assertThat(queue.nextExpiryNs(ms(10_000))).isEqualTo(ms(100) + 1);
        queue.expire(ms(10_000), sink);
        assertThat(sink.refs()).containsExactly(0L, 1L, 2L);
    }

    @Test
    void nextExpiryIsNeverWhenEmpty()
    {
        final RequestQueue queue = TimeoutQueueSpec.of(TIMEOUT).newQueue();
        assertThat(queue.nextExpiryNs(0)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void fifoDequeueTimesOutFirstThenTakesTheOldestLeft()
    {
        final RequestQueue queue = TimeoutQueueSpec.of(TIMEOUT).newQueue();
        final RecordingSink sink = new RecordingSink();
        for (int i = 0; i < 4; i++)
        {
            queue.enqueue(request(i, ms(50 * i)), ms(50 * i), sink);
        }
        assertThat(queue.dequeue(ms(170), sink).ref()).isEqualTo(2);
        assertThat(sink.refs()).containsExactly(0L, 1L);
    }

    @Test
    void lifoDequeueTimesOutFirstThenTakesTheNewest()
    {
        final RequestQueue queue = new TimeoutQueueSpec(TIMEOUT, 0, 10, DropEnd.TAIL, ServeOrder.LIFO).newQueue();
        final RecordingSink sink = new RecordingSink();
        for (int i = 0; i < 4; i++)
        {
            queue.enqueue(request(i, ms(50 * i)), ms(50 * i), sink);
        }
        assertThat(queue.dequeue(ms(170), sink).ref()).isEqualTo(3);
        assertThat(sink.refs()).containsExactly(0L, 1L);
        assertThat(queue.size()).isEqualTo(1);
        assertThat(queue.dequeue(ms(1_000), sink)).isNull();
        assertThat(sink.refs()).containsExactly(0L, 1L, 2L);
    }

    @Test
    void aFullQueueDropsAtItsEnd()
    {
        final RecordingSink sink = new RecordingSink();
        final RequestQueue head = new TimeoutQueueSpec(TIMEOUT, 0, 2, DropEnd.HEAD, ServeOrder.FIFO).newQueue();
        final RequestQueue tail = new TimeoutQueueSpec(TIMEOUT, 0, 2, DropEnd.TAIL, ServeOrder.FIFO).newQueue();
        for (int i = 1; i <= 3; i++)
        {
            head.enqueue(request(i, 0), 0, sink);
        }
        for (int i = 1; i <= 3; i++)
        {
            tail.enqueue(request(i, 0), 0, sink);
        }
        assertThat(sink.refs()).containsExactly(1L, 3L);
        assertThat(dequeueAll(head, 0, sink)).containsExactly(2L, 3L);
        assertThat(dequeueAll(tail, 0, sink)).containsExactly(1L, 2L);
    }

    @Test
    void validation()
    {
        assertThatThrownBy(() -> TimeoutQueueSpec.of(Duration.ofMillis(-1)))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("TimeoutQueueSpec.timeout must be 0 or more and at most " + Long.MAX_VALUE +
                " ns, was PT-0.001S");
        assertThatThrownBy(() -> TimeoutQueueSpec.of(Duration.ofDays(365L * 1_000)))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("TimeoutQueueSpec.timeout must be 0 or more");
        assertThatThrownBy(() -> TimeoutQueueSpec.of(null))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("TimeoutQueueSpec.timeout must not be null");
        assertThatThrownBy(() -> new TimeoutQueueSpec(TIMEOUT, 5, 4, DropEnd.HEAD, ServeOrder.FIFO))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("TimeoutQueueSpec.min must be from 0 to max (4), was 5");
        assertThatThrownBy(() -> new TimeoutQueueSpec(TIMEOUT, -1, 4, DropEnd.HEAD, ServeOrder.FIFO))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("TimeoutQueueSpec.min must be from 0 to max (4), was -1");
        assertThatThrownBy(() -> new TimeoutQueueSpec(TIMEOUT, 0, -4, DropEnd.HEAD, ServeOrder.FIFO))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("TimeoutQueueSpec.max must be 0 or more (Integer.MAX_VALUE for no limit), was -4");
        assertThat(TimeoutQueueSpec.of(Duration.ZERO).timeout()).isEqualTo(Duration.ZERO);
    }
}
