package io.troupe.node;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Set;

/**
 * Reads the secrets of a node config: each given either inline or as a file (never both), a file private to its owner,
 * bounded, and read without the line break an editor adds. Used by {@link NodeConfigMapper} and
 * {@link OperationsConfigMapper}, once per config, on one thread.
 */
final class SecretReader
{
    /** Longest secret file read: far more than a secret needs, little enough to read whole. */
    private static final int MAX_SECRET_FILE_BYTES = 64 * 1024;

    private final ConfigReader in;

    SecretReader(final ConfigReader in)
    {
        this.in = in;
    }

    /**
     * Which of the two keys gives the secret.
     *
     * @param inlineKey the key of the secret itself.
     * @param fileKey   the key of a file that holds it.
     * @return the key that is set, or null if neither is.
     * @throws NodeConfigException naming the file key if both are set.
     */
    String key(final String inlineKey, final String fileKey)
    {
        final boolean inline = in.isSet(inlineKey);
        final boolean file = in.isSet(fileKey);
        if (inline && file)
        {
            throw in.invalid(fileKey, "allowed only one of " + inlineKey + " and " + fileKey);
        }
        return inline ? inlineKey : file ? fileKey : null;
    }

    /**
     * The secret a key gives.
     *
     * @param key       the key {@link #key} chose.
     * @param inlineKey the key of the secret itself: its UTF-8 bytes; any other key names a file.
     * @return the secret's bytes.
     */
    byte[] read(final String key, final String inlineKey)
    {
        return key.equals(inlineKey) ? in.string(key).getBytes(StandardCharsets.UTF_8) : readFile(key);
    }

    /** Reads a secret file: private to its owner, bounded, one trailing line break dropped. */
    byte[] readFile(final String key)
    {
        final Path file = in.file(key);
        checkPrivate(file, key);
        final byte[] bytes;
        // Bounded read: a path to the wrong file (a log, /dev/zero) must fail, not fill the heap.
        try (InputStream stream = Files.newInputStream(file))
        {
            bytes = stream.readNBytes(MAX_SECRET_FILE_BYTES + 1);
        }
        catch (final IOException | SecurityException ex)
        {
            throw in.invalid(key, "allowed a readable file; reading " + file.toAbsolutePath() +
                " failed: " + ex, ex);
        }
        if (bytes.length > MAX_SECRET_FILE_BYTES)
        {
            throw in.invalid(key, "allowed a file of at most " + MAX_SECRET_FILE_BYTES + " bytes");
        }
        return withoutTrailingLineBreak(bytes);
    }

    /** A secret file others can read is no secret: refused, with the command that fixes it. */
    private void checkPrivate(final Path file, final String key)
    {
        if (!file.getFileSystem().supportedFileAttributeViews().contains("posix") || !Files.exists(file))
        {
            return; // a missing file is reported by the read
        }
        final Set<PosixFilePermission> permissions;
        try
        {
            permissions = Files.getPosixFilePermissions(file);
        }
        catch (final IOException ex)
        {
            throw in.invalid(key, "allowed a readable file; reading the permissions of " +
                file.toAbsolutePath() + " failed: " + ex, ex);
        }
        if (permissions.contains(PosixFilePermission.GROUP_READ) ||
            permissions.contains(PosixFilePermission.OTHERS_READ))
        {
            throw in.invalid(key, "allowed a file only its owner can read; " + file.toAbsolutePath() +
                " is " + PosixFilePermissions.toString(permissions) + " (chmod 600 it)");
        }
    }

    /**
     * The bytes without one trailing {@code \n} or {@code \r\n}: what an editor or {@code echo} adds to a file.
     */
    static byte[] withoutTrailingLineBreak(final byte[] bytes)
    {
        int length = bytes.length;
        if (length > 0 && bytes[length - 1] == '\n')
        {
            length--;
            if (length > 0 && bytes[length - 1] == '\r')
            {
                length--;
            }
        }
        return length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
    }
}
