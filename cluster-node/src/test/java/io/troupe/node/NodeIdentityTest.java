package io.troupe.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The incarnation persisted in the data directory: strictly increasing, whatever the clock and the file. */
class NodeIdentityTest
{
    @TempDir
    Path dir;

    @Test
    void everyStartTakesTheNextIncarnationAndAClockThatWentBackStepsAnHourPastTheLast()
    {
        final NodeIdentity first = NodeIdentity.advance(dir, 3, () -> 1_000_000L);
        assertThat(first.incarnation()).isEqualTo(1_000_000L);
        assertThat(first.previous()).isZero();

        final NodeIdentity second = NodeIdentity.advance(dir, 3, () -> 5L); // the clock went back
        assertThat(second.incarnation()).isEqualTo(1_000_000L + NodeIdentity.CLOCK_BACK_STEP_US);
        assertThat(second.previous()).isEqualTo(1_000_000L);

        final long later = 2 * NodeIdentity.CLOCK_BACK_STEP_US; // and forward again, past the step
        final NodeIdentity third = NodeIdentity.advance(dir, 3, () -> later);
        assertThat(third.incarnation()).isEqualTo(later);
        assertThat(NodeIdentity.read(dir).incarnation()).isEqualTo(later);
        assertThat(NodeIdentity.read(dir).nodeId()).isEqualTo(3);
        assertThat(dir.resolve(NodeIdentity.FILE_NAME + ".next")).doesNotExist();
    }

    @Test
    void anAssignedIdIsKeptForTheNextStartAndBindsTheDirectoryToIt()
    {
        final NodeIdentity first = NodeIdentity.advance(dir, 0, () -> 100L);
        assertThat(first.nodeId()).as("no id stored yet: one is to be assigned").isZero();
        final NodeIdentity assigned = first.assigned(dir, 1000);
        assertThat(assigned.nodeId()).isEqualTo(1000);
        assertThat(assigned.incarnation()).as("the same start").isEqualTo(100L);
        assertThat(NodeIdentity.read(dir).nodeId()).isEqualTo(1000);

        final NodeIdentity restart = NodeIdentity.advance(dir, 0, () -> 50L);
        assertThat(restart.nodeId()).as("asked for again").isEqualTo(1000);
        assertThat(restart.incarnation()).isEqualTo(100L + NodeIdentity.CLOCK_BACK_STEP_US);
        assertThatThrownBy(() -> NodeIdentity.advance(dir, 7, () -> 200L))
            .as("a configured id on an assigned node's directory").hasMessageContaining("belongs to node 1000");
    }

    @Test
    void anotherNodesDirectoryIsRefusedSayingWhose()
    {
        NodeIdentity.advance(dir, 3, () -> 10L);

        assertThatThrownBy(() -> NodeIdentity.advance(dir, 4, () -> 20L))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("belongs to node 3").hasMessageContaining("this node is 4");
        assertThat(NodeIdentity.read(dir).incarnation()).as("untouched").isEqualTo(10L);
    }

    @Test
    void aDamagedTruncatedOrForeignFileIsMovedAsideAndTheClockTakesOver() throws IOException
    {
        final Path file = dir.resolve(NodeIdentity.FILE_NAME);
        NodeIdentity.advance(dir, 3, () -> 100L);
        final byte[] good = Files.readAllBytes(file);

        final byte[] flipped = good.clone();
        flipped[14] ^= 1; // inside the incarnation: the checksum fails
        final byte[] newerLayout = good.clone();
        newerLayout[4] = 9;
        for (final byte[] bad : new byte[][] {flipped, Arrays.copyOf(good, 11), newerLayout, "hello".getBytes()})
        {
            Files.write(file, bad);
            final NodeIdentity identity = NodeIdentity.advance(dir, 3, () -> 500L);
            assertThat(identity.setAside()).isTrue();
            assertThat(identity.incarnation()).isEqualTo(500L);
            assertThat(NodeIdentity.read(dir).incarnation()).isEqualTo(500L);
        }
        try (var files = Files.list(dir))
        {
            assertThat(files.filter(p -> p.getFileName().toString().startsWith(NodeIdentity.FILE_NAME + ".bad-")))
                .as("each bad file kept for a look").isNotEmpty();
        }

        Files.write(file, newerLayout);
        assertThatThrownBy(() -> NodeIdentity.read(dir)).hasMessageContaining("layout version 9")
            .hasMessageContaining("version " + NodeIdentity.LAYOUT_VERSION);
    }

    @Test
    void aCrashBeforeTheRenameLeavesTheOldIdentity() throws IOException
    {
        NodeIdentity.advance(dir, 3, () -> 100L);
        Files.write(dir.resolve(NodeIdentity.FILE_NAME + ".next"), new byte[] {1, 2, 3}); // a half-written next

        assertThat(NodeIdentity.advance(dir, 3, () -> 101L).incarnation()).isEqualTo(101L);
    }
}
