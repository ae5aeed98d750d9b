package io.troupe.node.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

/**
 * Per-actor-type metrics ({@link ActorTypeMetrics}) for Prometheus: {@code troupe_actor_events_handled_total} and the
 * histogram {@code troupe_actor_handling_seconds}, labelled {@code node} and {@code actor_type}.
 */
final class ActorTypeCollector implements MultiCollector
{
    private static final double[] BOUNDS_SECONDS;

    static
    {
        BOUNDS_SECONDS = new double[ActorTypeMetrics.BOUNDS_NS.length + 1];
        for (int i = 0; i < ActorTypeMetrics.BOUNDS_NS.length; i++)
        {
            BOUNDS_SECONDS[i] = ActorTypeMetrics.BOUNDS_NS[i] / 1e9;
        }
        BOUNDS_SECONDS[BOUNDS_SECONDS.length - 1] = Double.POSITIVE_INFINITY;
    }

    private final ActorTypeMetrics metrics;
    private final String node;

    ActorTypeCollector(final ActorTypeMetrics metrics, final int nodeId)
    {
        this.metrics = metrics;
        this.node = Integer.toString(nodeId);
    }

    @Override
    public MetricSnapshots collect()
    {
        final CounterSnapshot.Builder handled = CounterSnapshot.builder().name("troupe_actor_events_handled")
            .help("events handled by actors of the type");
        final HistogramSnapshot.Builder time = HistogramSnapshot.builder().name("troupe_actor_handling_seconds")
            .help("how long the type's handler took per event");
        for (final ActorTypeMetrics.TypeStats stats : metrics.types())
        {
            final Labels labels = Labels.of("node", node, "actor_type", stats.name);
            final long[] counts = new long[stats.buckets.length];
            long count = 0;
            for (int i = 0; i < counts.length; i++)
            {
                counts[i] = stats.buckets[i].sum();
                count += counts[i];
            }
            handled.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(count).build());
            time.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder().labels(labels)
                .classicHistogramBuckets(ClassicHistogramBuckets.of(BOUNDS_SECONDS, counts))
                .sum(stats.sumNs.sum() / 1e9).build());
        }
        return MetricSnapshots.of(handled.build(), time.build());
    }
}
