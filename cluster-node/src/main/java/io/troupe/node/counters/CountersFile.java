package io.troupe.node.counters;

import org.agrona.BitUtil;
import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.errors.DistinctErrorLog;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The writing side of a node's counters file ({@link CountersLayout}): made fresh at every start in the data
 * directory, mapped, and kept after the node stops (marked {@link NodeState#STOPPED}) so that the last figures and
 * errors can still be read. Counters are allocated and freed by one thread (the node's counters publisher); the error
 * log takes errors from any thread. Other processes read the file with {@link CountersFileReader}; since it is memory,
 * they read it even while the node's threads are wedged or its process is stopped.
 */
public final class CountersFile implements AutoCloseable
{
    private final Path file;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer header;
    private final CountersManager counters;
    private final DistinctErrorLog errorLog;
    private boolean closed;
    private volatile NodeState state = NodeState.STARTING;
    private int readinessSequence;

    private CountersFile(final Path file, final MappedByteBuffer mapped, final int metadataLength,
        final int valuesLength, final int errorLogLength)
    {
        this.file = file;
        this.mapped = mapped;
        this.header = new UnsafeBuffer(mapped, 0, CountersLayout.HEADER_LENGTH);
        final AtomicBuffer metadata = new UnsafeBuffer(mapped, CountersLayout.HEADER_LENGTH, metadataLength);
        final AtomicBuffer values = new UnsafeBuffer(mapped, CountersLayout.HEADER_LENGTH + metadataLength,
            valuesLength);
        this.counters = new CountersManager(metadata, values, StandardCharsets.US_ASCII);
        this.errorLog = new DistinctErrorLog(new UnsafeBuffer(mapped,
            CountersLayout.HEADER_LENGTH + metadataLength + valuesLength, errorLogLength), SystemEpochClock.INSTANCE,
            StandardCharsets.UTF_8);
    }

    /**
     * Makes the file in {@code dataDir} (replacing one of an earlier start), state {@link NodeState#STARTING}.
     *
     * @param dataDir       the node's data directory (it exists and is the node's own).
     * @param nodeId        the node id.
     * @param incarnation   this start's incarnation.
     * @param clusterId     the cluster id (cut to {@link CountersLayout#MAX_CLUSTER_ID} bytes).
     * @param intervalNs    how often the node publishes.
     * @param maxCounters   room for how many counters.
     * @param errorLogBytes bytes of the error log.
     * @return the mapped file.
     * @throws UncheckedIOException if it cannot be made.
     */
    public static CountersFile create(final Path dataDir, final int nodeId, final long incarnation,
        final String clusterId, final long intervalNs, final int maxCounters, final int errorLogBytes)
    {
        if (maxCounters < 1 || maxCounters > CountersLayout.MAX_COUNTERS)
        {
            throw new IllegalArgumentException("room for 1 to " + CountersLayout.MAX_COUNTERS + " counters, not " +
                maxCounters);
        }
        if (errorLogBytes < 4096 || errorLogBytes > CountersLayout.MAX_ERROR_LOG_BYTES)
        {
            throw new IllegalArgumentException("an error log of 4096 to " + CountersLayout.MAX_ERROR_LOG_BYTES +
                " bytes, not " + errorLogBytes);
        }
        final int metadataLength = CountersLayout.metadataLength(maxCounters);
        final int valuesLength = CountersLayout.valuesLength(maxCounters);
        final int errorLength = BitUtil.align(errorLogBytes, 64);
        final long length = CountersLayout.fileLength(maxCounters, errorLogBytes);
        final Path file = dataDir.resolve(CountersLayout.FILE_NAME);
        final Path fresh = dataDir.resolve(CountersLayout.FILE_NAME + ".new");
        final MappedByteBuffer mapped;
        try
        {
            Files.deleteIfExists(fresh);
            try (FileChannel channel = FileChannel.open(fresh, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE))
            {
                mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot make the counters file " + fresh, ex);
        }
        final UnsafeBuffer header = new UnsafeBuffer(mapped, 0, CountersLayout.HEADER_LENGTH);
        header.putInt(CountersLayout.VERSION_OFFSET, CountersLayout.VERSION);
        header.putLong(CountersLayout.PID_OFFSET, ProcessHandle.current().pid());
        header.putLong(CountersLayout.START_OFFSET, System.currentTimeMillis());
        header.putLong(CountersLayout.INCARNATION_OFFSET, incarnation);
        header.putInt(CountersLayout.NODE_ID_OFFSET, nodeId);
        header.putInt(CountersLayout.STATE_OFFSET, NodeState.STARTING.ordinal());
        header.putLong(CountersLayout.HEARTBEAT_OFFSET, System.currentTimeMillis());
        header.putLong(CountersLayout.INTERVAL_OFFSET, intervalNs);
        header.putInt(CountersLayout.METADATA_LENGTH_OFFSET, metadataLength);
        header.putInt(CountersLayout.VALUES_LENGTH_OFFSET, valuesLength);
        header.putInt(CountersLayout.ERROR_LOG_LENGTH_OFFSET, errorLength);
        final byte[] cluster = clusterId.getBytes(StandardCharsets.US_ASCII);
        final int clusterLength = Math.min(cluster.length, CountersLayout.MAX_CLUSTER_ID);
        header.putInt(CountersLayout.CLUSTER_ID_LENGTH_OFFSET, clusterLength);
        header.putBytes(CountersLayout.CLUSTER_ID_OFFSET, cluster, 0, clusterLength);
        header.putIntVolatile(CountersLayout.MAGIC_OFFSET, CountersLayout.MAGIC); // complete: readers may trust it
        try
        {
            Files.move(fresh, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final IOException ex)
        {
            IoUtil.unmap(mapped);
            throw new UncheckedIOException("cannot put the counters file in place as " + file, ex);
        }
        return new CountersFile(file, mapped, metadataLength, valuesLength, errorLength);
    }

    /**
     * Allocates a counter. Publisher thread only.
     *
     * @param typeId the type id ({@link CounterType}).
     * @param name   its metric name, first in its label.
     * @param labels {@code name=value,...} (may be empty), at most 100 US-ASCII characters.
     * @return the counter, 0 until set.
     * @throws IllegalStateException if the file has no room left.
     */
    public AtomicCounter allocate(final int typeId, final String name, final String labels)
    {
        return allocate(typeId, name, labels, "");
    }

    /**
     * Allocates a counter whose label ends with a description ("broker_reconfigurations broker=orders: ask=..."),
     * which {@link CounterRecord#description()} gives back. Publisher thread only.
     *
     * @param typeId      the type id ({@link CounterType}).
     * @param name        its metric name, first in its label.
     * @param labels      {@code name=value,...} (may be empty), at most 100 US-ASCII characters.
     * @param description text after the labels (may be empty), cut to what the label has room for.
     * @return the counter, 0 until set.
     * @throws IllegalStateException if the file has no room left.
     */
    public AtomicCounter allocate(final int typeId, final String name, final String labels, final String description)
    {
        final byte[] key = labels.getBytes(StandardCharsets.US_ASCII);
        if (key.length > 100)
        {
            throw new IllegalArgumentException("labels longer than 100 characters: " + labels);
        }
        return counters.newCounter(label(name, labels, description), typeId, buffer ->
        {
            buffer.putInt(0, key.length);
            buffer.putBytes(Integer.BYTES, key);
        });
    }

    /**
     * Gives a counter a new description (its name and labels stay). Publisher thread only. A reader that reads the
     * label while it changes may see it half written once; the next read is whole.
     *
     * @param counter     a counter of this file.
     * @param name        its metric name.
     * @param labels      its labels.
     * @param description the new description.
     */
    public void describe(final AtomicCounter counter, final String name, final String labels,
        final String description)
    {
        counter.updateLabel(label(name, labels, description));
    }

    private static String label(final String name, final String labels, final String description)
    {
        final String label = (labels.isEmpty() ? name : name + ' ' + labels) +
            (description.isEmpty() ? "" : ": " + description);
        return label.length() <= CountersReader.MAX_LABEL_LENGTH ? label :
            label.substring(0, CountersReader.MAX_LABEL_LENGTH - 3) + "...";
    }

    /**
     * Counters that can still be allocated.
     *
     * @return the room left.
     */
    public int available()
    {
        return counters.available();
    }

    /**
     * The error log: distinct errors with first and last time and count. Any thread.
     *
     * @return the log.
     */
    public DistinctErrorLog errorLog()
    {
        return errorLog;
    }

    /**
     * Says the node is alive and when it last published. Publisher thread only.
     *
     * @param epochMs now.
     */
    public void heartbeat(final long epochMs)
    {
        header.putLongRelease(CountersLayout.HEARTBEAT_OFFSET, epochMs);
    }

    /**
     * Sets the node's state.
     *
     * @param state the state.
     * @param incarnation the incarnation (known once the interconnect runs).
     */
    public void state(final NodeState state, final long incarnation)
    {
        this.state = state;
        header.putLong(CountersLayout.INCARNATION_OFFSET, incarnation);
        header.putIntRelease(CountersLayout.STATE_OFFSET, state.ordinal());
    }

    /**
     * The state last set.
     *
     * @return the state.
     */
    public NodeState state()
    {
        return state;
    }

    /**
     * Writes the readiness text (cut to {@link CountersLayout#MAX_READINESS} bytes, US-ASCII) so that a reader never
     * takes half of it: the sequence is odd while it changes. Publisher thread only.
     *
     * @param text e.g. {@code "not ready: 0 of 2 peers up; node 2 refuses: ..."}.
     */
    public void readiness(final String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        final int length = Math.min(bytes.length, CountersLayout.MAX_READINESS);
        header.putIntRelease(CountersLayout.READINESS_SEQUENCE_OFFSET, ++readinessSequence); // odd: changing
        header.putInt(CountersLayout.READINESS_LENGTH_OFFSET, length);
        header.putBytes(CountersLayout.READINESS_OFFSET, bytes, 0, length);
        header.putIntRelease(CountersLayout.READINESS_SEQUENCE_OFFSET, ++readinessSequence); // even: whole
    }

    /**
     * Where the file is.
     *
     * @return its path.
     */
    public Path path()
    {
        return file;
    }

    /**
     * Marks the node stopped and writes the file out; the file stays. The mapping is left to the garbage collector
     * rather than unmapped here, so that a late error from a thread still winding down writes to memory that is
     * still there. Publisher thread, after its last publish.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        header.putIntRelease(CountersLayout.STATE_OFFSET, NodeState.STOPPED.ordinal());
        mapped.force();
    }
}
