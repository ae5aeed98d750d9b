package io.troupe.node;

/**
 * A node config that cannot start a node: the message names the key path (such as {@code troupe.bind.port}),
 * the bad value as written, where it was written (file and line, a system property, or the defaults) and
 * what is allowed. The cluster secret's value is never part of a message.
 */
public final class NodeConfigException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /** The key path of the error, or empty when the config as a whole is at fault (unreadable, bad syntax). */
    private final String keyPath;
    /** The file or other source the config was read from. */
    private final String source;

    /**
     * Creates the exception.
     *
     * @param keyPath the key path, such as {@code troupe.peers[1].port}, or empty.
     * @param source  the config's source, such as its file name.
     * @param message the full message.
     * @param cause   the underlying error, or null.
     */
    NodeConfigException(final String keyPath, final String source, final String message, final Throwable cause)
    {
        super(message, cause);
        this.keyPath = keyPath;
        this.source = source;
    }

    /**
     * The key path at fault.
     *
     * @return a path such as {@code troupe.bind.port} or {@code troupe.pools[0].threads}; empty when the config
     *         as a whole is at fault.
     */
    public String keyPath()
    {
        return keyPath;
    }

    /**
     * Where the config came from.
     *
     * @return the file name, or the name given to a config that did not come from a file.
     */
    public String source()
    {
        return source;
    }
}
