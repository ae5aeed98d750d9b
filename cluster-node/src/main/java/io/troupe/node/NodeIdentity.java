package io.troupe.node;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.function.LongSupplier;
import java.util.zip.CRC32;

/**
 * A node's identity in its data directory: its node id and the incarnation of its latest start, in the file
 * {@value #FILE_NAME}. Every start takes the next incarnation: the wall clock in microseconds (so a node whose data
 * directory was wiped still starts above what its peers saw), or, if the clock is not past the last start's
 * incarnation (it went back), the last one plus an hour ({@link #CLOCK_BACK_STEP_US}); and makes it durable (written
 * to a temporary file, forced to disk, renamed over the old one, directory forced) before the node announces
 * itself, so a restart is a new incarnation even if the clock went back, and a crash at any point leaves the old
 * file or the new one, never half of one. The actor system counts local ids up from the incarnation × 1024
 * ({@code ActorId.firstLocalId}): the step past a clock that went back leaves the last start room for 3.7 × 10^12
 * ids, where one more microsecond would leave it 1,024.
 *
 * <p>Layout (little-endian, 28 bytes): magic {@code "TRPI"} (int32), layout version (int32, {@value #LAYOUT_VERSION}),
 * node id (int32), incarnation (int64), reserved (int32, 0), CRC-32 of the 24 bytes before it (int32). A file
 * that does not read as this (truncated, another layout version, a wrong checksum) is moved aside, logged and
 * counted, and the node starts as if it had none; a file of another node id is refused: the directory is another
 * node's.
 */
public final class NodeIdentity
{
    /** The file's name in the data directory. */
    public static final String FILE_NAME = "node-identity";
    /** The layout this build writes and reads. */
    public static final int LAYOUT_VERSION = 1;

    /** How far past the last start's incarnation a start goes when the clock is not past it: an hour. */
    public static final long CLOCK_BACK_STEP_US = 3_600_000_000L;

    private static final Logger LOG = LoggerFactory.getLogger(NodeIdentity.class);
    private static final int MAGIC = 0x49505254; // "TRPI" little-endian
    private static final int LENGTH = 28;
    private static final int CHECKED = 24;

    private final int nodeId;
    private final long incarnation;
    private final long previous;
    private final boolean setAside;

    private NodeIdentity(final int nodeId, final long incarnation, final long previous, final boolean setAside)
    {
        this.nodeId = nodeId;
        this.incarnation = incarnation;
        this.previous = previous;
        this.setAside = setAside;
    }

    /**
     * Takes this start's incarnation and makes it durable.
     *
     * @param dataDir the node's data directory (exists).
     * @param nodeId  the configured node id, or 0 for one the membership assigns: the identity then keeps the id
     *                stored by an earlier start (0 if none), for the node to ask for again.
     * @return the identity of this start.
     * @throws IllegalStateException if the directory holds another node's identity.
     * @throws UncheckedIOException  if the file cannot be read or written.
     */
    public static NodeIdentity advance(final Path dataDir, final int nodeId)
    {
        return advance(dataDir, nodeId, NodeIdentity::wallClockMicros);
    }

    /**
     * {@link #advance(Path, int)} with a given clock (microseconds), for tests.
     *
     * @param dataDir  the node's data directory (exists).
     * @param nodeId   the configured node id.
     * @param clockUs  the wall clock in microseconds.
     * @return the identity of this start.
     */
    static NodeIdentity advance(final Path dataDir, final int nodeId, final LongSupplier clockUs)
    {
        final Path file = dataDir.resolve(FILE_NAME);
        long previous = 0;
        boolean setAside = false;
        int id = nodeId;
        final ByteBuffer read = readBytes(file);
        if (read != null)
        {
            final String problem = problem(read);
            if (problem != null)
            {
                final Path aside = dataDir.resolve(FILE_NAME + ".bad-" + System.currentTimeMillis());
                move(file, aside);
                setAside = true;
                LOG.warn("node {}: {} {}; moved it to {} and starting from the clock", nodeId, file, problem, aside);
            }
            else
            {
                final int storedNode = read.getInt(8);
                if (nodeId == 0)
                {
                    id = storedNode; // an id the membership assigned at an earlier start: asked for again
                }
                else if (storedNode != nodeId)
                {
                    throw new IllegalStateException("the data directory " + dataDir + " belongs to node " + storedNode +
                        " (its " + FILE_NAME + " says so); this node is " + nodeId + ": give each node its own " +
                        "data directory");
                }
                previous = read.getLong(12);
            }
        }
        final long clock = clockUs.getAsLong();
        final long next = clock > previous ? clock : previous + CLOCK_BACK_STEP_US;
        if (clock <= previous)
        {
            LOG.warn("node {}: the wall clock ({} us) is not past the last start's incarnation {}: this start " +
                "takes {} (an hour past it, so no actor id of the last start is handed out again)", id, clock,
                previous, next);
        }
        write(dataDir, file, id, next);
        return new NodeIdentity(id, next, previous, setAside);
    }

    private static long wallClockMicros()
    {
        final Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /**
     * Records the node id the membership assigned to this start, durably, so that the next start asks for it again.
     *
     * @param dataDir the node's data directory (holds this identity).
     * @param nodeId  the assigned id.
     * @return this start's identity with that id.
     * @throws UncheckedIOException if the file cannot be written.
     */
    public NodeIdentity assigned(final Path dataDir, final int nodeId)
    {
        if (nodeId == this.nodeId)
        {
            return this;
        }
        write(dataDir, dataDir.resolve(FILE_NAME), nodeId, incarnation);
        return new NodeIdentity(nodeId, incarnation, previous, setAside);
    }

    /**
     * The identity stored in a data directory, read only (for tools).
     *
     * @param dataDir the data directory.
     * @return the node id and incarnation of the latest start, or null if there is no identity file.
     * @throws IllegalStateException if the file does not read as an identity of this layout.
     */
    public static NodeIdentity read(final Path dataDir)
    {
        final ByteBuffer read = readBytes(dataDir.resolve(FILE_NAME));
        if (read == null)
        {
            return null;
        }
        final String problem = problem(read);
        if (problem != null)
        {
            throw new IllegalStateException(dataDir.resolve(FILE_NAME) + " " + problem);
        }
        return new NodeIdentity(read.getInt(8), read.getLong(12), 0, false);
    }

    private static ByteBuffer readBytes(final Path file)
    {
        try
        {
            final byte[] bytes = Files.readAllBytes(file);
            return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        }
        catch (final NoSuchFileException ex)
        {
            return null;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
    }

    /** What is wrong with the file's bytes, or null if they read as an identity. */
    private static String problem(final ByteBuffer bytes)
    {
        if (bytes.capacity() != LENGTH)
        {
            return "is " + bytes.capacity() + " bytes long, not " + LENGTH + " (truncated or not an identity)";
        }
        if (bytes.getInt(0) != MAGIC)
        {
            return "is not a node identity (wrong magic)";
        }
        if (bytes.getInt(4) != LAYOUT_VERSION)
        {
            return "has layout version " + bytes.getInt(4) + "; this build reads version " + LAYOUT_VERSION;
        }
        if (bytes.getInt(CHECKED) != crc(bytes))
        {
            return "fails its checksum (damaged)";
        }
        if (bytes.getLong(12) <= 0)
        {
            return "holds incarnation " + bytes.getLong(12) + ", not a positive number";
        }
        return null;
    }

    private static int crc(final ByteBuffer bytes)
    {
        final CRC32 crc = new CRC32();
        crc.update(bytes.array(), 0, CHECKED);
        return (int)crc.getValue();
    }

    private static void write(final Path dataDir, final Path file, final int nodeId, final long incarnation)
    {
        final ByteBuffer bytes = ByteBuffer.allocate(LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        bytes.putInt(0, MAGIC).putInt(4, LAYOUT_VERSION).putInt(8, nodeId).putLong(12, incarnation).putInt(20, 0);
        bytes.putInt(CHECKED, crc(bytes));
        final Path temporary = dataDir.resolve(FILE_NAME + ".next");
        try
        {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE))
            {
                while (bytes.hasRemaining())
                {
                    channel.write(bytes);
                }
                channel.force(true);
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel directory = FileChannel.open(dataDir, StandardOpenOption.READ))
            {
                directory.force(true); // the rename itself survives a crash
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write the node identity " + file, ex);
        }
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

    /**
     * The node id.
     *
     * @return the id.
     */
    public int nodeId()
    {
        return nodeId;
    }

    /**
     * This start's incarnation (or, from {@link #read}, the latest start's).
     *
     * @return the incarnation.
     */
    public long incarnation()
    {
        return incarnation;
    }

    /**
     * The incarnation of the start before, 0 if none was known.
     *
     * @return the incarnation.
     */
    public long previous()
    {
        return previous;
    }

    /**
     * Whether an unreadable identity file was moved aside at this start.
     *
     * @return true if it was.
     */
    public boolean setAside()
    {
        return setAside;
    }

    @Override
    public String toString()
    {
        return "NodeIdentity[node " + nodeId + ", incarnation " + incarnation + "]";
    }
}
