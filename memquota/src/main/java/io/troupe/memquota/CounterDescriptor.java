package io.troupe.memquota;

import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * One counter of a node, declared once: its type id in the node's counters file (as Agrona's counter type ids in
 * Aeron's {@code cnc.dat}: stable, never reused), its metric name, whether it only grows or is a level, the names of
 * its labels and a line of documentation. Each component declares its counters as an enum implementing this
 * interface, in its own module ({@code SystemCounter} in the actor runtime, {@code PeerCounter} in the interconnect,
 * ...); the node joins the groups ({@code CounterType}) and derives from the declarations what it publishes into the
 * counters file, what Prometheus calls each counter and the table in {@code docs/counters.md}. Adding a counter
 * touches two files: its declaration and the code that counts it.
 *
 * <p>This type lives in the bottom module beside {@link Setting}, so every component can declare its counters.
 * Read at start and by the node's counters thread once per interval, never on a hot path.
 */
public interface CounterDescriptor
{
    /** Whether a counter only grows or goes up and down. */
    enum Kind
    {
        /** Counts since the node started; never decreases. Prometheus: a counter, its name ending in {@code _total}. */
        COUNT,
        /** A level at the time of publishing (a queue depth, bytes in use, 0/1 for a state). Prometheus: a gauge. */
        GAUGE
    }

    /**
     * What a counter is: the part of a declaration every counter has.
     *
     * @param typeId     the type id of its records in the counters file (stable; never reused for another counter).
     * @param metricName its name: lower case and underscores (Prometheus prefixes {@code troupe_}, and adds
     *                   {@code _total} to a count).
     * @param kind       count or gauge.
     * @param labels     the names of its labels, comma separated ({@code "client, session"}), or {@code ""}.
     * @param doc        what it counts, one line (lower case first, no full stop), for the docs and Prometheus.
     */
    record Declaration(int typeId, String metricName, Kind kind, String labels, String doc)
    {
        /**
         * A declaration, checked.
         *
         * @param typeId     the type id.
         * @param metricName the name.
         * @param kind       the kind.
         * @param labels     label names or "".
         * @param doc        the doc line.
         */
        public Declaration
        {
            if (typeId <= 0)
            {
                throw new IllegalArgumentException("type id " + typeId + " of " + metricName + " is not positive");
            }
            if (!metricName.matches("[a-z][a-z0-9_]*"))
            {
                throw new IllegalArgumentException("not a metric name: " + metricName);
            }
            Objects.requireNonNull(kind, metricName);
            Objects.requireNonNull(labels, metricName);
            if (doc == null || doc.isBlank())
            {
                throw new IllegalArgumentException("no doc for " + metricName);
            }
        }
    }

    /**
     * A counter read from a component's snapshot {@code S} (its counters object, a peer's figures, a pool's), which is
     * how the node publishes it: for every declaration of the group, {@code reader().applyAsLong(snapshot)}.
     *
     * @param <S> what it is read from.
     */
    interface Of<S> extends CounterDescriptor
    {
        /**
         * How to read the counter from its component's snapshot.
         *
         * @return the reader, or null for a counter the node sets itself (one per label value, say).
         */
        ToLongFunction<S> reader();
    }

    /**
     * The declaration.
     *
     * @return type id, name, kind, labels and doc line.
     */
    Declaration declaration();

    /**
     * The type id in the counters file.
     *
     * @return the id.
     */
    default int typeId()
    {
        return declaration().typeId();
    }

    /**
     * The metric name.
     *
     * @return lower case, underscores.
     */
    default String metricName()
    {
        return declaration().metricName();
    }

    /**
     * Count or gauge.
     *
     * @return the kind.
     */
    default Kind kind()
    {
        return declaration().kind();
    }

    /**
     * The names of its labels.
     *
     * @return comma separated, or "".
     */
    default String labels()
    {
        return declaration().labels();
    }

    /**
     * What it counts.
     *
     * @return one line.
     */
    default String doc()
    {
        return declaration().doc();
    }
}
