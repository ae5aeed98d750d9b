package io.troupe.node.counters;

import io.troupe.interconnect.PeerCounter;
import io.troupe.interconnect.PeerCounters;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CounterRowsTest
{
    @TempDir
    Path dir;

    @Test
    void aPeerGoneFromThePassHasItsRowsFreedAndOneBackGetsThemAgain()
    {
        final CountersFile file = CountersFile.create(dir, 1, 1, "test", 100_000_000L, 256, 64 * 1024);
        final CounterRows<Integer> peers = new CounterRows<>((type, labels) ->
            file.allocate(type.typeId(), type.metricName(), labels));
        final CountersFileReader reader = CountersFileReader.open(dir);

        pass(peers, List.of(peer(2, 10), peer(3, 20)));
        assertThat(reader.counters()).filteredOn(record -> record.typeId() == PeerCounter.PEER_EVENTS_OUT.typeId())
            .extracting(record -> record.labels().get("peer"), CounterRecord::value)
            .containsExactlyInAnyOrder(Tuple.tuple("2", 10L),
                Tuple.tuple("3", 20L));

        pass(peers, List.of(peer(2, 11))); // node 3 left the cluster
        assertThat(reader.counters()).extracting(record -> record.labels().get("peer")).containsOnly("2");
        assertThat(reader.counters()).hasSize(PeerCounter.values().length - 1); // every row but the scheduler's

        pass(peers, List.of(peer(2, 12), peer(3, 0))); // node 3 is back: new rows, from its new figures
        assertThat(reader.counters()).filteredOn(record -> "3".equals(record.labels().get("peer")))
            .hasSize(PeerCounter.values().length - 1);
    }

    private static void pass(final CounterRows<Integer> peers, final List<PeerCounters> list)
    {
        final List<PeerCounter> group = List.of(PeerCounter.values());
        peers.begin();
        for (final PeerCounters peer : list)
        {
            peers.row(peer.nodeId(), "peer=" + peer.nodeId()).setAll(group, peer);
        }
        peers.end();
    }

    private static PeerCounters peer(final int nodeId, final long eventsOut)
    {
        return new PeerCounters(nodeId, true, 1, eventsOut, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null);
    }
}
