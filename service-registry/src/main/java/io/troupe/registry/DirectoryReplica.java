package io.troupe.registry;

import io.troupe.actor.ServiceId;
import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.map.ChronicleMapBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes the node's directory into its replica ({@link ReplicaLayout}), entry by entry as names change, so that
 * other processes on the host can look names up from shared memory ({@link ReplicaReader}).
 *
 * <p>At start the node opens the file it left (recovering the locks a killed process may have held), checks its
 * header, removes every name (the directory starts empty and fills as nodes announce themselves) and writes its
 * header; a file that cannot be opened, or whose header is of another layout, is moved aside
 * ({@code directory.cmap.bad-<time>}), logged and counted, and a fresh one made. Written under the
 * {@link Directory}'s monitor. A node opens it on a thread of its own once its directory runs
 * ({@link ServiceRegistry#startReplicaInBackground}; the first map of a JVM takes about half a second, with the class
 * Chronicle would compile built ahead of time), and the directory then writes every name it holds into it.
 */
public final class DirectoryReplica implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(DirectoryReplica.class);

    private final ChronicleMap<byte[], byte[]> map;
    private final boolean setAside;

    private DirectoryReplica(final ChronicleMap<byte[], byte[]> map, final boolean setAside)
    {
        this.map = map;
        this.setAside = setAside;
    }

    /**
     * Opens (or makes) the replica of a node's data directory.
     *
     * @param dataDir     the node's data directory.
     * @param nodeId      the node.
     * @param incarnation this start's incarnation.
     * @param capacity    names it must hold (the directory's capacity).
     * @return the replica, empty but for its header.
     * @throws UncheckedIOException if no replica can be made there.
     */
    public static DirectoryReplica open(final Path dataDir, final int nodeId, final long incarnation,
        final int capacity)
    {
        final Path file = dataDir.resolve(ReplicaLayout.FILE_NAME);
        boolean setAside = false;
        ChronicleMap<byte[], byte[]> map = null;
        if (Files.exists(file))
        {
            String problem;
            try
            {
                map = builder(capacity).recoverPersistedTo(file.toFile(), true);
                problem = ReplicaLayout.headerProblem(map.get(ReplicaLayout.HEADER_KEY));
            }
            catch (final IOException | RuntimeException ex)
            {
                problem = "cannot be opened (" + ex + ")";
            }
            if (problem != null)
            {
                if (map != null)
                {
                    map.close();
                    map = null;
                }
                final Path aside = dataDir.resolve(ReplicaLayout.FILE_NAME + ".bad-" + System.currentTimeMillis());
                move(file, aside);
                setAside = true;
                LOG.warn("node {}: the directory replica {} {}; moved it to {} and starting a fresh one", nodeId, file,
                    problem, aside);
            }
        }
        if (map == null)
        {
            try
            {
                map = builder(capacity).createPersistedTo(file.toFile());
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot create the directory replica " + file, ex);
            }
        }
        final List<byte[]> stale = new ArrayList<>();
        for (final byte[] key : map.keySet())
        {
            if (!Arrays.equals(key, ReplicaLayout.HEADER_KEY))
            {
                stale.add(key);
            }
        }
        stale.forEach(map::remove);
        map.put(ReplicaLayout.HEADER_KEY, ReplicaLayout.header(nodeId, incarnation));
        return new DirectoryReplica(map, setAside);
    }

    static ChronicleMapBuilder<byte[], byte[]> builder(final int capacity)
    {
        ReplicaLayout.quietChronicle();
        return ChronicleMap.of(byte[].class, byte[].class)
            .name("troupe-directory")
            .entries(capacity + 1L)
            .constantKeySizeBySample(new byte[ReplicaLayout.KEY_BYTES])
            .averageValueSize(ReplicaLayout.AVERAGE_VALUE_BYTES);
    }

    private static void move(final Path from, final Path to)
    {
        try
        {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot move " + from + " aside", ex);
        }
    }

    /** Writes a name's live instances; none removes its entry. */
    void put(final ServiceId name, final ServiceInstance[] instances)
    {
        final byte[] key = ReplicaLayout.key(name);
        if (instances.length == 0)
        {
            map.remove(key);
        }
        else
        {
            map.put(key, ReplicaLayout.value(instances));
        }
    }

    /**
     * Whether a file that could not be used was moved aside at start.
     *
     * @return true if it was.
     */
    public boolean setAside()
    {
        return setAside;
    }

    File file()
    {
        return map.file();
    }

    /** Unmaps the file (it stays, for the next start). Idempotent. */
    @Override
    public void close()
    {
        if (!map.isClosed())
        {
            map.close();
        }
    }
}
