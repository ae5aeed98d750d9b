package io.troupe.registry;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.RandomDataInput;
import net.openhft.chronicle.hash.Data;
import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.map.ExternalMapQueryContext;
import net.openhft.chronicle.map.MapEntry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Looks names up in a node's directory replica from another process on the same host: no network hop, no node
 * thread involved, updates seen as the node writes them, never half an entry (see {@link ReplicaLayout}). For the
 * ops CLI and clients on the node's host; only reads.
 *
 * <p>Chronicle Map compiles classes at run time: the reading JVM needs a JDK and the flags in the module README.
 * Thread safe.
 */
public final class ReplicaReader implements AutoCloseable
{
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    /**
     * Reusable room for what {@link #lookupInto} finds: the instances as raw longs, so that a lookup allocates
     * nothing. Owned by one thread.
     */
    public static final class Instances
    {
        private final long[] actorRaw1;
        private final long[] actorRaw2;
        private final long[] incarnations;
        private int count;

        /**
         * Room for up to {@code capacity} instances.
         *
         * @param capacity how many instances it holds; a name with more is reported with its full count.
         */
        public Instances(final int capacity)
        {
            actorRaw1 = new long[capacity];
            actorRaw2 = new long[capacity];
            incarnations = new long[capacity];
        }

        /**
         * Instances held, at most the capacity.
         *
         * @return the count.
         */
        public int count()
        {
            return count;
        }

        /**
         * An instance's actor, first long.
         *
         * @param index 0..count-1.
         * @return raw1.
         */
        public long actorRaw1(final int index)
        {
            return actorRaw1[index];
        }

        /**
         * An instance's actor, second long (its node is the low 20 bits).
         *
         * @param index 0..count-1.
         * @return raw2.
         */
        public long actorRaw2(final int index)
        {
            return actorRaw2[index];
        }

        /**
         * The incarnation of an instance's node.
         *
         * @param index 0..count-1.
         * @return the incarnation.
         */
        public long incarnation(final int index)
        {
            return incarnations[index];
        }

        /**
         * An instance's actor as an id (allocates).
         *
         * @param index 0..count-1.
         * @return the id.
         */
        public ActorId actor(final int index)
        {
            return ActorId.fromRaw(actorRaw1[index], actorRaw2[index]);
        }
    }

    /** A thread's key: the bytes, and Chronicle's view of them, made once. */
    private static final class Key
    {
        final byte[] bytes = new byte[ReplicaLayout.KEY_BYTES];
        final BytesStore<?, byte[]> store = BytesStore.wrap(bytes);
    }

    private final ThreadLocal<Key> keys = ThreadLocal.withInitial(Key::new);

    private final ChronicleMap<byte[], byte[]> map;
    private final Path file;

    private ReplicaReader(final ChronicleMap<byte[], byte[]> map, final Path file)
    {
        this.map = map;
        this.file = file;
    }

    /**
     * Opens the replica in a node's data directory.
     *
     * @param dataDir the node's data directory.
     * @return the reader.
     * @throws IllegalStateException if there is no replica there, or it is of another layout version (the message
     *                               names both), or not a replica.
     * @throws UncheckedIOException  if it cannot be opened.
     */
    public static ReplicaReader open(final Path dataDir)
    {
        final Path file = dataDir.resolve(ReplicaLayout.FILE_NAME);
        if (!Files.isRegularFile(file))
        {
            throw new IllegalStateException("no directory replica at " + file + ": is a node running with the data " +
                "directory " + dataDir + "?");
        }
        final ChronicleMap<byte[], byte[]> map;
        try
        {
            map = DirectoryReplica.builder(1).createPersistedTo(file.toFile());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open the directory replica " + file, ex);
        }
        final String problem = ReplicaLayout.headerProblem(map.get(ReplicaLayout.HEADER_KEY));
        if (problem != null)
        {
            map.close();
            throw new IllegalStateException("the directory replica " + file + " " + problem);
        }
        return new ReplicaReader(map, file);
    }

    /**
     * The live instances of a name, as the node last wrote them.
     *
     * @param name {@code ServiceId(0, name)} for every node's instances, {@code ServiceId(n, name)} for node n's.
     * @return the instances; empty if none.
     */
    public List<ServiceInstance> lookup(final ServiceId name)
    {
        final ServiceId key = name.onNode(0);
        final byte[] value = map.get(ReplicaLayout.key(key));
        if (value == null)
        {
            return List.of();
        }
        final ServiceInstance[] all = ReplicaLayout.instances(key, value);
        final List<ServiceInstance> found = new ArrayList<>(all.length);
        for (final ServiceInstance instance : all)
        {
            if (name.nodeId() == 0 || instance.nodeId() == name.nodeId())
            {
                found.add(instance);
            }
        }
        return found;
    }

    /**
     * {@link #lookup}, allocating nothing: the live instances of a name, read in place from shared memory into
     * {@code into}. Filters by node as {@link #lookup} does.
     *
     * @param name {@code ServiceId(0, name)} for every node's instances, {@code ServiceId(n, name)} for node n's.
     * @param into where the instances go (up to its capacity).
     * @return how many instances the name has (with the node filter), which may be more than {@code into} took.
     */
    public int lookupInto(final ServiceId name, final Instances into)
    {
        final Key key = keys.get();
        putLittleEndian(key.bytes, 0, name.raw1(), Long.BYTES);
        putLittleEndian(key.bytes, Long.BYTES, name.raw2() >>> 32, Integer.BYTES);
        final int node = name.nodeId();
        int found = 0;
        try (ExternalMapQueryContext<byte[], byte[], ?> context = map.queryContext(key.store, 0,
            ReplicaLayout.KEY_BYTES))
        {
            context.readLock().lock();
            final MapEntry<byte[], byte[]> entry = context.entry();
            if (entry != null)
            {
                final Data<byte[]> value = entry.value();
                final RandomDataInput in = value.bytes();
                final long at = value.offset();
                final int count = order(in.readInt(at));
                for (int i = 0; i < count; i++)
                {
                    final long instanceAt = at + Integer.BYTES + (long)i * ReplicaLayout.INSTANCE_BYTES;
                    final long raw2 = order(in.readLong(instanceAt + Long.BYTES));
                    if (node != 0 && (int)(raw2 & ActorId.MAX_NODE_ID) != node)
                    {
                        continue;
                    }
                    if (found < into.actorRaw1.length)
                    {
                        into.actorRaw1[found] = order(in.readLong(instanceAt));
                        into.actorRaw2[found] = raw2;
                        into.incarnations[found] = order(in.readLong(instanceAt + 2L * Long.BYTES));
                    }
                    found++;
                }
            }
        }
        into.count = Math.min(found, into.actorRaw1.length);
        return found;
    }

    private static void putLittleEndian(final byte[] bytes, final int at, final long value, final int length)
    {
        for (int i = 0; i < length; i++)
        {
            bytes[at + i] = (byte)(value >>> (8 * i));
        }
    }

    private static int order(final int nativeValue)
    {
        return LITTLE_ENDIAN ? nativeValue : Integer.reverseBytes(nativeValue);
    }

    private static long order(final long nativeValue)
    {
        return LITTLE_ENDIAN ? nativeValue : Long.reverseBytes(nativeValue);
    }

    /**
     * The node that writes the replica, and its incarnation, from the header.
     *
     * @return {@code [nodeId, incarnation]}.
     */
    public long[] writer()
    {
        final ByteBuffer header = ByteBuffer.wrap(map.get(ReplicaLayout.HEADER_KEY))
            .order(ByteOrder.LITTLE_ENDIAN);
        return new long[] {header.getInt(8), header.getLong(12)};
    }

    /**
     * Every name with its live instances, as the node last wrote them, ordered by name (for the ops CLI's
     * {@code services}). Entries that are not a name and its instances are left out.
     *
     * @return the instances by name.
     */
    public SortedMap<String, List<ServiceInstance>> all()
    {
        final SortedMap<String, List<ServiceInstance>> all = new TreeMap<>();
        map.forEach((key, value) ->
        {
            final ServiceId name = ReplicaLayout.name(key);
            if (name != null)
            {
                try
                {
                    all.put(name.name(), List.of(ReplicaLayout.instances(name, value)));
                }
                catch (final IllegalStateException ex)
                {
                    // an entry that is no whole number of instances is left out, as lookup would refuse it
                }
            }
        });
        return all;
    }

    /**
     * Names with at least one live instance.
     *
     * @return the count.
     */
    public int names()
    {
        return map.size() - 1;
    }

    /**
     * The file read.
     *
     * @return the path.
     */
    public Path file()
    {
        return file;
    }

    @Override
    public void close()
    {
        map.close();
    }
}
