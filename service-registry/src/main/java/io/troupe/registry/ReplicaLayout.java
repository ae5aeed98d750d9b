package io.troupe.registry;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * The layout of the directory replica, {@value #FILE_NAME} in a node's data directory: a Chronicle Map of
 * {@code byte[12] -> byte[]}, little-endian.
 * <ul>
 * <li>A name's entry: the key is the name's 12 bytes (a {@code ServiceId}'s {@code raw1}, then the top 4 bytes of
 *     its {@code raw2}); the value is {@code int32 count}, then per instance {@code int64 actorRaw1, int64 actorRaw2,
 *     int64 incarnation} (the instance's node is its actor's). A name with no live instance has no entry.</li>
 * <li>The header entry: the key is 12 bytes of {@code 0xFF} (no name has it); the value is {@code int32 magic
 *     "TRPD", int32 layout version, int32 node id, int64 incarnation} of the node that writes the file.</li>
 * </ul>
 * Chronicle Map reads and writes an entry under its segment's lock, so a reader never sees half an entry.
 */
public final class ReplicaLayout
{
    /** The file's name in the data directory. */
    public static final String FILE_NAME = "directory.cmap";
    /** The layout this build writes and reads. */
    public static final int LAYOUT_VERSION = 1;
    /**
     * What a JVM that opens a replica needs on its command line (Chronicle Map compiles classes at run time and
     * reaches into the JDK): the node, its tests, and clients or tools on the node's host. The launcher, the
     * build's test runs and {@code LocalCluster}'s child JVMs pass these.
     */
    public static final List<String> JVM_FLAGS = List.of(
        "--add-opens", "java.base/java.lang=ALL-UNNAMED",
        "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
        "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports", "jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
        "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED");

    static final int MAGIC = 0x44505254; // "TRPD" little-endian
    static final int KEY_BYTES = 12;
    static final int INSTANCE_BYTES = 24;
    static final int HEADER_BYTES = 20;
    static final byte[] HEADER_KEY = filled((byte)0xFF);
    /** Chronicle Map sizes its segments by an average value: most names have one or two instances. */
    static final double AVERAGE_VALUE_BYTES = Integer.BYTES + 2 * INSTANCE_BYTES;

    private ReplicaLayout()
    {
    }

    /** Keeps Chronicle from reporting usage and printing its banner, unless the JVM was told otherwise. */
    static void quietChronicle()
    {
        if (System.getProperty("chronicle.analytics.disable") == null)
        {
            System.setProperty("chronicle.analytics.disable", "true");
        }
        if (System.getProperty("chronicle.announcer.disable") == null)
        {
            System.setProperty("chronicle.announcer.disable", "true");
        }
    }

    private static byte[] filled(final byte value)
    {
        final byte[] bytes = new byte[KEY_BYTES];
        Arrays.fill(bytes, value);
        return bytes;
    }

    /** The key of a name: its 12 bytes. */
    static byte[] key(final ServiceId name)
    {
        final ByteBuffer key = ByteBuffer.allocate(KEY_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        key.putLong(0, name.raw1());
        key.putInt(8, (int)(name.raw2() >>> 32));
        return key.array();
    }

    /** The name a key holds ({@link #key}'s inverse), as {@code ServiceId(0, name)}; null if it holds none. */
    static ServiceId name(final byte[] key)
    {
        if (key.length != KEY_BYTES || Arrays.equals(key, HEADER_KEY))
        {
            return null;
        }
        final StringBuilder name = new StringBuilder(ServiceId.MAX_NAME_LENGTH);
        for (int i = 0; i < ServiceId.MAX_NAME_LENGTH && key[i] != 0; i++)
        {
            name.append((char)(key[i] & 0xFF));
        }
        try
        {
            return name.length() == 0 ? null : ServiceId.of(0, name.toString());
        }
        catch (final IllegalArgumentException ex)
        {
            return null; // not a name a node writes
        }
    }

    /** The value of a name's instances. */
    static byte[] value(final ServiceInstance[] instances)
    {
        final ByteBuffer value = ByteBuffer.allocate(Integer.BYTES + instances.length * INSTANCE_BYTES)
            .order(ByteOrder.LITTLE_ENDIAN);
        value.putInt(instances.length);
        for (final ServiceInstance instance : instances)
        {
            value.putLong(instance.actor().raw1()).putLong(instance.actor().raw2()).putLong(instance.incarnation());
        }
        return value.array();
    }

    /** The instances a value holds, of the name on node 0. */
    static ServiceInstance[] instances(final ServiceId name, final byte[] value)
    {
        final ByteBuffer in = ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN);
        final int count = value.length >= Integer.BYTES ? in.getInt(0) : -1;
        if (count < 0 || Integer.BYTES + (long)count * INSTANCE_BYTES != value.length)
        {
            throw new IllegalStateException("the replica's entry of " + name + " is " + value.length +
                " bytes, which is no whole number of instances");
        }
        final ServiceInstance[] instances = new ServiceInstance[count];
        for (int i = 0; i < count; i++)
        {
            final int at = Integer.BYTES + i * INSTANCE_BYTES;
            final ActorId actor = ActorId.fromRaw(in.getLong(at), in.getLong(at + 8));
            instances[i] = new ServiceInstance(name.onNode(actor.nodeId()), actor, in.getLong(at + 16));
        }
        return instances;
    }

    static byte[] header(final int nodeId, final long incarnation)
    {
        final ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(MAGIC).putInt(LAYOUT_VERSION).putInt(nodeId).putLong(incarnation);
        return header.array();
    }

    /** What is wrong with a header, or null if it is one of this layout. */
    static String headerProblem(final byte[] header)
    {
        if (header == null)
        {
            return "has no header entry (not a directory replica, or one still being created)";
        }
        final ByteBuffer in = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        if (header.length < 8 || in.getInt(0) != MAGIC)
        {
            return "is not a Troupe directory replica (wrong magic)";
        }
        if (in.getInt(4) != LAYOUT_VERSION)
        {
            return "has layout version " + in.getInt(4) + "; this build reads layout version " + LAYOUT_VERSION;
        }
        if (header.length != HEADER_BYTES)
        {
            return "has a header of " + header.length + " bytes, not " + HEADER_BYTES;
        }
        return null;
    }
}
