package io.troupe.node.control;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * The control channel's protocol, both ends: a client connects to the node's {@value #SOCKET_NAME}, writes one line,
 * {@code <token> <command>}, and reads one line back, {@code ok <text>} or {@code error <text>}. Commands:
 * {@code ping}, {@code drain <ms>} (stop intake, drain the pools for up to that long, then stop, as SIGTERM does),
 * {@code stop} (the same without draining: what is queued ends as {@code Undelivered(SHUTDOWN)}).
 */
public final class ControlProtocol
{
    /** The socket's name in the data directory. */
    public static final String SOCKET_NAME = "control.sock";
    /** The token file's name in the data directory. */
    public static final String TOKEN_NAME = "control.token";
    /** The longest line either end sends, in bytes. */
    public static final int MAX_LINE = 1024;

    private ControlProtocol()
    {
    }

    /**
     * Sends a command to the node whose data directory is given and returns its answer.
     *
     * @param dataDir   the node's data directory.
     * @param command   the command, e.g. {@code drain 5000}.
     * @param timeoutMs how long to wait for the answer.
     * @return the answer line ({@code ok ...} or {@code error ...}).
     * @throws ControlException if the node cannot be reached or the caller may not control it; the message says why.
     */
    public static String request(final Path dataDir, final String command, final long timeoutMs)
    {
        final Path socket = dataDir.resolve(SOCKET_NAME).toAbsolutePath();
        final String token;
        try
        {
            token = Files.readString(dataDir.resolve(TOKEN_NAME), StandardCharsets.US_ASCII).strip();
        }
        catch (final NoSuchFileException ex)
        {
            throw new ControlException(false, "no control channel in " + dataDir + ": the node is not running (or " +
                "could not open its control socket; see its log)");
        }
        catch (final AccessDeniedException ex)
        {
            throw new ControlException(true, "refused: only the node's user may control it (" +
                dataDir.resolve(TOKEN_NAME) + " is not readable by " + System.getProperty("user.name") + ")");
        }
        catch (final IOException ex)
        {
            throw new ControlException(false, "cannot read " + dataDir.resolve(TOKEN_NAME) + ": " + ex.getMessage());
        }
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX))
        {
            channel.connect(UnixDomainSocketAddress.of(socket));
            writeLine(channel, token + ' ' + command);
            final String answer = readLine(channel, timeoutMs);
            if (answer == null)
            {
                throw new ControlException(false, "node did not answer on " + socket + " within " + timeoutMs + " ms");
            }
            return answer;
        }
        catch (final IOException ex)
        {
            final String message = String.valueOf(ex.getMessage());
            if (message.contains("Permission denied"))
            {
                throw new ControlException(true, "refused: only the node's user may control it (" + socket + ")");
            }
            throw new ControlException(false, "cannot reach the node's control socket " + socket + ": " + message +
                " (is the node running?)");
        }
    }

    /**
     * Reads one line of at most {@link #MAX_LINE} bytes, waiting at most {@code timeoutMs}.
     *
     * @param channel   the connection.
     * @param timeoutMs the deadline.
     * @return the line without its end, or null if none came in time, it was too long, or not US-ASCII text.
     * @throws IOException if the connection fails.
     */
    static String readLine(final SocketChannel channel, final long timeoutMs) throws IOException
    {
        channel.configureBlocking(false);
        final ByteBuffer buffer = ByteBuffer.allocate(MAX_LINE + 1);
        final long deadlineNs = System.nanoTime() + timeoutMs * 1_000_000L;
        while (System.nanoTime() - deadlineNs < 0)
        {
            final int read = channel.read(buffer);
            for (int i = 0; i < buffer.position(); i++)
            {
                final byte b = buffer.get(i);
                if (b == '\n')
                {
                    return new String(buffer.array(), 0, i, StandardCharsets.US_ASCII);
                }
                if (b < 0x20 || b > 0x7E)
                {
                    return null; // not a text line
                }
            }
            if (read < 0 || !buffer.hasRemaining())
            {
                return null; // closed before a line, or longer than a line may be
            }
            if (read == 0)
            {
                LockSupport.parkNanos(1_000_000L);
            }
        }
        return null;
    }

    /**
     * Writes one line.
     *
     * @param channel the connection.
     * @param line    the line, without its end; cut to {@link #MAX_LINE} bytes.
     * @throws IOException if the connection fails.
     */
    static void writeLine(final SocketChannel channel, final String line) throws IOException
    {
        final byte[] bytes = line.getBytes(StandardCharsets.US_ASCII);
        final ByteBuffer buffer = ByteBuffer.allocate(Math.min(bytes.length, MAX_LINE) + 1);
        buffer.put(bytes, 0, Math.min(bytes.length, MAX_LINE)).put((byte)'\n').flip();
        final long deadlineNs = System.nanoTime() + 2_000_000_000L;
        while (buffer.hasRemaining() && System.nanoTime() - deadlineNs < 0)
        {
            if (channel.write(buffer) == 0)
            {
                LockSupport.parkNanos(1_000_000L);
            }
        }
    }
}
