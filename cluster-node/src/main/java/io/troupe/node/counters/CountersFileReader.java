package io.troupe.node.counters;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.errors.ErrorLogReader;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a node's counters file ({@link CountersLayout}) from another process, read-only: the header (who, since when,
 * in what state, when last alive), the counters and the error log. Nothing in the file is trusted before it is
 * checked: magic, version, and section lengths against the file's size. Works on a node that is wedged or stopped,
 * since it reads memory the node wrote, not the node.
 */
public final class CountersFileReader
{
    private final Path file;
    private final UnsafeBuffer header;
    private final CountersReader counters;
    private final UnsafeBuffer errorLog;

    private CountersFileReader(final Path file, final MappedByteBuffer mapped, final int metadataLength,
        final int valuesLength, final int errorLogLength)
    {
        this.file = file;
        this.header = new UnsafeBuffer(mapped, 0, CountersLayout.HEADER_LENGTH);
        this.counters = new CountersReader(
            new UnsafeBuffer(mapped, CountersLayout.HEADER_LENGTH, metadataLength),
            new UnsafeBuffer(mapped, CountersLayout.HEADER_LENGTH + metadataLength, valuesLength),
            StandardCharsets.US_ASCII);
        this.errorLog = new UnsafeBuffer(mapped, CountersLayout.HEADER_LENGTH + metadataLength + valuesLength,
            errorLogLength);
    }

    /**
     * Opens the counters file of the node whose data directory is given.
     *
     * @param dataDir the node's data directory.
     * @return the reader.
     * @throws CountersFileException if there is no such file, it cannot be read, or it is not a counters file this
     *                               build reads (the message says which).
     */
    public static CountersFileReader open(final Path dataDir)
    {
        final Path file = dataDir.resolve(CountersLayout.FILE_NAME);
        final MappedByteBuffer mapped;
        final long size;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            size = channel.size();
            if (size < CountersLayout.HEADER_LENGTH || size > Integer.MAX_VALUE)
            {
                throw new CountersFileException(file + " is not a Troupe counters file (" + size + " bytes)");
            }
            mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
        }
        catch (final NoSuchFileException ex)
        {
            throw new CountersFileException("no counters file at " + file + ": no node has run with data directory " +
                dataDir + " (or it predates the counters file)");
        }
        catch (final IOException ex)
        {
            throw new CountersFileException("cannot read " + file + ": " + ex.getMessage() +
                " (it is readable by the node's user only)");
        }
        final UnsafeBuffer header = new UnsafeBuffer(mapped, 0, CountersLayout.HEADER_LENGTH);
        if (header.getIntVolatile(CountersLayout.MAGIC_OFFSET) != CountersLayout.MAGIC)
        {
            throw new CountersFileException(file + " is not a Troupe counters file");
        }
        final int version = header.getInt(CountersLayout.VERSION_OFFSET);
        if (version != CountersLayout.VERSION)
        {
            throw new CountersFileException(file + " has layout version " + version + "; this troupe reads version " +
                CountersLayout.VERSION);
        }
        final int metadataLength = header.getInt(CountersLayout.METADATA_LENGTH_OFFSET);
        final int valuesLength = header.getInt(CountersLayout.VALUES_LENGTH_OFFSET);
        final int errorLogLength = header.getInt(CountersLayout.ERROR_LOG_LENGTH_OFFSET);
        final long counters = valuesLength / CountersReader.COUNTER_LENGTH;
        if (valuesLength <= 0 || valuesLength % CountersReader.COUNTER_LENGTH != 0 ||
            counters > CountersLayout.MAX_COUNTERS || metadataLength != counters * CountersReader.METADATA_LENGTH ||
            errorLogLength < 0 || errorLogLength > CountersLayout.MAX_ERROR_LOG_BYTES ||
            CountersLayout.HEADER_LENGTH + (long)metadataLength + valuesLength + errorLogLength > size)
        {
            throw new CountersFileException(file + " is damaged: its sections do not fit its " + size + " bytes");
        }
        return new CountersFileReader(file, mapped, metadataLength, valuesLength, errorLogLength);
    }

    /**
     * The file read.
     *
     * @return its path.
     */
    public Path path()
    {
        return file;
    }

    /**
     * The node's id.
     *
     * @return the id.
     */
    public int nodeId()
    {
        return header.getInt(CountersLayout.NODE_ID_OFFSET);
    }

    /**
     * The node's incarnation.
     *
     * @return the incarnation.
     */
    public long incarnation()
    {
        return header.getLongVolatile(CountersLayout.INCARNATION_OFFSET);
    }

    /**
     * The node's process id.
     *
     * @return the pid.
     */
    public long pid()
    {
        return header.getLong(CountersLayout.PID_OFFSET);
    }

    /**
     * When the node started.
     *
     * @return ms since the epoch.
     */
    public long startEpochMs()
    {
        return header.getLong(CountersLayout.START_OFFSET);
    }

    /**
     * When the node last published its counters: its heartbeat.
     *
     * @return ms since the epoch.
     */
    public long heartbeatEpochMs()
    {
        return header.getLongVolatile(CountersLayout.HEARTBEAT_OFFSET);
    }

    /**
     * How often the node publishes.
     *
     * @return the interval in ns.
     */
    public long publishIntervalNs()
    {
        return header.getLong(CountersLayout.INTERVAL_OFFSET);
    }

    /**
     * The state the node last wrote.
     *
     * @return the state ({@link NodeState#STOPPED} for a value this build does not know).
     */
    public NodeState state()
    {
        final int state = header.getIntVolatile(CountersLayout.STATE_OFFSET);
        final NodeState[] states = NodeState.values();
        return state >= 0 && state < states.length ? states[state] : NodeState.STOPPED;
    }

    /**
     * The cluster id.
     *
     * @return the id.
     */
    public String clusterId()
    {
        final int length = Math.max(0, Math.min(header.getInt(CountersLayout.CLUSTER_ID_LENGTH_OFFSET),
            CountersLayout.MAX_CLUSTER_ID));
        return header.getStringWithoutLengthAscii(CountersLayout.CLUSTER_ID_OFFSET, length);
    }

    /**
     * The node's readiness as it last wrote it: {@code "ready: 2 of 2 peers up"}, or {@code "not ready: "} and why
     * (peers down, and what refused them; draining).
     *
     * @return the text; empty if the node never wrote one.
     */
    public String readiness()
    {
        for (int attempt = 0; attempt < 100; attempt++)
        {
            final int before = header.getIntVolatile(CountersLayout.READINESS_SEQUENCE_OFFSET);
            if ((before & 1) != 0)
            {
                Thread.onSpinWait();
                continue;
            }
            final int length = Math.max(0, Math.min(header.getInt(CountersLayout.READINESS_LENGTH_OFFSET),
                CountersLayout.MAX_READINESS));
            final String text = header.getStringWithoutLengthAscii(CountersLayout.READINESS_OFFSET, length);
            VarHandle.acquireFence();
            if (header.getIntVolatile(CountersLayout.READINESS_SEQUENCE_OFFSET) == before)
            {
                return text;
            }
        }
        return "(the node is rewriting its readiness)";
    }

    /**
     * Whether the node's process still runs (on this host: the pid is alive and is a Java process). A process that is
     * stopped (SIGSTOP) or wedged runs.
     *
     * @return true if it runs.
     */
    public boolean processAlive()
    {
        return ProcessHandle.of(pid()).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * The counters allocated now, in id order.
     *
     * @return the records.
     */
    public List<CounterRecord> counters()
    {
        final List<CounterRecord> records = new ArrayList<>();
        counters.forEach((id, typeId, key, label) ->
        {
            final int length = key.getInt(0);
            final String labels = length > 0 && length <= CountersReader.MAX_KEY_LENGTH - Integer.BYTES ?
                key.getStringWithoutLengthAscii(Integer.BYTES, length) : "";
            records.add(new CounterRecord(id, typeId, CounterType.metricName(typeId), parse(labels), label,
                counters.getCounterValue(id)));
        });
        return records;
    }

    /**
     * The distinct errors, in the order first seen.
     *
     * @return the records.
     */
    public List<ErrorRecord> errors()
    {
        final List<ErrorRecord> records = new ArrayList<>();
        ErrorLogReader.read(errorLog, (count, first, last, text) -> records.add(new ErrorRecord(count, first, last,
            text)));
        return records;
    }

    private static Map<String, String> parse(final String labels)
    {
        if (labels.isEmpty())
        {
            return Collections.emptyMap();
        }
        final Map<String, String> map = new LinkedHashMap<>();
        for (final String pair : labels.split(","))
        {
            final int eq = pair.indexOf('=');
            if (eq > 0)
            {
                map.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return Collections.unmodifiableMap(map);
    }
}
