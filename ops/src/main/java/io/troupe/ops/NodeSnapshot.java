package io.troupe.ops;

import io.troupe.memquota.CounterDescriptor;
import io.troupe.node.client.ClientCounter;
import io.troupe.node.counters.CounterRecord;
import io.troupe.node.counters.CountersFileReader;
import io.troupe.node.counters.NodeState;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/** The counters of a node's file read once, with the header, looked up by type and label. */
final class NodeSnapshot
{
    /** A heartbeat older than this many publish intervals (and at least {@link #MIN_STALE_MS}) means wedged. */
    static final int STALE_INTERVALS = 5;
    static final long MIN_STALE_MS = 2_000;

    final CountersFileReader file;
    final List<CounterRecord> counters;
    final long readEpochMs;
    final boolean processAlive;

    NodeSnapshot(final CountersFileReader file)
    {
        this.file = file;
        this.counters = file.counters();
        this.readEpochMs = System.currentTimeMillis();
        this.processAlive = file.processAlive();
    }

    long get(final CounterDescriptor type)
    {
        for (final CounterRecord record : counters)
        {
            if (record.typeId() == type.typeId() && record.labels().isEmpty())
            {
                return record.value();
            }
        }
        return 0;
    }

    long get(final CounterDescriptor type, final String label, final String value)
    {
        final CounterRecord record = record(type, label, value);
        return record == null ? 0 : record.value();
    }

    /** The counter of a type with a label's value, or null. */
    CounterRecord record(final CounterDescriptor type, final String label, final String value)
    {
        for (final CounterRecord record : counters)
        {
            if (record.typeId() == type.typeId() && value.equals(record.labels().get(label)))
            {
                return record;
            }
        }
        return null;
    }

    long clientCount(final ClientCounter counter)
    {
        final int typeId = counter.typeId();
        for (final CounterRecord record : counters)
        {
            if (record.typeId() == typeId)
            {
                return record.value();
            }
        }
        return 0;
    }

    /** The values a label takes on counters of a type, in order (peers by number, pools by name). */
    List<String> labelValues(final CounterDescriptor type, final String label)
    {
        final TreeSet<String> values = new TreeSet<>((a, b) -> a.length() != b.length() && a.matches("[0-9]+") &&
            b.matches("[0-9]+") ? Integer.compare(a.length(), b.length()) : a.compareTo(b));
        for (final CounterRecord record : counters)
        {
            if (record.typeId() == type.typeId() && record.labels().containsKey(label))
            {
                values.add(record.labels().get(label));
            }
        }
        return new ArrayList<>(values);
    }

    long heartbeatAgeMs()
    {
        return Math.max(0, readEpochMs - file.heartbeatEpochMs());
    }

    /** Whether the node's counters thread has stopped publishing while its process lives: wedged or stopped. */
    boolean stale()
    {
        final long limitMs = Math.max(MIN_STALE_MS, file.publishIntervalNs() / 1_000_000 * STALE_INTERVALS);
        return file.state() != NodeState.STOPPED && heartbeatAgeMs() > limitMs;
    }

    /** running, draining, starting; stopped; gone (the process died without stopping); not responding. */
    String liveness()
    {
        final NodeState state = file.state();
        if (!processAlive)
        {
            return state == NodeState.STOPPED ? "stopped" : "gone (its process " + file.pid() + " ended without " +
                "stopping)";
        }
        if (state == NodeState.STOPPED)
        {
            return "stopped";
        }
        if (stale())
        {
            return "not responding (no counters for " + Duration.format(heartbeatAgeMs()) + ": wedged or paused)";
        }
        return state.name().toLowerCase(Locale.ROOT);
    }

    Map<String, Object> header()
    {
        final Map<String, Object> header = new LinkedHashMap<>();
        header.put("nodeId", file.nodeId());
        header.put("clusterId", file.clusterId());
        header.put("incarnation", file.incarnation());
        header.put("pid", file.pid());
        header.put("state", file.state().name().toLowerCase(Locale.ROOT));
        header.put("processAlive", processAlive);
        header.put("responding", processAlive && !stale() && file.state() != NodeState.STOPPED);
        header.put("startEpochMs", file.startEpochMs());
        header.put("heartbeatEpochMs", file.heartbeatEpochMs());
        header.put("readEpochMs", readEpochMs);
        return header;
    }

    /** Human durations and sizes. */
    static final class Duration
    {
        private Duration()
        {
        }

        static String format(final long ms)
        {
            if (ms < 1_000)
            {
                return ms + " ms";
            }
            if (ms < 120_000)
            {
                return String.format("%.1f s", ms / 1e3);
            }
            if (ms < 7_200_000)
            {
                return (ms / 60_000) + " min";
            }
            if (ms < 172_800_000)
            {
                return String.format("%.1f h", ms / 3.6e6);
            }
            return String.format("%.1f d", ms / 8.64e7);
        }

        /** A wait in ns, as 0, 840 us, 12 ms or 1.5 s. */
        static String nanos(final long ns)
        {
            if (ns == 0)
            {
                return "0";
            }
            if (ns < 1_000_000)
            {
                return Math.max(1, ns / 1_000) + " us";
            }
            return format(ns / 1_000_000);
        }

        static String bytes(final long bytes)
        {
            if (bytes < 1024)
            {
                return bytes + " B";
            }
            if (bytes < 1024 * 1024)
            {
                return String.format("%.1f KiB", bytes / 1024.0);
            }
            if (bytes < 1024L * 1024 * 1024)
            {
                return String.format("%.1f MiB", bytes / 1048576.0);
            }
            return String.format("%.2f GiB", bytes / 1073741824.0);
        }
    }
}
