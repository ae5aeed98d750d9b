package io.troupe.broker;

import io.troupe.actor.ActorId;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random sequences of arrivals, matches, expiries, cancels, clock steps and reconfigurations against each
 * policy: every request that arrives leaves exactly once (matched, dropped, cancelled, or still queued at the
 * end), the size is always the count queued, and a reconfiguration hands over every queued request oldest
 * first without dropping any.
 */
class QueuePropertiesTest
{
    /** One operation: its kind, and raw numbers it picks its target and amounts from. */
    record Op(int kind, int pick, int amount)
    {
    }

    @Provide
    Arbitrary<List<Op>> operations()
    {
        final Arbitrary<Op> op = Combinators.combine(
            Arbitraries.integers().between(0, 13),
            Arbitraries.integers().between(0, 1_000),
            Arbitraries.integers().between(0, 500)).as(Op::new);
        return op.list().ofMinSize(30).ofMaxSize(200);
    }

    @Provide
    Arbitrary<QueueSpec> dropSpecs()
    {
        return Combinators.combine(max(0), Arbitraries.of(DropEnd.class), Arbitraries.of(ServeOrder.class))
            .as(DropQueueSpec::new);
    }

    @Provide
    Arbitrary<QueueSpec> timeoutSpecs()
    {
        return Combinators.combine(
            Arbitraries.integers().between(0, 40),
            Arbitraries.integers().between(0, 3),
            Arbitraries.integers().between(0, 9),
            Arbitraries.of(DropEnd.class),
            Arbitraries.of(ServeOrder.class))
            .as((timeoutMs, min, extra, drop, order) ->
                new TimeoutQueueSpec(Duration.ofMillis(timeoutMs), min, maxOver(min, extra), drop, order));
    }

    @Provide
    Arbitrary<QueueSpec> codelSpecs()
    {
        return Combinators.combine(
            Arbitraries.integers().between(0, 20),
            Arbitraries.integers().between(1, 60),
            Arbitraries.integers().between(-1, 40),
            Arbitraries.integers().between(0, 3),
            Arbitraries.integers().between(0, 9),
            Arbitraries.of(DropEnd.class),
            Arbitraries.of(ServeOrder.class))
            .as((targetMs, intervalMs, limitOverMs, min, extra, drop, order) -> new CodelQueueSpec(
                Duration.ofMillis(targetMs), Duration.ofMillis(intervalMs),
                limitOverMs < 0 ? CodelQueueSpec.NO_SOJOURN_LIMIT : Duration.ofMillis(targetMs + limitOverMs),
                min, maxOver(min, extra), drop, order));
    }

    @Provide
    Arbitrary<QueueSpec> fairSpecs()
    {
        final Arbitrary<FairKey> keys = Arbitraries.of(FairKey.CLIENT_NODE, FairKey.CLIENT_ACTOR, FairKey.REQUEST_KEY,
            FairKey.of(request -> request.ref() % 3));
        return Combinators.combine(Arbitraries.oneOf(dropSpecs(), timeoutSpecs(), codelSpecs()), keys)
            .as(FairQueueSpec::new);
    }

    @Provide
    Arbitrary<QueueSpec> anySpecs()
    {
        return Arbitraries.oneOf(dropSpecs(), timeoutSpecs(), codelSpecs(), fairSpecs());
    }

    @Property(tries = 250, edgeCases = EdgeCasesMode.MIXIN)
    void dropQueueAccountsForEveryRequest(@ForAll("dropSpecs") final QueueSpec spec,
        @ForAll("anySpecs") final QueueSpec other, @ForAll("operations") final List<Op> ops)
    {
        new Model(spec, other).run(ops);
        checkCoverage();
    }

    @Property(tries = 250, edgeCases = EdgeCasesMode.MIXIN)
    void timeoutQueueAccountsForEveryRequest(@ForAll("timeoutSpecs") final QueueSpec spec,
        @ForAll("anySpecs") final QueueSpec other, @ForAll("operations") final List<Op> ops)
    {
        new Model(spec, other).run(ops);
        checkCoverage();
    }

    @Property(tries = 250, edgeCases = EdgeCasesMode.MIXIN)
    void codelQueueAccountsForEveryRequest(@ForAll("codelSpecs") final QueueSpec spec,
        @ForAll("anySpecs") final QueueSpec other, @ForAll("operations") final List<Op> ops)
    {
        new Model(spec, other).run(ops);
        checkCoverage();
    }

    @Property(tries = 250, edgeCases = EdgeCasesMode.MIXIN)
    void fairQueueAccountsForEveryRequest(@ForAll("fairSpecs") final QueueSpec spec,
        @ForAll("anySpecs") final QueueSpec other, @ForAll("operations") final List<Op> ops)
    {
        new Model(spec, other).run(ops);
        checkCoverage();
    }

    /** Most runs (of 250) must reach every way out of a queue, or the checks would pass vacuously. */
    private static void checkCoverage()
    {
        Statistics.coverage(checker ->
        {
            checker.check("dropped").count(runs -> runs > 150);
            checker.check("matched").count(runs -> runs > 150);
            checker.check("cancelled").count(runs -> runs > 150);
            checker.check("reconfigured").count(runs -> runs > 150);
        });
    }

    private static Arbitrary<Integer> max(final int min)
    {
        return Arbitraries.integers().between(0, 9).map(extra -> maxOver(min, extra));
    }

    /** {@code min + extra}, with the largest extra standing for no limit. */
    private static int maxOver(final int min, final int extra)
    {
        return extra == 9 ? DropQueueSpec.UNBOUNDED : min + extra;
    }

    /** The queue under test and where every request it was given is now. */
    static final class Model implements DropSink
    {
        private final QueueSpec spec;
        private final QueueSpec other;
        private RequestQueue queue;
        private boolean onOther;
        private long nowNs = 1_000_000_000L;
        private long nextRef = 1;
        private int reconfigurations;
        private final List<BrokerRequest> arrived = new ArrayList<>();
        private final List<BrokerRequest> queued = new ArrayList<>();
        private final Map<BrokerRequest, String> left = new IdentityHashMap<>();

        Model(final QueueSpec spec, final QueueSpec other)
        {
            this.spec = spec;
            this.other = other;
            this.queue = spec.newQueue();
        }

        void run(final List<Op> ops)
        {
            for (final Op op : ops)
            {
                apply(op);
                assertThat(queue.size()).as("size after %s", op).isEqualTo(queued.size());
            }
            final List<BrokerRequest> remaining = new ArrayList<>();
            queue.drainTo(remaining::add);
            assertThat(queue.size()).isZero();
            for (final BrokerRequest request : remaining)
            {
                leave(request, "still queued");
            }
            assertThat(queued).isEmpty();
            assertThat(left).hasSize(arrived.size());
            for (final String how : List.of("dropped", "matched", "cancelled"))
            {
                if (left.containsValue(how))
                {
                    Statistics.collect(how);
                }
            }
            if (reconfigurations > 0)
            {
                Statistics.collect("reconfigured");
            }
            for (final BrokerRequest request : arrived)
            {
                assertThat(left).containsKey(request);
            }
        }

        @Override
        public void drop(final BrokerRequest request, final long atNs)
        {
            assertThat(atNs).isEqualTo(nowNs);
            leave(request, "dropped");
        }

        private void apply(final Op op)
        {
            switch (op.kind())
            {
                case 0, 1, 2, 3 -> arrive(op);
                case 4, 5 ->
                {
                    final BrokerRequest matched = queue.dequeue(nowNs, this);
                    if (matched == null)
                    {
                        assertThat(queued).as("queued when dequeue found none").isEmpty();
                    }
                    else
                    {
                        leave(matched, "matched");
                    }
                }
                case 6 -> queue.expire(nowNs, this);
                case 7 ->
                {
                    if (!queued.isEmpty())
                    {
                        final BrokerRequest victim = queued.get(op.pick() % queued.size());
                        assertThat(queue.cancel(victim.requester(), victim.ref())).isSameAs(victim);
                        leave(victim, "cancelled");
                    }
                }
                case 8 -> assertThat(queue.cancel(requester(op.pick()), -op.amount())).isNull();
                case 9, 10 -> nowNs += op.amount() * 100_000L;
                case 11 ->
                {
                    final long expiryNs = queue.nextExpiryNs(nowNs);
                    if (expiryNs != Long.MAX_VALUE && expiryNs - nowNs < 10_000_000_000L)
                    {
                        nowNs = Math.max(nowNs, expiryNs);
                        queue.expire(nowNs, this);
                    }
                }
                case 12 -> reconfigure();
                default -> assertThat(queue.nextExpiryNs(nowNs)).isNotNull();
            }
        }

        private void arrive(final Op op)
        {
            final ActorId requester = requester(op.pick());
            // the broker stamps sentNs in nearly arrival order: up to 3 ms of skew
            final long sentNs = nowNs - (op.amount() % 4) * 1_000_000L;
            final BrokerRequest request = new BrokerRequest(
                nextRef++, requester, 0, requester, sentNs, "key" + (op.pick() % 3));
            arrived.add(request);
            queued.add(request);
            queue.enqueue(request, nowNs, this);
        }

        private void reconfigure()
        {
            onOther = !onOther;
            reconfigurations++;
            final RequestQueue next = (onOther ? other : spec).newQueue();
            final List<BrokerRequest> handedOver = new ArrayList<>();
            queue.drainTo(request ->
            {
                handedOver.add(request);
                next.adopt(request);
            });
            assertThat(queue.size()).isZero();
            assertThat(handedOver).containsExactlyInAnyOrderElementsOf(queued);
            assertThat(handedOver).isSortedAccordingTo(RequestDeque.OLDEST_FIRST);
            assertThat(next.size()).as("adopted, none dropped").isEqualTo(queued.size());
            queue = next;
        }

        private void leave(final BrokerRequest request, final String how)
        {
            final String before = left.put(request, how);
            assertThat(before).as("%s left again: %s", request, how).isNull();
            assertThat(queued.removeIf(queuedRequest -> queuedRequest == request)).as("%s was queued", request)
                .isTrue();
        }

        private static ActorId requester(final int pick)
        {
            return ActorId.of(1 + pick % 3, 1 + pick % 4, 0);
        }
    }
}
