package io.troupe.node.counters;

import io.troupe.memquota.CounterDescriptor;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * Counters of things that come and go (peers, credit accounts, client sessions, brokers): one row of counters per key,
 * allocated when the key is first seen in a pass and freed at the end of the first pass that no longer sees it, so a
 * reader of the file finds exactly the things that exist (as of the last pass). Publisher thread only.
 *
 * <p>A pass: {@link #begin()}, then {@link #row} for every key that exists now and {@link Row#set} for its figures,
 * then {@link #end()}.
 *
 * @param <K> the key (an account id, a session id, a broker's name).
 */
final class CounterRows<K>
{
    /** Makes a counter, or null when the file is full. */
    interface Allocator
    {
        AtomicCounter allocate(CounterDescriptor type, String labels);
    }

    /** One key's counters. */
    final class Row
    {
        private final String labels;
        private final Map<CounterDescriptor, AtomicCounter> counters = new HashMap<>();
        private long pass;

        private Row(final String labels)
        {
            this.labels = labels;
        }

        /**
         * Sets one of the row's counters, allocating it the first time.
         *
         * @param type  which.
         * @param value its value now.
         * @return the counter, or null if the file is full.
         */
        AtomicCounter set(final CounterDescriptor type, final long value)
        {
            AtomicCounter counter = counters.get(type);
            if (counter == null)
            {
                counter = allocator.allocate(type, labels);
                if (counter == null)
                {
                    return null;
                }
                counters.put(type, counter);
            }
            counter.setRelease(value);
            return counter;
        }

        /**
         * Sets every counter of a group that is read from a snapshot (those the publisher sets itself, with no
         * reader, are left alone).
         *
         * @param group  the group's declarations.
         * @param source the snapshot they are read from.
         * @param <S>    its type.
         */
        <S> void setAll(final List<? extends CounterDescriptor.Of<S>> group, final S source)
        {
            for (final CounterDescriptor.Of<S> counter : group)
            {
                final ToLongFunction<S> reader = counter.reader();
                if (reader != null)
                {
                    set(counter, reader.applyAsLong(source));
                }
            }
        }

        /**
         * The row's counter of a type, if it has one yet.
         *
         * @param type which.
         * @return the counter, or null.
         */
        AtomicCounter counter(final CounterDescriptor type)
        {
            return counters.get(type);
        }

        /** The row's labels, as its counters carry them. */
        String labels()
        {
            return labels;
        }

        private void free()
        {
            counters.values().forEach(AtomicCounter::close);
            counters.clear();
        }
    }

    private final Allocator allocator;
    private final Map<K, Row> rows = new HashMap<>();
    private long pass;

    CounterRows(final Allocator allocator)
    {
        this.allocator = allocator;
    }

    /** Starts a pass. */
    void begin()
    {
        pass++;
    }

    /**
     * The row of a key that exists now.
     *
     * @param key    the key.
     * @param labels its labels ({@code name=value,...}), used when the row is made.
     * @return the row.
     */
    Row row(final K key, final String labels)
    {
        Row row = rows.get(key);
        if (row == null)
        {
            row = new Row(labels);
            rows.put(key, row);
        }
        row.pass = pass;
        return row;
    }

    /** Ends a pass: frees the rows of keys it did not see. */
    void end()
    {
        for (final Iterator<Row> it = rows.values().iterator(); it.hasNext(); )
        {
            final Row row = it.next();
            if (row.pass != pass)
            {
                row.free();
                it.remove();
            }
        }
    }

    /** Whether a key has a row now. */
    boolean contains(final K key)
    {
        return rows.containsKey(key);
    }

    /** Rows held now. */
    int size()
    {
        return rows.size();
    }
}
