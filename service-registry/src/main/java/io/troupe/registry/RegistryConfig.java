package io.troupe.registry;

import io.troupe.memquota.ConfigurationException;

import java.nio.file.Path;

/**
 * Settings of a node's service directory.
 */
public final class RegistryConfig
{
    /** Default {@link #capacity()}. */
    public static final int DEFAULT_CAPACITY = RegistrySettings.CAPACITY.defaultValue();

    private int capacity = DEFAULT_CAPACITY;
    private Path replicaDirectory;

    /**
     * Defaults.
     */
    public RegistryConfig()
    {
    }

    /**
     * Most instances the directory holds, of this node and all others together. Registering beyond it fails
     * with an {@link IllegalStateException}; a peer's entries beyond it are refused and counted.
     *
     * @param value 1..16,777,216.
     * @return this.
     * @throws ConfigurationException if out of range.
     */
    public RegistryConfig capacity(final int value)
    {
        this.capacity = RegistrySettings.CAPACITY.requireValid(value);
        return this;
    }

    /**
     * Most instances the directory holds.
     *
     * @return the value.
     */
    public int capacity()
    {
        return capacity;
    }

    /**
     * Where the directory keeps its replica ({@link ReplicaLayout#FILE_NAME}) for other processes on the host: the
     * node's data directory. Null, the default, keeps none.
     *
     * @param directory an existing directory, or null.
     * @return this.
     */
    public RegistryConfig replicaDirectory(final Path directory)
    {
        this.replicaDirectory = directory;
        return this;
    }

    /**
     * Where the replica is kept, or null for none.
     *
     * @return the directory.
     */
    public Path replicaDirectory()
    {
        return replicaDirectory;
    }
}
