package io.troupe.node.counters;

import io.troupe.memquota.CounterDescriptor;

import java.util.Map;

/**
 * One counter as read from a counters file.
 *
 * @param id     the counter's id in the file (reused after it is freed).
 * @param typeId its type ({@link CounterType}).
 * @param name   its metric name.
 * @param labels its labels, in order.
 * @param label  its human label ("peer_events_out peer=2").
 * @param value  its value when read.
 */
public record CounterRecord(int id, int typeId, String name, Map<String, String> labels, String label, long value)
{
    /**
     * Whether it only grows.
     *
     * @return the kind.
     */
    public CounterDescriptor.Kind kind()
    {
        return CounterType.kind(typeId);
    }

    /**
     * What the label says after the name and labels, if anything: a broker's configuration on its
     * {@code broker_reconfigurations} counter.
     *
     * @return the text after the first ": " of the label, or "".
     */
    public String description()
    {
        final int at = label.indexOf(": ");
        return at < 0 ? "" : label.substring(at + 2);
    }
}
