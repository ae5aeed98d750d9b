package io.troupe.node.metrics;

import io.troupe.memquota.CounterDescriptor;
import io.troupe.node.counters.CounterRecord;
import io.troupe.node.counters.CounterType;
import io.troupe.node.counters.CountersFileReader;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The node's counters file as Prometheus metrics: every counter becomes {@code troupe_<name>} (a counter, exposed with
 * {@code _total}, or a gauge, by its kind), labelled {@code node} and with the counter's own labels ({@code pool},
 * {@code peer}, {@code reason}); plus {@code troupe_node_info} and {@code troupe_node_up}. Reads the file the node
 * writes, so a scrape sees what {@code troupe counters} sees.
 */
final class CountersCollector implements MultiCollector
{
    private final CountersFileReader file;

    CountersCollector(final CountersFileReader file)
    {
        this.file = file;
    }

    @Override
    public MetricSnapshots collect()
    {
        final String node = Integer.toString(file.nodeId());
        final Map<String, List<CounterRecord>> byName = new LinkedHashMap<>();
        for (final CounterRecord record : file.counters())
        {
            byName.computeIfAbsent(record.name(), name -> new ArrayList<>()).add(record);
        }
        final MetricSnapshots.Builder snapshots = MetricSnapshots.builder();
        for (final Map.Entry<String, List<CounterRecord>> family : byName.entrySet())
        {
            final CounterRecord first = family.getValue().get(0);
            final String name = "troupe_" + family.getKey();
            final String help = help(first.typeId());
            if (CounterType.kind(first.typeId()) == CounterDescriptor.Kind.COUNT)
            {
                final CounterSnapshot.Builder counter = CounterSnapshot.builder().name(name).help(help);
                for (final CounterRecord record : family.getValue())
                {
                    counter.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                        .labels(labels(node, record)).value(record.value()).build());
                }
                snapshots.metricSnapshot(counter.build());
            }
            else
            {
                final GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(name).help(help);
                for (final CounterRecord record : family.getValue())
                {
                    gauge.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                        .labels(labels(node, record)).value(record.value()).build());
                }
                snapshots.metricSnapshot(gauge.build());
            }
        }
        snapshots.metricSnapshot(GaugeSnapshot.builder().name("troupe_node_info")
            .help("the node's identity (value 1)")
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(Labels.of("node", node,
                "cluster", file.clusterId(), "incarnation", Long.toString(file.incarnation()))).value(1).build())
            .build());
        return snapshots.build();
    }

    private static Labels labels(final String node, final CounterRecord record)
    {
        if (record.labels().isEmpty())
        {
            return Labels.of("node", node);
        }
        final List<String> names = new ArrayList<>(record.labels().size() + 1);
        final List<String> values = new ArrayList<>(record.labels().size() + 1);
        names.add("node");
        values.add(node);
        for (final Map.Entry<String, String> label : record.labels().entrySet())
        {
            if (label.getKey().matches("[a-zA-Z_][a-zA-Z0-9_]*") && !"node".equals(label.getKey()))
            {
                names.add(label.getKey());
                values.add(label.getValue());
            }
        }
        return Labels.of(names, values);
    }

    private static String help(final int typeId)
    {
        return CounterType.doc(typeId);
    }
}
