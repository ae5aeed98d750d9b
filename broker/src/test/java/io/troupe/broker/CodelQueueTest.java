package io.troupe.broker;

import io.troupe.broker.TestRequests.RecordingSink;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.troupe.broker.TestRequests.ms;
import static io.troupe.broker.TestRequests.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class CodelQueueTest
{
    private static final long INTERVAL_NS = ms(1_000);
    private static final long TARGET_NS = ms(100);

    @Test
    void arrivalsWithoutCounterpartyDropFirstAfterTargetPlusIntervalThenAtIntervalOverSqrtCount()
    {
        final CodelQueue queue = (CodelQueue)CodelQueueSpec.defaults().newQueue();
        final RecordingSink sink = new RecordingSink();
        final Broker broker = new Broker(queue, sink);
        broker.run(ms(10), 0, ms(8_000));

        // the oldest request (sent at 0) reaches target at 100 ms and stays above it for an interval
        assertThat(sink.timesNs.get(0)).isEqualTo(ms(1_100));
        assertThat(sink.refs().subList(0, 3)).containsExactly(0L, 1L, 2L);
        assertThat(sink.dropped).hasSizeGreaterThanOrEqualTo(10);
        for (int k = 1; k < sink.timesNs.size(); k++)
        {
            final long spacingNs = sink.timesNs.get(k) - sink.timesNs.get(k - 1);
            assertThat((double)spacingNs).as("spacing after drop %d", k)
                .isCloseTo(INTERVAL_NS / Math.sqrt(k), within(1.0));
        }
        assertThat(queue.isDropping()).isTrue();
        assertThat(queue.dropCount()).isEqualTo(sink.dropped.size());
        assertThat(queue.size()).isEqualTo(broker.arrivals - sink.dropped.size());
    }

    @Test
    void steadyBacklogBelowTargetIsNeverDropped()
    {
        final RequestQueue queue = CodelQueueSpec.defaults().newQueue();
        final RecordingSink sink = new RecordingSink();
        final Broker broker = new Broker(queue, sink);
        broker.prefill(9, ms(10));
        broker.run(ms(10), ms(5), ms(20_000));
        assertThat(sink.dropped).isEmpty();
        assertThat(broker.matchSojournsNs).allSatisfy(sojournNs -> assertThat(sojournNs).isEqualTo(ms(95)));
    }

    @Test
    void steadyBacklogAboveTargetIsDroppedUntilTheSojournFallsBelowTarget()
    {
        final CodelQueue queue = (CodelQueue)CodelQueueSpec.defaults().newQueue();
        final RecordingSink sink = new RecordingSink();
        final Broker broker = new Broker(queue, sink);
        broker.prefill(15, ms(10));
        broker.run(ms(10), ms(5), ms(20_000));
        // first seen above target at 0 (the oldest waited 150 ms): first drop an interval later
        assertThat(sink.timesNs.get(0)).isEqualTo(ms(1_000));
        // each drop shortens the backlog by one arrival (10 ms); after 5 drops a match waits 105 ms, but the
        // oldest left right after it has waited 95 ms: the minimum sojourn is below target, dropping stops
        assertThat(sink.dropped).hasSize(5);
        assertThat(sink.timesNs).containsExactly(ms(1_000), ms(2_000), ms(2_000) + (long)(INTERVAL_NS / Math.sqrt(2)),
            ms(2_000) + (long)(INTERVAL_NS / Math.sqrt(2)) + (long)(INTERVAL_NS / Math.sqrt(3)),
            ms(2_000) + (long)(INTERVAL_NS / Math.sqrt(2)) + (long)(INTERVAL_NS / Math.sqrt(3)) + INTERVAL_NS / 2);
        final List<Long> lastSojournsNs = broker.matchSojournsNs.subList(
            broker.matchSojournsNs.size() - 1_000, broker.matchSojournsNs.size());
        assertThat(lastSojournsNs).allSatisfy(sojournNs -> assertThat(sojournNs).isEqualTo(ms(105)));
        assertThat(queue.isDropping()).isFalse();
    }

    @Test
    void nextExpiryFollowsTheState()
    {
        final CodelQueue queue = (CodelQueue)CodelQueueSpec.defaults().newQueue();
        final RecordingSink sink = new RecordingSink();
        assertThat(queue.nextExpiryNs(0)).isEqualTo(Long.MAX_VALUE);
        queue.enqueue(request(0, ms(10)), ms(10), sink);
        queue.enqueue(request(1, ms(20)), ms(20), sink);
        queue.expire(ms(20), sink);
        // below target: when the oldest will reach it
        assertThat(queue.nextExpiryNs(ms(20))).isEqualTo(ms(110));
        queue.expire(ms(110), sink);
        // above target: the end of the first interval
        assertThat(queue.nextExpiryNs(ms(110))).isEqualTo(ms(1_110));
        queue.expire(ms(1_109), sink);
        assertThat(sink.dropped).isEmpty();
        queue.expire(ms(1_110), sink);
        assertThat(sink.refs()).containsExactly(0L);
        assertThat(queue.isDropping()).isTrue();
        // dropping: the next scheduled drop
        assertThat(queue.nextExpiryNs(ms(1_110))).isEqualTo(ms(2_110));
        queue.expire(ms(2_110), sink);
        // the last request goes too: with min 0 CoDel may empty the queue
        assertThat(sink.refs()).containsExactly(0L, 1L);
        assertThat(queue.nextExpiryNs(ms(2_110))).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void leavesTheDroppingStateWhenTheOldestIsBelowTarget()
    {
        final CodelQueue queue = (CodelQueue)CodelQueueSpec.defaults().newQueue();
        final RecordingSink sink = new RecordingSink();
        enterDroppingWithFourDrops(queue, sink);
        // counterparties take the old requests; a fresh one is left
        queue.enqueue(request(100, ms(3_500)), ms(3_500), sink);
        for (int i = 4; i < 10; i++)
        {
            assertThat(queue.dequeue(ms(3_500), sink).ref()).isEqualTo(i);
        }
        queue.expire(ms(3_500), sink);
        assertThat(queue.isDropping()).isFalse();
        assertThat(queue.nextExpiryNs(ms(3_500))).isEqualTo(ms(3_600));
        assertThat(sink.dropped).hasSize(4);
    }

    @Test
    void reEnteringSoonAfterLeavingResumesTheDropRate()
    {
        final CodelQueue queue = (CodelQueue)CodelQueueSpec.defaults().newQueue();
        final RecordingSink sink = new RecordingSink();
        enterDroppingWithFourDrops(queue, sink);
        leaveWithTwoFreshRequests(queue, sink);
        queue.expire(ms(3_600), sink);
        assertThat(queue.nextExpiryNs(ms(3_600))).isEqualTo(ms(4_600));
        queue.expire(ms(4_600), sink);
        assertThat(sink.refs()).containsExactly(0L, 1L, 2L, 3L, 100L);
        // 4 drops in the last episode, entered at count 1: resume at count 3, not 1
        assertThat(queue.dropCount()).isEqualTo(3);
        assertThat(queue.nextExpiryNs(ms(4_600))).isEqualTo(ms(4_600) + (long)(INTERVAL_NS / Math.sqrt(3)));
    }

    @Test
    void reEnteringLongAfterLeavingStartsOverAtCountOne()
    {
        final CodelQueue queue = (CodelQueue)CodelQueueSpec.defaults().newQueue();
        final RecordingSink sink = new RecordingSink();
        enterDroppingWithFourDrops(queue, sink);
        leaveWithTwoFreshRequests(queue, sink);
        // the last scheduled drop was at 3884 ms: 16 intervals later is past 19884 ms
        queue.expire(ms(19_000), sink);
        queue.expire(ms(20_000), sink);
        assertThat(sink.refs()).containsExactly(0L, 1L, 2L, 3L, 100L);
        assertThat(queue.dropCount()).isEqualTo(1);
        assertThat(queue.nextExpiryNs(ms(20_000))).isEqualTo(ms(21_000));
    }

    @Test
    void neverDropsBelowMin()
    {
        final CodelQueue queue = (CodelQueue)new CodelQueueSpec(
            Duration.ofMillis(100), Duration.ofMillis(1_000), 3, 100, DropEnd.TAIL, ServeOrder.FIFO).newQueue();
        final RecordingSink sink = new RecordingSink();
        for (int i = 0; i < 5; i++)
        {
            queue.enqueue(request(i, 0), 0, sink);
        }
        queue.expire(ms(100), sink);
        queue.expire(ms(1_100), sink);
        queue.expire(ms(2_100), sink);
        assertThat(sink.refs()).containsExactly(0L, 1L);
        assertThat(queue.size()).isEqualTo(3);
        assertThat(queue.isDropping()).isFalse();
        assertThat(queue.nextExpiryNs(ms(2_100))).isEqualTo(Long.MAX_VALUE);
        queue.expire(ms(100_000), sink);
        assertThat(queue.size()).isEqualTo(3);
        // above min again: the sojourn must stay above target for a new interval
        queue.enqueue(request(5, ms(100_000)), ms(100_000), sink);
        queue.expire(ms(100_000), sink);
        assertThat(queue.nextExpiryNs(ms(100_000))).isEqualTo(ms(101_000));
        queue.expire(ms(101_000), sink);
        assertThat(sink.refs()).containsExactly(0L, 1L, 2L);
    }

    @Test
    void dequeueDropsWhatIsDueThenMatchesInServeOrder()
    {
        for (final ServeOrder order : ServeOrder.values())
        {
            final CodelQueue queue = (CodelQueue)new CodelQueueSpec(
                Duration.ofMillis(100), Duration.ofMillis(1_000), 0, 100, DropEnd.TAIL, order).newQueue();
            final RecordingSink sink = new RecordingSink();
            for (int i = 0; i < 5; i++)
            {
                queue.enqueue(request(i, 0), 0, sink);
            }
            queue.expire(ms(100), sink);
            // no expire at 1100 ms: the dequeue itself finds the first drop due
            final BrokerRequest matched = queue.dequeue(ms(1_100), sink);
            assertThat(sink.refs()).as(order.name()).containsExactly(0L);
            assertThat(matched.ref()).as(order.name()).isEqualTo(order == ServeOrder.FIFO ? 1 : 4);
            assertThat(queue.isDropping()).isTrue();
        }
    }

    @Test
    void arrivalsDropOnlyForTheMaximumLength()
    {
        final RequestQueue queue = new CodelQueueSpec(
            Duration.ofMillis(100), Duration.ofMillis(1_000), 0, 2, DropEnd.HEAD, ServeOrder.FIFO).newQueue();
        final RecordingSink sink = new RecordingSink();
        queue.enqueue(request(0, 0), 0, sink);
        queue.enqueue(request(1, 0), ms(5_000), sink);
        assertThat(sink.dropped).isEmpty();
        queue.enqueue(request(2, ms(5_000)), ms(5_000), sink);
        assertThat(sink.refs()).containsExactly(0L);
    }

    @Test
    void defaultsAndValidation()
    {
        assertThat(CodelQueueSpec.defaults()).isEqualTo(new CodelQueueSpec(Duration.ofMillis(100),
            Duration.ofSeconds(1), 0, Integer.MAX_VALUE, DropEnd.TAIL, ServeOrder.FIFO));
        assertThatThrownBy(() -> CodelQueueSpec.of(Duration.ofMillis(5), Duration.ZERO))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("CodelQueueSpec.interval must be more than 0 and at most " + Long.MAX_VALUE + " ns, was PT0S");
        assertThatThrownBy(() -> CodelQueueSpec.of(Duration.ofMillis(-5), Duration.ofMillis(100)))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("CodelQueueSpec.target must be 0 or more and at most " + Long.MAX_VALUE + " ns, was PT-0.005S");
        assertThatThrownBy(() -> new CodelQueueSpec(Duration.ofMillis(5), Duration.ofMillis(100), 3, 2,
            DropEnd.TAIL, ServeOrder.FIFO))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("CodelQueueSpec.min must be from 0 to max (2), was 3");
        assertThat(CodelQueueSpec.of(Duration.ZERO, Duration.ofNanos(1)).target()).isEqualTo(Duration.ZERO);
    }

    /** Ten requests sent at 0; drops at 1100, 2100, 2807.1 and 3384.5 ms; next drop due at 3884.5 ms. */
    private static void enterDroppingWithFourDrops(final CodelQueue queue, final RecordingSink sink)
    {
        for (int i = 0; i < 10; i++)
        {
            queue.enqueue(request(i, 0), 0, sink);
        }
        queue.expire(ms(100), sink);
        long atNs = ms(1_100);
        for (int drop = 1; drop <= 4; drop++)
        {
            assertThat(queue.nextExpiryNs(atNs)).isEqualTo(atNs);
            queue.expire(atNs, sink);
            assertThat(queue.dropCount()).isEqualTo(drop);
            atNs = queue.nextExpiryNs(atNs);
        }
        assertThat(sink.refs()).containsExactly(0L, 1L, 2L, 3L);
        assertThat(queue.isDropping()).isTrue();
        assertThat(atNs).isEqualTo(ms(1_100) + INTERVAL_NS + (long)(INTERVAL_NS / Math.sqrt(2))
            + (long)(INTERVAL_NS / Math.sqrt(3)) + (long)(INTERVAL_NS / Math.sqrt(4)));
    }

    /** At 3500 ms, two fresh requests arrive and counterparties take the six old ones. */
    private static void leaveWithTwoFreshRequests(final CodelQueue queue, final RecordingSink sink)
    {
        queue.enqueue(request(100, ms(3_500)), ms(3_500), sink);
        queue.enqueue(request(101, ms(3_500)), ms(3_500), sink);
        for (int i = 4; i < 10; i++)
        {
            queue.dequeue(ms(3_500), sink);
        }
        queue.expire(ms(3_500), sink);
        assertThat(queue.isDropping()).isFalse();
        assertThat(queue.dropCount()).isEqualTo(4);
    }

    /**
     * A scripted broker: a request arrives every {@code arrivalEveryNs}; optionally a counterparty every as
     * often, {@code matchOffsetNs} after each arrival; expire after each event and at the queue's next
     * expiry.
     */
    private static final class Broker
    {
        final RequestQueue queue;
        final RecordingSink sink;
        final List<Long> matchSojournsNs = new ArrayList<>();
        long nextId;
        int arrivals;

        Broker(final RequestQueue queue, final RecordingSink sink)
        {
            this.queue = queue;
            this.sink = sink;
        }

        /** A backlog of requests sent before time 0, one every {@code everyNs}, the last at {@code -everyNs}. */
        void prefill(final int count, final long everyNs)
        {
            for (int i = count; i >= 1; i--)
            {
                queue.adopt(request(nextId++, -i * everyNs));
                arrivals++;
            }
        }

        void run(final long arrivalEveryNs, final long matchOffsetNs, final long endNs)
        {
            long nowNs = 0;
            long nextArrivalNs = 0;
            long nextMatchNs = matchOffsetNs > 0 ? matchOffsetNs : Long.MAX_VALUE;
            for (int events = 0; ; events++)
            {
                assertThat(events).as("events").isLessThan(1_000_000);
                long atNs = Math.min(nextArrivalNs, nextMatchNs);
                final long expiryNs = queue.nextExpiryNs(nowNs);
                if (expiryNs != Long.MAX_VALUE && expiryNs - atNs < 0)
                {
                    atNs = Math.max(expiryNs, nowNs);
                }
                if (atNs > endNs)
                {
                    return;
                }
                nowNs = atNs;
                if (nowNs == nextArrivalNs)
                {
                    queue.enqueue(request(nextId++, nowNs), nowNs, sink);
                    arrivals++;
                    nextArrivalNs += arrivalEveryNs;
                }
                if (nowNs == nextMatchNs)
                {
                    final BrokerRequest matched = queue.dequeue(nowNs, sink);
                    if (matched != null)
                    {
                        matchSojournsNs.add(matched.sojournNs(nowNs));
                    }
                    nextMatchNs += arrivalEveryNs;
                }
                queue.expire(nowNs, sink);
            }
        }
    }
}
