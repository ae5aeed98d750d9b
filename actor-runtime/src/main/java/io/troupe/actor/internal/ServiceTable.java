package io.troupe.actor.internal;

import io.troupe.actor.ActorId;

import java.util.Arrays;

/**
 * Local service mappings: service name (the 12 name bytes) to actor id. Copy-on-write open-addressing arrays:
 * lookups on the send path read one volatile reference and probe without allocating; changes are rare and
 * serialised by this object's monitor.
 */
final class ServiceTable
{
    private static final long NAME_HIGH_MASK = 0xFFFF_FFFF_0000_0000L;

    private volatile Snapshot snapshot = new Snapshot(16);

    ActorId lookup(final ActorId service)
    {
        final Snapshot s = snapshot;
        final long k1 = service.raw1();
        final long k2 = service.raw2() & NAME_HIGH_MASK;
        final int mask = s.values.length - 1;
        for (int i = mix(k1, k2) & mask; ; i = (i + 1) & mask)
        {
            final ActorId value = s.values[i];
            if (value == null)
            {
                return null;
            }
            if (s.keys1[i] == k1 && s.keys2[i] == k2)
            {
                return value;
            }
        }
    }

    synchronized ActorId put(final ActorId service, final ActorId actor)
    {
        final ActorId previous = lookup(service);
        final Snapshot current = snapshot;
        final int size = current.size + (previous == null ? 1 : 0);
        final Snapshot next =
            new Snapshot(size * 2 > current.values.length ? current.values.length * 2 : current.values.length);
        current.forEach((k1, k2, v) -> next.insert(k1, k2, v));
        next.insert(service.raw1(), service.raw2() & NAME_HIGH_MASK, actor);
        snapshot = next;
        return previous;
    }

    synchronized ActorId remove(final ActorId service)
    {
        final ActorId previous = lookup(service);
        if (previous != null)
        {
            final long r1 = service.raw1();
            final long r2 = service.raw2() & NAME_HIGH_MASK;
            final Snapshot current = snapshot;
            final Snapshot next = new Snapshot(current.values.length);
            current.forEach((k1, k2, v) ->
            {
                if (k1 != r1 || k2 != r2)
                {
                    next.insert(k1, k2, v);
                }
            });
            snapshot = next;
        }
        return previous;
    }

    int size()
    {
        return snapshot.size;
    }

    private static int mix(final long k1, final long k2)
    {
        final long h = (k1 ^ (k2 >>> 32)) * 0x9E3779B97F4A7C15L;
        return (int)(h ^ (h >>> 29));
    }

    @FunctionalInterface
    private interface EntryVisitor
    {
        void visit(long k1, long k2, ActorId value);
    }

    private static final class Snapshot
    {
        final long[] keys1;
        final long[] keys2;
        final ActorId[] values;
        int size;

        Snapshot(final int capacity)
        {
            keys1 = new long[capacity];
            keys2 = new long[capacity];
            values = new ActorId[capacity];
        }

        void insert(final long k1, final long k2, final ActorId value)
        {
            final int mask = values.length - 1;
            int i = mix(k1, k2) & mask;
            while (values[i] != null && (keys1[i] != k1 || keys2[i] != k2))
            {
                i = (i + 1) & mask;
            }
            if (values[i] == null)
            {
                size++;
            }
            keys1[i] = k1;
            keys2[i] = k2;
            values[i] = value;
        }

        void forEach(final EntryVisitor visitor)
        {
            for (int i = 0; i < values.length; i++)
            {
                if (values[i] != null)
                {
                    visitor.visit(keys1[i], keys2[i], values[i]);
                }
            }
        }

        @Override
        public String toString()
        {
            return "Snapshot" + Arrays.toString(values);
        }
    }
}
