package io.troupe.interconnect;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PrivateDirectoryTest
{
    @TempDir
    Path dir;

    @Test
    void aNewDirectoryIsMadeOwnerOnlyAndMarkedAndOnlyAMarkedOneIsDeleted() throws IOException
    {
        final Path data = dir.resolve("a/b/node-1");
        assertThat(PrivateDirectory.prepare(data, "data directory")).isEqualTo(data.toAbsolutePath().normalize());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data.getParent())))
            .isEqualTo("rwx------");
        assertThat(PrivateDirectory.isMarked(data)).isTrue();
        Files.writeString(data.resolve("state"), "kept");

        // a node's own directory is reused as it is, its permissions put right
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
        PrivateDirectory.prepare(data, "data directory");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data))).isEqualTo("rwx------");
        assertThat(data.resolve("state")).hasContent("kept");

        final Path foreign = Files.createDirectories(dir.resolve("somebody-elses"));
        Files.writeString(foreign.resolve("precious"), "do not delete");
        assertThat(PrivateDirectory.deleteIfMarked(foreign)).isFalse();
        assertThat(foreign.resolve("precious")).exists();
        assertThat(PrivateDirectory.deleteIfMarked(data)).isTrue();
        assertThat(data).doesNotExist();
    }

    @Test
    void aLinkAFileOrAForeignDirectoryIsRefusedSayingWhy() throws IOException
    {
        final Path target = Files.createDirectories(dir.resolve("target"));
        final Path link = Files.createSymbolicLink(dir.resolve("link"), target);
        assertThatThrownBy(() -> PrivateDirectory.prepare(link, "Aeron directory"))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("is a symbolic link").hasMessageContaining("Aeron directory");
        assertThatThrownBy(() -> PrivateDirectory.checkReplaceable(link, "Aeron directory"))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("is a symbolic link");

        final Path file = Files.writeString(dir.resolve("file"), "x");
        assertThatThrownBy(() -> PrivateDirectory.prepare(file, "data directory"))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("is not a directory");

        final Path foreign = Files.createDirectories(dir.resolve("foreign"));
        Files.writeString(foreign.resolve("cnc.dat"), "someone's");
        assertThatThrownBy(() -> PrivateDirectory.checkReplaceable(foreign, "Aeron directory"))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("was not made by a Troupe node")
            .hasMessageContaining(PrivateDirectory.MARKER);
        assertThat(foreign.resolve("cnc.dat")).exists();

        // empty, or missing, is fine to take
        final Path empty = Files.createDirectories(dir.resolve("empty"));
        PrivateDirectory.checkReplaceable(empty, "Aeron directory");
        PrivateDirectory.checkReplaceable(dir.resolve("missing"), "Aeron directory");
        PrivateDirectory.claim(empty, "Aeron directory");
        assertThat(PrivateDirectory.isMarked(empty)).isTrue();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(empty))).isEqualTo("rwx------");
    }
}
