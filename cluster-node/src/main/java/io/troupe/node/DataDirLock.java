package io.troupe.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One node per data directory: a node holds an exclusive lock on {@value #FILE} in its data directory from the start
 * of its start until the end of its close. A second node started on the same directory (the same config run twice, two
 * containers on one volume) fails at once, naming the holder's pid, before it touches anything of the first's: its
 * identity file, its counters file (which a start replaces) and its directory replica (whose Chronicle Map recovery
 * would wait for the first node's file lock for ever). The lock is the operating system's, so it goes with a process
 * that dies, however it dies; the file stays, holding the last holder's pid.
 */
final class DataDirLock implements AutoCloseable
{
    /** The lock file's name in the data directory. */
    static final String FILE = "node.lock";

    private final FileChannel channel;
    private final FileLock lock;
    private boolean released;

    private DataDirLock(final FileChannel channel, final FileLock lock)
    {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the data directory's lock, or fails saying who holds it.
     *
     * @param dataDir the node's data directory (it exists).
     * @param who     the node, for the message ("node 3").
     * @return the held lock.
     * @throws NodeStartException  if another node (in this process or another) holds it.
     * @throws UncheckedIOException if the lock file cannot be opened or written.
     */
    static DataDirLock acquire(final Path dataDir, final String who)
    {
        final Path file = dataDir.resolve(FILE);
        FileChannel channel = null;
        try
        {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
            FileLock lock;
            try
            {
                lock = channel.tryLock();
            }
            catch (final OverlappingFileLockException heldHere)
            {
                lock = null; // a node of this process holds it
            }
            if (lock == null)
            {
                final String holder = holder(channel);
                channel.close();
                throw new NodeStartException("troupe.data-dir = " + dataDir + " is in use by another node" +
                    (holder.isEmpty() ? "" : " (pid " + holder + ")") + "; " + who +
                    " needs a data directory of its own", null);
            }
            channel.truncate(0);
            channel.write(
                ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
            return new DataDirLock(channel, lock);
        }
        catch (final IOException ex)
        {
            closeQuietly(channel);
            throw new UncheckedIOException("could not lock the data directory " + dataDir + " (" + file + ")", ex);
        }
    }

    /** The pid the holder wrote, or empty if none could be read. */
    private static String holder(final FileChannel channel) throws IOException
    {
        final ByteBuffer buffer = ByteBuffer.allocate(32);
        channel.read(buffer, 0);
        buffer.flip();
        final String text = StandardCharsets.US_ASCII.decode(buffer).toString().trim();
        return text.chars().allMatch(Character::isDigit) ? text : "";
    }

    private static void closeQuietly(final FileChannel channel)
    {
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignored)
            {
                // opening it is what failed; nothing is held
            }
        }
    }

    /** Releases the lock (the file stays). Idempotent. */
    @Override
    public synchronized void close()
    {
        if (released)
        {
            return;
        }
        released = true;
        try
        {
            lock.release();
        }
        catch (final IOException ignored)
        {
            // closing the channel below releases it as well
        }
        closeQuietly(channel);
    }
}
