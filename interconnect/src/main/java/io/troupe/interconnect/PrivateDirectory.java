package io.troupe.interconnect;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Set;

/**
 * The directories a node keeps its files in (its Aeron directory, its data directory): made readable by their
 * owner only (0700), never followed through a symbolic link, checked to belong to the user the node runs as, and
 * marked as a node's with a marker file, so that a node never deletes or reuses a directory it did not make.
 * On a file system without POSIX permissions only the link and marker checks apply.
 */
public final class PrivateDirectory
{
    /** The file that marks a directory as made by a Troupe node. */
    public static final String MARKER = ".troupe-node";

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private PrivateDirectory()
    {
    }

    /**
     * Makes the directory if it is missing (and its parents), or checks the one that is there: a directory, not a
     * link, owned by this process's user, and either empty or marked as a node's. Then sets it to 0700 and marks it.
     *
     * @param dir  the directory.
     * @param what what it is for, for messages ("Aeron directory").
     * @return the directory.
     * @throws IllegalStateException if it cannot be used, saying why.
     */
    public static Path prepare(final Path dir, final String what)
    {
        final Path path = dir.toAbsolutePath().normalize();
        try
        {
            checkNoLinkOnTheWay(path, what);
            if (Files.exists(path, LinkOption.NOFOLLOW_LINKS))
            {
                checkUsable(path, what);
            }
            else
            {
                createOwnerOnly(path);
            }
            restrict(path);
            final Path marker = path.resolve(MARKER);
            if (!Files.exists(marker, LinkOption.NOFOLLOW_LINKS))
            {
                try
                {
                    Files.createFile(marker);
                }
                catch (final FileAlreadyExistsException ex)
                {
                    // made in between: fine
                }
            }
            return path;
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot use " + path + " as the node's " + what + ": " + ex, ex);
        }
    }

    /**
     * Checks that a directory something else will delete and make again (Aeron's media driver does so with its
     * directory) may be replaced: missing, or a directory (not a link) of this process's user that is empty or
     * marked as a node's.
     *
     * @param dir  the directory.
     * @param what what it is for, for messages.
     * @throws IllegalStateException if not, saying why.
     */
    public static void checkReplaceable(final Path dir, final String what)
    {
        final Path path = dir.toAbsolutePath().normalize();
        checkNoLinkOnTheWay(path, what);
        if (Files.exists(path, LinkOption.NOFOLLOW_LINKS))
        {
            try
            {
                checkUsable(path, what);
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException("cannot use " + path + " as the node's " + what + ": " + ex, ex);
            }
        }
    }

    /**
     * Takes a directory that was just made for the node (e.g. by its media driver) as the node's: 0700 and
     * marked, so that the node deletes it on close and a later node may replace it.
     *
     * @param dir  the directory.
     * @param what what it is for, for messages.
     * @throws IllegalStateException if it cannot be restricted or marked.
     */
    public static void claim(final Path dir, final String what)
    {
        final Path path = dir.toAbsolutePath().normalize();
        checkNoLinkOnTheWay(path, what);
        try
        {
            restrict(path);
            if (!Files.exists(path.resolve(MARKER), LinkOption.NOFOLLOW_LINKS))
            {
                Files.createFile(path.resolve(MARKER));
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot make " + path + " private to the node (its " + what + "): " + ex,
                ex);
        }
    }

    /**
     * Whether a directory is one a node made (it holds the marker), and so may be deleted by a node.
     *
     * @param dir the directory.
     * @return true if marked; false if not, missing, or a link.
     */
    public static boolean isMarked(final Path dir)
    {
        return Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) &&
            Files.isRegularFile(dir.resolve(MARKER), LinkOption.NOFOLLOW_LINKS);
    }

    private static void checkNoLinkOnTheWay(final Path path, final String what)
    {
        // the directory itself and the parents the node would create must not be links; existing parents above
        // (e.g. /tmp on some systems) are the administrator's business
        if (Files.isSymbolicLink(path))
        {
            throw new IllegalStateException(path + " is a symbolic link: refusing to use it as the node's " + what +
                " (a link could point the node's files anywhere); give the real path");
        }
    }

    private static void checkUsable(final Path path, final String what) throws IOException
    {
        if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS))
        {
            throw new IllegalStateException(path + " exists and is not a directory: cannot use it as the node's " +
                what);
        }
        final UserPrincipal owner = Files.getOwner(path, LinkOption.NOFOLLOW_LINKS);
        final UserPrincipal me = path.getFileSystem().getUserPrincipalLookupService()
            .lookupPrincipalByName(System.getProperty("user.name"));
        if (!owner.equals(me))
        {
            throw new IllegalStateException(path + " belongs to " + owner.getName() + ", not to " + me.getName() +
                ", the user this node runs as: refusing to use it as the node's " + what);
        }
        if (!isMarked(path) && !isEmpty(path))
        {
            throw new IllegalStateException(path + " exists, is not empty and was not made by a Troupe node (no " +
                MARKER + " file in it): refusing to use it as the node's " + what + ", whose files a node replaces " +
                "and deletes; give a directory of its own");
        }
    }

    private static boolean isEmpty(final Path path) throws IOException
    {
        try (var entries = Files.list(path))
        {
            return entries.findAny().isEmpty();
        }
    }

    private static void createOwnerOnly(final Path path) throws IOException
    {
        final Path parent = path.getParent();
        if (parent != null && !Files.exists(parent, LinkOption.NOFOLLOW_LINKS))
        {
            createOwnerOnly(parent);
        }
        try
        {
            if (isPosix(path))
            {
                Files.createDirectory(path, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            }
            else
            {
                Files.createDirectory(path);
            }
        }
        catch (final FileAlreadyExistsException ex)
        {
            if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS))
            {
                throw ex;
            }
        }
    }

    private static void restrict(final Path path) throws IOException
    {
        if (isPosix(path))
        {
            Files.getFileAttributeView(path, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                .setPermissions(EnumSet.copyOf(OWNER_ONLY));
        }
    }

    private static boolean isPosix(final Path path)
    {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /**
     * Deletes a directory a node made (marked), with everything in it; leaves anything else alone.
     *
     * @param dir the directory.
     * @return true if it was deleted.
     */
    public static boolean deleteIfMarked(final Path dir)
    {
        if (!isMarked(dir))
        {
            return false;
        }
        try (var walk = Files.walk(dir))
        {
            walk.sorted(Comparator.reverseOrder()).forEach(each ->
            {
                try
                {
                    Files.deleteIfExists(each);
                }
                catch (final NoSuchFileException ex)
                {
                    // gone already
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException(ex);
                }
            });
            return true;
        }
        catch (final IOException | UncheckedIOException ex)
        {
            return false;
        }
    }
}
