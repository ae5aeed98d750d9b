package io.troupe.node.metrics;

import io.troupe.actor.HandlingObserver;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Events handled and handling time per actor type ({@code troupe.metrics.prometheus.actor-types}): the node's
 * {@link HandlingObserver}. Each type has a count, a sum and a fixed histogram of decade buckets from 1 us to 10 s,
 * all {@link LongAdder}s, so the pool workers record without contending or allocating; a scrape reads them. The type's
 * name is its class's, without the suffix the JVM gives a lambda's class. At most {@link #MAX_TYPES} types are kept
 * apart; the rest are summed under {@value #OTHER}.
 */
public final class ActorTypeMetrics implements HandlingObserver
{
    /** Upper bounds of the buckets, in ns (the last bucket, +Inf, is implied). */
    static final long[] BOUNDS_NS = {1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L, 100_000_000L,
        1_000_000_000L, 10_000_000_000L};
    /** Types kept apart; more share one entry. */
    static final int MAX_TYPES = 1_000;
    /** The name of the entry for types beyond {@link #MAX_TYPES}. */
    static final String OTHER = "other";

    /** One type's figures. */
    static final class TypeStats
    {
        final String name;
        final LongAdder count = new LongAdder();
        final LongAdder sumNs = new LongAdder();
        /** Events per bucket (not cumulative), the last one beyond every bound. */
        final LongAdder[] buckets = new LongAdder[BOUNDS_NS.length + 1];

        TypeStats(final String name)
        {
            this.name = name;
            for (int i = 0; i < buckets.length; i++)
            {
                buckets[i] = new LongAdder();
            }
        }

        void record(final long nanos)
        {
            count.increment();
            sumNs.add(nanos);
            int bucket = 0;
            while (bucket < BOUNDS_NS.length && nanos > BOUNDS_NS[bucket])
            {
                bucket++;
            }
            buckets[bucket].increment();
        }
    }

    /** By name: two classes of one name (two lambdas of one class) are one type. */
    private final ConcurrentHashMap<String, TypeStats> byName = new ConcurrentHashMap<>();
    private final TypeStats other = new TypeStats(OTHER);
    /** The fast path: a class's entry, found without hashing its name. */
    private final ClassValue<TypeStats> byClass = new ClassValue<>()
    {
        @Override
        protected TypeStats computeValue(final Class<?> type)
        {
            final String name = name(type);
            final TypeStats known = byName.get(name);
            if (known != null)
            {
                return known;
            }
            return byName.size() >= MAX_TYPES ? other : byName.computeIfAbsent(name, TypeStats::new);
        }
    };

    /** Metrics with no type seen yet. */
    public ActorTypeMetrics()
    {
        byName.put(OTHER, other);
    }

    @Override
    public void handled(final Class<?> actorType, final long nanos)
    {
        byClass.get(actorType).record(nanos);
    }

    /**
     * The types seen, with their figures at the time of the call (a type's entries are read one after another,
     * so a scrape during handling may see a count one event ahead of its buckets).
     *
     * @return one entry per type with at least one event.
     */
    List<TypeStats> types()
    {
        final List<TypeStats> seen = new ArrayList<>();
        for (final TypeStats stats : byName.values())
        {
            if (stats.count.sum() > 0)
            {
                seen.add(stats);
            }
        }
        return seen;
    }

    /**
     * A class's name for a label: its name, without the suffix of a lambda's class ({@code $$Lambda...}).
     *
     * @param type the class.
     * @return the name.
     */
    static String name(final Class<?> type)
    {
        final String name = type.getName();
        final int lambda = name.indexOf("$$Lambda");
        return lambda < 0 ? name : name.substring(0, lambda);
    }
}
