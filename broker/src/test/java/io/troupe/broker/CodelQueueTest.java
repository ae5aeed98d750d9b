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
        final CodelQueue queue = (CodelQueue)rfc().newQueue();
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
        final RequestQueue queue = rfc().newQueue();
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
        final CodelQueue queue = (CodelQueue)rfc().newQueue();
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
        final CodelQueue queue = (CodelQueue)rfc().newQueue();
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
        final CodelQueue queue = (CodelQueue)rfc().newQueue();
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
        final CodelQueue queue = (CodelQueue)rfc().newQueue();
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
        final CodelQueue queue = (CodelQueue)rfc().newQueue();
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
        final CodelQueue queue = (CodelQueue)new CodelQueueSpec(Duration.ofMillis(100),
            Duration.ofMillis(1_000), CodelQueueSpec.NO_SOJOURN_LIMIT, 3, 100, DropEnd.TAIL, ServeOrder.FIFO)
            .newQueue();
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
            final CodelQueue queue = (CodelQueue)new CodelQueueSpec(Duration.ofMillis(100),
                Duration.ofMillis(1_000), CodelQueueSpec.NO_SOJOURN_LIMIT, 0, 100, DropEnd.TAIL, order).newQueue();
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
        final RequestQueue queue = new CodelQueueSpec(Duration.ofMillis(100),
            Duration.ofMillis(1_000), CodelQueueSpec.NO_SOJOURN_LIMIT, 0, 2, DropEnd.HEAD, ServeOrder.FIFO).newQueue();
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
            Duration.ofSeconds(1), Duration.ofMillis(200), 0, Integer.MAX_VALUE, DropEnd.TAIL, ServeOrder.FIFO));
        assertThat(CodelQueueSpec.of(Duration.ofMillis(5), Duration.ofMillis(100)).sojournLimit())
            .isEqualTo(Duration.ofMillis(10));
        assertThat(CodelQueueSpec.of(Duration.ofNanos(Long.MAX_VALUE / 2 + 1), Duration.ofMillis(100)).sojournLimit())
            .isEqualTo(CodelQueueSpec.NO_SOJOURN_LIMIT);
        assertThatThrownBy(() -> CodelQueueSpec.defaults().withSojournLimit(Duration.ofMillis(99)))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("CodelQueueSpec.sojournLimit must be at least target (PT0.1S), was PT0.099S");
        assertThatThrownBy(() -> CodelQueueSpec.defaults().withSojournLimit(null))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("CodelQueueSpec.sojournLimit must not be null");
        assertThat(CodelQueueSpec.defaults().withSojournLimit(Duration.ofMillis(100)).sojournLimit())
            .isEqualTo(Duration.ofMillis(100));
        assertThatThrownBy(() -> CodelQueueSpec.of(Duration.ofMillis(5), Duration.ZERO))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("CodelQueueSpec.interval must be more than 0 and at most " + Long.MAX_VALUE + " ns, was PT0S");
        assertThatThrownBy(() -> CodelQueueSpec.of(Duration.ofMillis(-5), Duration.ofMillis(100)))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("CodelQueueSpec.target must be 0 or more and at most " + Long.MAX_VALUE + " ns, was PT-0.005S");
        assertThatThrownBy(() -> new CodelQueueSpec(Duration.ofMillis(5), Duration.ofMillis(100),
            Duration.ofMillis(10), 3, 2, DropEnd.TAIL, ServeOrder.FIFO))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("CodelQueueSpec.min must be from 0 to max (2), was 3");
        assertThat(CodelQueueSpec.of(Duration.ZERO, Duration.ofNanos(1)).target()).isEqualTo(Duration.ZERO);
    }

    @Test
    void whileDroppingRequestsPastTheSojournLimitDropAtOnceWithoutRaisingTheCount()
    {
        final CodelQueue queue = (CodelQueue)CodelQueueSpec.defaults().newQueue();
        final RecordingSink sink = new RecordingSink();
        // twenty requests, one every 50 ms from 0 to 950 ms
        for (int i = 0; i < 20; i++)
        {
            queue.enqueue(request(i, ms(50 * i)), ms(50 * i), sink);
            queue.expire(ms(50 * i), sink);
        }
        // a burst may wait past the limit before CoDel acts: nothing drops in the first interval
        queue.expire(ms(1_099), sink);
        assertThat(sink.dropped).isEmpty();
        assertThat(queue.nextExpiryNs(ms(1_099))).isEqualTo(ms(1_100));

        queue.expire(ms(1_100), sink);
        // the control law's first drop (sent at 0), then everything that waited more than 200 ms (50..850 ms)
        assertThat(sink.refs()).containsExactlyElementsOf(refsFrom(0, 18));
        assertThat(sink.timesNs).allSatisfy(atNs -> assertThat(atNs).isEqualTo(ms(1_100)));
        assertThat(queue.size()).isEqualTo(2);
        assertThat(queue.isDropping()).as("the oldest (sent at 900 ms) is still above target").isTrue();
        assertThat(queue.dropCount()).isEqualTo(1);
        // next: the oldest passes the limit (1100 ms + 1 ns) before the next scheduled drop (2100 ms)
        assertThat(queue.nextExpiryNs(ms(1_100))).isEqualTo(ms(1_100) + 1);
        queue.expire(ms(1_100) + 1, sink);
        assertThat(sink.refs()).containsExactlyElementsOf(refsFrom(0, 19));
        assertThat(queue.dropCount()).isEqualTo(1);
        assertThat(queue.nextExpiryNs(ms(1_100) + 1)).isEqualTo(ms(1_150) + 1);
    }

    @Test
    void theSojournLimitNeverDropsBelowMin()
    {
        final CodelQueue queue = (CodelQueue)new CodelQueueSpec(Duration.ofMillis(100), Duration.ofMillis(1_000),
            Duration.ofMillis(200), 5, 100, DropEnd.TAIL, ServeOrder.FIFO).newQueue();
        final RecordingSink sink = new RecordingSink();
        for (int i = 0; i < 20; i++)
        {
            queue.enqueue(request(i, 0), 0, sink);
        }
        queue.expire(ms(100), sink);
        queue.expire(ms(1_100), sink);
        assertThat(sink.refs()).containsExactlyElementsOf(refsFrom(0, 15));
        assertThat(queue.size()).isEqualTo(5);
        assertThat(queue.isDropping()).isFalse();
        assertThat(queue.nextExpiryNs(ms(1_100))).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void arrivalsAtTwiceTheMatchRateAreMatchedWithinTheSojournLimitOnceDropping()
    {
        // the broker.overload workload, scripted: a request every 1 ms, a counterparty every 2 ms
        final CodelQueue queue = (CodelQueue)CodelQueueSpec.defaults().newQueue();
        final RecordingSink sink = new RecordingSink();
        final Broker broker = new Broker(queue, sink);
        broker.run(ms(1), 1, ms(2), ms(30_000));

        // one interval (plus target) before CoDel acts; from then on every match is within the limit
        final List<Long> late = broker.matchSojournsNs.subList(1_000, broker.matchSojournsNs.size());
        assertThat(late).allSatisfy(sojournNs -> assertThat(sojournNs).isBetween(ms(100), ms(200)));
        assertThat(broker.matchSojournsNs).hasSize(15_000);
        assertThat(broker.emptyMatches).as("a counterparty always finds a request: workers stay busy").isZero();
        assertThat(queue.isDropping()).isTrue();
        assertThat(queue.size()).isBetween(100, 201);
        // about half the arrivals drop, and every arrival is either matched, dropped or still queued
        assertThat(sink.dropped.size()).isBetween(14_500, 15_000);
        assertThat(broker.matchSojournsNs.size() + sink.dropped.size() + queue.size()).isEqualTo(broker.arrivals);

        // load below capacity: the backlog drains (half of it past the limit), CoDel leaves the dropping state
        final int droppedBefore = sink.dropped.size();
        broker.run(ms(3), 1, ms(2), ms(35_000));
        assertThat(queue.isDropping()).isFalse();
        assertThat(sink.dropped.size() - droppedBefore).isLessThan(200);
        // and from then on drops nothing
        final int droppedDraining = sink.dropped.size();
        broker.run(ms(3), 1, ms(2), ms(40_000));
        assertThat(sink.dropped.size()).isEqualTo(droppedDraining);
        assertThat(queue.size()).isLessThanOrEqualTo(1);
    }

    @Test
    void withoutTheSojournLimitArrivalsAtTwiceTheMatchRateOutrunTheControlLaw()
    {
        final CodelQueue queue = (CodelQueue)rfc().newQueue();
        final RecordingSink sink = new RecordingSink();
        final Broker broker = new Broker(queue, sink);
        broker.run(ms(1), 1, ms(2), ms(30_000));
        // drops by time t grow as about (t / 2 interval)^2: a few hundred against 15,000 excess arrivals
        assertThat(sink.dropped.size()).isBetween(150, 400);
        assertThat(broker.matchSojournsNs.get(broker.matchSojournsNs.size() - 1)).isGreaterThan(ms(10_000));
    }

    /** Plain RFC 8289: the default target and interval, no sojourn limit. */
    private static CodelQueueSpec rfc()
    {
        return CodelQueueSpec.defaults().withSojournLimit(CodelQueueSpec.NO_SOJOURN_LIMIT);
    }

    private static List<Long> refsFrom(final long first, final int count)
    {
        final List<Long> refs = new ArrayList<>();
        for (long ref = first; ref < first + count; ref++)
        {
            refs.add(ref);
        }
        return refs;
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
        int emptyMatches;
        long startNs;

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
            run(arrivalEveryNs, matchOffsetNs > 0 ? matchOffsetNs : Long.MAX_VALUE, arrivalEveryNs, endNs);
        }

        /**
         * From where the last run ended (time 0 at first): an arrival at once and every {@code arrivalEveryNs},
         * a counterparty {@code matchOffsetNs} later and every {@code matchEveryNs} ({@link Long#MAX_VALUE}
         * offset for none), until {@code endNs}.
         */
        void run(final long arrivalEveryNs, final long matchOffsetNs, final long matchEveryNs, final long endNs)
        {
            long nowNs = startNs;
            long nextArrivalNs = startNs;
            long nextMatchNs = matchOffsetNs == Long.MAX_VALUE ? Long.MAX_VALUE : startNs + matchOffsetNs;
            startNs = endNs;
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
                    else
                    {
                        emptyMatches++;
                    }
                    nextMatchNs += matchEveryNs;
                }
                queue.expire(nowNs, sink);
            }
        }
    }
}
