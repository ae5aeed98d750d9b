package io.troupe.node.control;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The node's local control channel: a Unix domain socket in its data directory ({@value ControlProtocol#SOCKET_NAME})
 * that takes the CLI's mutating commands ({@code drain}, {@code stop}). Two locks keep others out: the data directory
 * and the socket are the node's user's only (0700, 0600), and every request carries the token the node wrote at start
 * into {@value ControlProtocol#TOKEN_NAME} (0600), which only a process that can read the node's private files knows;
 * a request without it is refused and counted. One request per connection, one line each way, at most
 * {@value ControlProtocol#MAX_LINE} bytes, read within {@value #READ_TIMEOUT_MS} ms: a silent or flooding peer is cut
 * off, never waited on. Runs on its own daemon thread ({@code troupe-control-<node id>}).
 */
public final class ControlServer implements AutoCloseable
{
    static final long READ_TIMEOUT_MS = 2_000;
    private static final Logger LOG = LoggerFactory.getLogger(ControlServer.class);

    private final ServerSocketChannel server;
    private final Path socket;
    private final Path tokenFile;
    private final byte[] token;
    private final Function<String, String> handler;
    private final Thread thread;
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private volatile boolean closed;

    private ControlServer(final ServerSocketChannel server, final Path socket, final Path tokenFile, final byte[] token,
        final Function<String, String> handler, final int nodeId)
    {
        this.server = server;
        this.socket = socket;
        this.tokenFile = tokenFile;
        this.token = token;
        this.handler = handler;
        this.thread = new Thread(this::serve, "troupe-control-" + nodeId);
        this.thread.setDaemon(true);
    }

    /**
     * Opens the control socket in the data directory and starts serving it.
     *
     * @param dataDir the node's data directory (0700, the node's own).
     * @param nodeId  the node, for the thread's name and the log.
     * @param handler runs a command ({@code drain 5000}, {@code stop}, {@code ping}) and returns the answer line
     *                ({@code ok ...} or {@code error ...}); on the control thread, so it must not block for long.
     * @return the server, or null (logged) if the socket cannot be made here, e.g. the path is too long for one.
     */
    public static ControlServer start(final Path dataDir, final int nodeId, final Function<String, String> handler)
    {
        final Path socket = dataDir.resolve(ControlProtocol.SOCKET_NAME).toAbsolutePath();
        final Path tokenFile = dataDir.resolve(ControlProtocol.TOKEN_NAME);
        final byte[] tokenBytes = new byte[32];
        new SecureRandom().nextBytes(tokenBytes);
        final String token = HexFormat.of().formatHex(tokenBytes);
        ServerSocketChannel server = null;
        try
        {
            Files.deleteIfExists(socket); // a socket of an earlier start
            Files.deleteIfExists(tokenFile);
            Files.writeString(Files.createFile(tokenFile,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))), token);
            server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(socket));
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
        }
        catch (final IOException | RuntimeException ex)
        {
            LOG.warn("node {}: no control socket at {} ({}): troupe drain and troupe stop cannot reach this node; " +
                "stop it with SIGTERM", nodeId, socket, ex.toString());
            closeQuietly(server);
            return null;
        }
        final ControlServer control = new ControlServer(server, socket, tokenFile,
            token.getBytes(StandardCharsets.US_ASCII), handler, nodeId);
        control.thread.start();
        return control;
    }

    private void serve()
    {
        while (!closed)
        {
            try (SocketChannel connection = server.accept())
            {
                answer(connection);
            }
            catch (final IOException | RuntimeException ex)
            {
                if (!closed)
                {
                    LOG.debug("control connection failed", ex);
                }
            }
        }
    }

    private void answer(final SocketChannel connection) throws IOException
    {
        final String line = ControlProtocol.readLine(connection, READ_TIMEOUT_MS);
        final String reply;
        if (line == null)
        {
            refused.incrementAndGet();
            reply = "error refused: no request line (at most " + ControlProtocol.MAX_LINE + " bytes within " +
                READ_TIMEOUT_MS + " ms)";
        }
        else
        {
            final int space = line.indexOf(' ');
            final byte[] given = (space < 0 ? line : line.substring(0, space)).getBytes(StandardCharsets.US_ASCII);
            if (!MessageDigest.isEqual(given, token))
            {
                refused.incrementAndGet();
                reply = "error refused: wrong control token (the CLI reads it from " + tokenFile.getFileName() +
                    " in the node's data directory, which only the node's user can read)";
            }
            else
            {
                requests.incrementAndGet();
                reply = handler.apply(space < 0 ? "" : line.substring(space + 1).strip());
            }
        }
        ControlProtocol.writeLine(connection, reply);
    }

    /**
     * Requests with the right token, handed to the node.
     *
     * @return the count.
     */
    public long requests()
    {
        return requests.get();
    }

    /**
     * Requests refused: no line in time, too long, or a wrong token.
     *
     * @return the count.
     */
    public long refused()
    {
        return refused.get();
    }

    /** Stops serving and removes the socket and the token. */
    @Override
    public void close()
    {
        closed = true;
        closeQuietly(server);
        try
        {
            Files.deleteIfExists(socket);
            Files.deleteIfExists(tokenFile);
        }
        catch (final IOException ex)
        {
            LOG.debug("could not remove the control socket", ex);
        }
    }

    private static void closeQuietly(final ServerSocketChannel channel)
    {
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignore)
            {
                // closing
            }
        }
    }
}
