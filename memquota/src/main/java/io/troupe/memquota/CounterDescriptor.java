package io.troupe.memquota;

import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * One counter of a node, declared once: its type id in the node's counters file (as Agrona's counter type ids in
 * Aeron's {@code cnc.dat}: stable, never reused), its metric name, whether it only grows or is a level, the names of
 * its labels, a line of documentation and how to read it. Each component declares its counters as an enum
 * implementing {@link Of}, in its own module ({@code SystemCounter} in the actor runtime, {@code PeerCounter} in the
 * interconnect, ...); the node joins the groups ({@code CounterType}) and derives from the declarations what it
 * publishes into the counters file, what Prometheus calls each counter and the table in {@code docs/counters.md}.
 *
 * <p>A group's enum holds a {@link Declaration} per constant, made with {@link #count} or {@link #gauge} (or in its
 * constructor, where the constant reads itself: {@code counters.get(this)}), and hands it out through
 * {@link #declaration()}: a field, a constructor and that one accessor; everything else is a default method here.
 * Adding a counter touches two files: a constant in its group's enum and the code that counts it (for a group read
 * from a component's snapshot, the snapshot's getter the constant's reader calls).
 *
 * <pre>{@code
 * public enum PoolCounter implements CounterDescriptor.Of<PoolCounters>
 * {
 *     POOL_THREADS(gauge(200, "pool_threads", "pool", "worker threads of the pool", PoolCounters::threads)),
 *     ...
 * }
 * }</pre>
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
     * What a counter is and how it is read: the whole of its declaration, which its enum constant holds.
     *
     * @param typeId     the type id of its records in the counters file (stable; never reused for another counter).
     * @param metricName its name: lower case and underscores (Prometheus prefixes {@code troupe_}, and adds
     *                   {@code _total} to a count).
     * @param kind       count or gauge.
     * @param labels     the names of its labels, comma separated ({@code "client, session"}), or {@code ""}.
     * @param doc        what it counts, one line (lower case first, no full stop), for the docs and Prometheus.
     * @param reader     how to read it from its component's snapshot, or null for a counter the node sets itself
     *                   (one per label value, say).
     * @param <S>        what it is read from.
     */
    record Declaration<S>(int typeId, String metricName, Kind kind, String labels, String doc, ToLongFunction<S> reader)
    {
        /**
         * A declaration, checked.
         *
         * @param typeId     the type id.
         * @param metricName the name.
         * @param kind       the kind.
         * @param labels     label names or "".
         * @param doc        the doc line.
         * @param reader     the reader, or null.
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
        @Override
        Declaration<S> declaration();

        /**
         * How to read the counter from its component's snapshot.
         *
         * @return the reader, or null for a counter the node sets itself (one per label value, say).
         */
        default ToLongFunction<S> reader()
        {
            return declaration().reader();
        }
    }

    /**
     * The declaration of a count: a counter that only grows.
     *
     * @param typeId     the type id (stable; never reused).
     * @param metricName its name, lower case and underscores, without {@code _total}.
     * @param labels     the names of its labels, comma separated, or {@code ""}.
     * @param doc        what it counts, one line.
     * @param reader     how to read it from its component's snapshot, or null for one the node sets itself.
     * @param <S>        what it is read from.
     * @return the declaration, checked.
     */
    static <S> Declaration<S> count(final int typeId, final String metricName, final String labels, final String doc,
        final ToLongFunction<S> reader)
    {
        return new Declaration<>(typeId, metricName, Kind.COUNT, labels, doc, reader);
    }

    /**
     * The declaration of a gauge: a level at the time of publishing.
     *
     * @param typeId     the type id (stable; never reused).
     * @param metricName its name, lower case and underscores.
     * @param labels     the names of its labels, comma separated, or {@code ""}.
     * @param doc        what it shows, one line.
     * @param reader     how to read it from its component's snapshot, or null for one the node sets itself.
     * @param <S>        what it is read from.
     * @return the declaration, checked.
     */
    static <S> Declaration<S> gauge(final int typeId, final String metricName, final String labels, final String doc,
        final ToLongFunction<S> reader)
    {
        return new Declaration<>(typeId, metricName, Kind.GAUGE, labels, doc, reader);
    }

    /**
     * The declaration.
     *
     * @return type id, name, kind, labels, doc line and reader.
     */
    Declaration<?> declaration();

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
