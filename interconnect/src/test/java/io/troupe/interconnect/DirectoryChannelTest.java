package io.troupe.interconnect;

import io.troupe.actor.ActorId;
import io.troupe.actor.ServiceId;
import io.troupe.serialization.wire.DirectoryEntry;
import io.troupe.serialization.wire.DirectoryOp;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The service directory's channel on the control stream: in order, split to fit, verified, own entries only. */
@Timeout(60)
class DirectoryChannelTest
{
    private static final Duration WAIT = Duration.ofSeconds(15);

    @AutoClose
    private final TestCluster cluster = TestCluster.of(2);

    @Test
    void aLargeSnapshotArrivesInPartsOfItsVersionThenDeltasInOrder() throws Exception
    {
        cluster.startAll().awaitConnected(WAIT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final BlockingQueue<DirectoryUpdate> heard = new LinkedBlockingQueue<>();
        two.interconnect.directoryListener(heard::add);
        final List<DirectoryEntry> all = new ArrayList<>();
        for (int i = 0; i < 1_000; i++)
        {
            all.add(new DirectoryEntry(ServiceId.of(1, "svc-" + i), ActorId.of(1, 100 + i, i), DirectoryOp.REGISTER));
        }

        assertThat(one.interconnect.sendDirectoryUpdate(2, 7, true, all)).isTrue();
        final ServiceId late = ServiceId.of(1, "late");
        assertThat(one.interconnect.sendDirectoryUpdate(2, 8, false,
            List.of(new DirectoryEntry(late, ActorId.of(1, 5000, 1), DirectoryOp.REGISTER)))).isTrue();

        final List<DirectoryEntry> received = new ArrayList<>();
        int parts = 0;
        while (received.size() < all.size())
        {
            final DirectoryUpdate part = heard.poll(10, TimeUnit.SECONDS);
            assertThat(part).as("a part of the snapshot").isNotNull();
            assertThat(part.snapshot()).isTrue();
            assertThat(part.version()).isEqualTo(7);
            assertThat(part.nodeId()).isEqualTo(1);
            assertThat(part.incarnation()).isEqualTo(one.interconnect.incarnation());
            received.addAll(part.entries());
            parts++;
        }
        assertThat(received).isEqualTo(all);
        assertThat(parts).as("split to fit the control stream's messages").isGreaterThan(1);
        final DirectoryUpdate delta = heard.poll(10, TimeUnit.SECONDS);
        assertThat(delta.snapshot()).isFalse();
        assertThat(delta.version()).isEqualTo(8);
        assertThat(delta.entries()).extracting(DirectoryEntry::service).containsExactly(late);
    }

    @Test
    void anEmptySnapshotStillTravelsAndOnlyOwnEntriesMayBeSent() throws Exception
    {
        cluster.startAll().awaitConnected(WAIT);
        final BlockingQueue<DirectoryUpdate> heard = new LinkedBlockingQueue<>();
        cluster.node(2).interconnect.directoryListener(heard::add);
        final Interconnect one = cluster.node(1).interconnect;

        assertThat(one.sendDirectoryUpdate(2, 1, true, List.of())).isTrue();
        final DirectoryUpdate empty = heard.poll(10, TimeUnit.SECONDS);
        assertThat(empty.snapshot()).isTrue();
        assertThat(empty.entries()).isEmpty();

        assertThatThrownBy(() -> one.sendDirectoryUpdate(2, 2, false, List.of(new DirectoryEntry(ServiceId.of(2, "x"),
            ActorId.of(1, 1, 1), DirectoryOp.REGISTER)))).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("own");
        assertThat(one.sendDirectoryUpdate(9, 2, true, List.of())).as("not a peer").isFalse();
    }

    @Test
    void updatesThatArriveBeforeTheListenerIsSetWaitForItInOrder() throws Exception
    {
        cluster.startAll().awaitConnected(WAIT);
        final Interconnect one = cluster.node(1).interconnect;
        final Interconnect two = cluster.node(2).interconnect; // no listener yet: its directory is still starting
        final DirectoryEntry first = new DirectoryEntry(ServiceId.of(1, "first"), ActorId.of(1, 10, 1),
            DirectoryOp.REGISTER);
        final DirectoryEntry second = new DirectoryEntry(ServiceId.of(1, "second"), ActorId.of(1, 11, 1),
            DirectoryOp.REGISTER);

        assertThat(one.sendDirectoryUpdate(2, 1, true, List.of(first))).isTrue();
        assertThat(one.sendDirectoryUpdate(2, 2, false, List.of(second))).isTrue();
        Await.until(() -> two.counters().directoryUpdatesHeld() == 2, WAIT, "both updates held at node 2");
        final BlockingQueue<DirectoryUpdate> heard = new LinkedBlockingQueue<>();
        two.directoryListener(heard::add);

        final DirectoryUpdate snapshot = heard.poll(10, TimeUnit.SECONDS);
        assertThat(snapshot.snapshot()).isTrue();
        assertThat(snapshot.entries()).containsExactly(first);
        final DirectoryUpdate delta = heard.poll(10, TimeUnit.SECONDS);
        assertThat(delta.version()).isEqualTo(2);
        assertThat(delta.entries()).containsExactly(second);
        assertThat(two.counters().directoryUpdatesDropped()).isZero();
    }

    @Test
    void aPeerWhoseUpdatesOverflowedBeforeTheListenerGetsANewSessionOnceOneIsSet()
    {
        cluster.startAll().awaitConnected(WAIT);
        final Interconnect one = cluster.node(1).interconnect;
        final Interconnect two = cluster.node(2).interconnect;
        final int updates = DirectoryReceiver.MAX_WAITING + 1;
        for (int sent = 0; sent < updates; sent++)
        {
            final long version = sent + 1;
            Await.until(() -> one.sendDirectoryUpdate(2, version, false, List.of()), WAIT, "update " + version +
                " taken by node 1");
            if (version % 256 == 0) // paced: node 1 ends a session that lets thousands of updates pile up
            {
                Await.until(() -> two.counters().directoryUpdatesHeld() == version, WAIT, "node 2 holding " + version);
            }
        }
        Await.until(() -> two.counters().directoryUpdatesDropped() == updates, WAIT, "node 2 dropped them all");
        final long downBefore = sessionsDown(two, 1);

        two.directoryListener(update -> { });

        Await.until(() -> sessionsDown(two, 1) == downBefore + 1, WAIT, "node 2 ended its session with node 1");
        cluster.awaitConnected(WAIT);
    }

    private static long sessionsDown(final Interconnect node, final int peer)
    {
        for (final PeerCounters counters : node.peerCounters())
        {
            if (counters.nodeId() == peer)
            {
                return counters.sessionsDown();
            }
        }
        throw new AssertionError("no peer " + peer);
    }

    @Test
    void anUpdateForAPeerWithNoSessionIsDroppedAndCounted()
    {
        final TestCluster.Node one = cluster.node(1);
        cluster.start(one, cluster.config(one)); // node 2 never starts

        assertThat(one.interconnect.sendDirectoryUpdate(2, 1, true, List.of())).isTrue();
        Await.until(() -> one.interconnect.counters().directoryUpdatesDropped() == 1, WAIT,
            "dropped: the next session starts with a snapshot");
    }
}
