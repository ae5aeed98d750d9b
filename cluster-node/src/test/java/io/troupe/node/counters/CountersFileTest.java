package io.troupe.node.counters;

import io.troupe.interconnect.PeerCounter;
import org.agrona.concurrent.status.AtomicCounter;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CountersFileTest
{
    @TempDir
    Path dir;

    @Test
    void aReaderSeesTheHeaderCountersWithLabelsAndFreedCountersGo()
    {
        final CountersFile file = CountersFile.create(dir, 7, 1234, "prod-east", 100_000_000L, 256, 64 * 1024);
        final AtomicCounter peer = file.allocate(PeerCounter.PEER_EVENTS_OUT.typeId(), "peer_events_out", "peer=2");
        final AtomicCounter errors = file.allocate(NodeCounter.AGENT_ERRORS.typeId(), "agent_errors", "");
        peer.setRelease(42);
        errors.setRelease(3);
        file.state(NodeState.RUNNING, 1235);
        file.heartbeat(99);

        final CountersFileReader reader = CountersFileReader.open(dir);
        assertThat(reader.nodeId()).isEqualTo(7);
        assertThat(reader.incarnation()).isEqualTo(1235);
        assertThat(reader.clusterId()).isEqualTo("prod-east");
        assertThat(reader.state()).isEqualTo(NodeState.RUNNING);
        assertThat(reader.heartbeatEpochMs()).isEqualTo(99);
        assertThat(reader.publishIntervalNs()).isEqualTo(100_000_000L);
        assertThat(reader.counters()).extracting(CounterRecord::name, CounterRecord::labels, CounterRecord::value)
            .containsExactly(
                Tuple.tuple("peer_events_out", Map.of("peer", "2"), 42L),
                Tuple.tuple("agent_errors", Map.of(), 3L));

        peer.close(); // the peer went: its counter is freed
        assertThat(reader.counters()).extracting(CounterRecord::name).containsExactly("agent_errors");
        file.close();
        assertThat(reader.state()).isEqualTo(NodeState.STOPPED);
    }

    @Test
    void theErrorLogKeepsADistinctErrorOnceWithItsCount()
    {
        final CountersFile file = CountersFile.create(dir, 1, 1, "c", 1, 256, 64 * 1024);
        final ErrorRecorder recorder = new ErrorRecorder(file.errorLog());
        final IllegalStateException same = new IllegalStateException("same");
        recorder.onError(same);
        recorder.onError(same);
        recorder.onError(new IllegalArgumentException("other"));
        assertThat(recorder.errors()).isEqualTo(3);
        assertThat(CountersFileReader.open(dir).errors()).extracting(ErrorRecord::count).containsExactly(2, 1);
    }

    @Test
    void aMissingForeignDamagedOrNewerFileIsRefusedWithAMessageNamingIt() throws IOException
    {
        assertThatThrownBy(() -> CountersFileReader.open(dir)).isInstanceOf(CountersFileException.class)
            .hasMessageContaining("no counters file at " + dir.resolve(CountersLayout.FILE_NAME));

        Files.write(dir.resolve(CountersLayout.FILE_NAME), new byte[4096]);
        assertThatThrownBy(() -> CountersFileReader.open(dir)).hasMessageContaining("is not a Troupe counters file");

        Files.write(dir.resolve(CountersLayout.FILE_NAME), new byte[10]);
        assertThatThrownBy(() -> CountersFileReader.open(dir)).hasMessageContaining("is not a Troupe counters file");

        CountersFile.create(dir, 1, 1, "c", 1, 256, 64 * 1024).close();
        patchInt(CountersLayout.VERSION_OFFSET, 99);
        assertThatThrownBy(() -> CountersFileReader.open(dir)).hasMessageContaining("layout version 99");

        CountersFile.create(dir, 1, 1, "c", 1, 256, 64 * 1024).close();
        patchInt(CountersLayout.VALUES_LENGTH_OFFSET, Integer.MAX_VALUE - 127);
        assertThatThrownBy(() -> CountersFileReader.open(dir)).hasMessageContaining("is damaged");

        CountersFile.create(dir, 1, 1, "c", 1, 256, 64 * 1024).close();
        patchInt(CountersLayout.ERROR_LOG_LENGTH_OFFSET, 1 << 27);
        assertThatThrownBy(() -> CountersFileReader.open(dir)).hasMessageContaining("is damaged");
    }

    private void patchInt(final int offset, final int value) throws IOException
    {
        try (FileChannel channel = FileChannel.open(dir.resolve(CountersLayout.FILE_NAME), StandardOpenOption.WRITE))
        {
            final ByteBuffer buffer = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, value);
            channel.write(buffer, offset);
        }
    }
}
