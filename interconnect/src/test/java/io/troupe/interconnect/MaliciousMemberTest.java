package io.troupe.interconnect;

import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.ServiceId;
import io.troupe.memquota.MemoryQuotaConfig;
import io.troupe.serialization.EventCodec;
import io.troupe.serialization.wire.DirectoryEntry;
import io.troupe.serialization.wire.DirectoryOp;
import io.troupe.serialization.wire.WireFormat;
import io.troupe.testing.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a member holding the cluster secret can send that no outsider can, and what it cannot make a node do:
 * claim frames larger than any a node accepts, claim the largest frame and send a slice of it, name credit
 * accounts of owners the node has no session with, and name costs out of range. Node 1 is real; node 2 is a
 * {@link FakeMember} that completes the handshake and seals whatever it sends.
 */
@Timeout(60)
class MaliciousMemberTest
{
    /**
     * Node 1's failure timeout: the member heartbeats only when a test says so, so node 1 must not give it up while a
     * loaded machine runs the test between two of them (the detector is not what is tested here).
     */
    private static final Duration PATIENT = Duration.ofSeconds(30);
    /** How long node 1 is watched for anything else it might deliver: the window is what is tested. */
    private static final Duration QUIET = Duration.ofMillis(200);
    private final TestCluster cluster = TestCluster.of(2);
    private FakeMember member;

    @AfterEach
    void tearDown()
    {
        if (member != null)
        {
            member.close();
        }
        cluster.close();
    }

    private TestCluster.Node startRealNodeAndHandshake(final long quotaBytes)
    {
        final TestCluster.Node one = cluster.node(1);
        cluster.memoryQuota = () -> MemoryQuotaConfig.of(quotaBytes, quotaBytes / 2);
        cluster.start(one, cluster.config(one).failureTimeout(PATIENT));
        member = new FakeMember(cluster, one, cluster.node(2));
        member.handshake(cluster);
        Await.until(() -> one.interconnect.isConnected(2), "the session is up at node 1");
        return one;
    }

    @Test
    void oversizedChunkClaimsAreRejectedAndAClaimOfTheLargestFrameHoldsOnlyWhatArrived() throws Exception
    {
        final TestCluster.Node one = startRealNodeAndHandshake(64L << 20);
        final UnsafeBuffer chunk = new UnsafeBuffer(new byte[2048]);
        final UnsafeBuffer slice = new UnsafeBuffer(new byte[1024]);

        // a first chunk claiming a frame of 1 GiB: more than any this node accepts
        int length = member.encoder().encodeChunk(chunk, 0, 1 << 30, 0, slice, 0, slice.capacity());
        member.sendBulk(chunk, length);
        Await.until(() -> one.interconnect.peerCounters().get(0).rejectedFrames() >= 1, "the claim rejected");

        // a first chunk claiming the largest frame accepted, then nothing more: the node holds what arrived
        final long usedBefore = one.system.memoryQuota().usedBytes();
        final long rejectedBefore = one.interconnect.peerCounters().get(0).rejectedFrames();
        final int largest = WireFormat.envelopeLength(one.interconnect.largestEventBytes(), true);
        length = member.encoder().encodeChunk(chunk, 0, largest, 0, slice, 0, slice.capacity());
        member.sendBulk(chunk, length);
        // behind it on the same stream, a heartbeat, which has no business there: counted and dropped (the chunk is
        // not), and once it is counted the chunk before it has been read
        length = member.encoder().encodeHeartbeat(chunk, 0, 2, member.incarnation(), System.nanoTime(), 1, 0L, 0L);
        member.sendBulk(chunk, length);
        Await.equal(() -> one.interconnect.peerCounters().get(0).rejectedFrames(), rejectedBefore + 1,
            "node 1's rejections of the member's frames");
        assertThat(one.system.memoryQuota().usedBytes() - usedBefore).as("charged for what arrived, not the claim")
            .isLessThan(256 * 1024);
        assertThat(one.interconnect.isConnected(2)).as("a member's bad chunk is counted, not fatal").isTrue();
    }

    @Test
    void anAccountOfAnOwnerWithNoSessionAndACostOutOfRangeAreNotTrusted() throws Exception
    {
        final TestCluster.Node one = startRealNodeAndHandshake(64L << 20);
        final BlockingQueue<Object> received = new LinkedBlockingQueue<>();
        final ActorId sink = one.system.register((ctx, envelope) -> received.add(envelope.event()));
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[512]);
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[64]);
        final int payloadLength = textPayload(payload, "from member");

        // charged to account 5 of node 99, which node 1 has no session with
        int length = member.encoder().encodeEnvelope(frame, 0, new Envelope(sink, ActorId.NONE, TestCluster.TEXT, 0,
            1L, null, null), 99, 5L, 100, payload, 0, payloadLength);
        member.sendData(frame, length);
        assertThat(Await.next(received)).isEqualTo("from member");
        assertThat(one.interconnect.counters().foreignAccountArrivals()).isEqualTo(1);
        assertThat(one.system.flow().shadowCount()).as("no shadow of node 99's account").isZero();

        // charged to the member's own account with a cost far out of range
        length = member.encoder().encodeEnvelope(frame, 0, new Envelope(sink, ActorId.NONE, TestCluster.TEXT, 0,
            2L, null, null), 2, 6L, Integer.MAX_VALUE, payload, 0, payloadLength);
        member.sendData(frame, length);
        assertThat(Await.next(received)).isEqualTo("from member");
        assertThat(one.interconnect.counters().clampedCosts()).isEqualTo(1);
        member.heartbeat();
        assertThat(one.interconnect.isConnected(2)).isTrue();
    }

    @Test
    void aServiceOfNodeZeroOrOfAnotherNodeIsNeverResolvedHere() throws Exception
    {
        final TestCluster.Node one = startRealNodeAndHandshake(64L << 20);
        final BlockingQueue<Object> received = new LinkedBlockingQueue<>();
        one.system.registerService(ServiceId.of(0, "echo"),
            one.system.register((ctx, envelope) -> received.add(envelope.event())));
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[512]);
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[64]);
        final int payloadLength = textPayload(payload, "misaddressed");
        final long before = one.interconnect.counters().rejectedFrames(FrameRejection.NOT_FOR_THIS_NODE);

        for (final int node : new int[] {0, 3})
        {
            final int length = member.encoder().encodeEnvelope(frame, 0, new Envelope(
                ServiceId.of(node, "echo"), ActorId.NONE, TestCluster.TEXT, 0, node, null, null), 0, 0L, 0,
                payload, 0, payloadLength);
            member.sendData(frame, length);
        }
        final int length = member.encoder().encodeEnvelope(frame, 0, new Envelope(ServiceId.of(1, "echo"),
            ActorId.NONE, TestCluster.TEXT, 0, 1L, null, null), 0, 0L, 0, payload, 0, payloadLength);
        member.sendData(frame, length);

        assertThat(Await.next(received)).as("only the one that names node 1").isEqualTo("misaddressed");
        Await.holdsFor(QUIET, received::isEmpty, "nothing else delivered");
        assertThat(one.interconnect.counters().rejectedFrames(FrameRejection.NOT_FOR_THIS_NODE) - before).isEqualTo(2);
    }

    @Test
    void aMemberMayAnnounceOnlyItsOwnServicesAndActorsInItsOwnSession() throws Exception
    {
        final TestCluster.Node one = startRealNodeAndHandshake(64L << 20);
        final BlockingQueue<DirectoryUpdate> heard = new LinkedBlockingQueue<>();
        one.interconnect.directoryListener(heard::add);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[4096]);
        final ServiceId own = ServiceId.of(2, "mine");
        final List<DirectoryEntry> entries = List.of(
            new DirectoryEntry(own, ActorId.of(2, 7, 1),
                DirectoryOp.REGISTER),
            new DirectoryEntry(ServiceId.of(1, "yours"), ActorId.of(2, 8, 1),
                DirectoryOp.REGISTER),
            new DirectoryEntry(ServiceId.of(2, "elsewhere"), ActorId.of(1, 9, 1), DirectoryOp.REGISTER));

        int length = member.encoder().encodeDirectoryUpdate(frame, 0, 2, member.incarnation(), 1, true, entries);
        member.sendControl(frame, length);
        final DirectoryUpdate update = Await.next(heard);
        assertThat(update.entries()).extracting(DirectoryEntry::service).containsExactly(own);
        assertThat(one.interconnect.counters().directoryEntriesRefused()).isEqualTo(2);

        final long malformed = one.interconnect.counters().rejectedFrames(FrameRejection.MALFORMED);
        length = member.encoder().encodeDirectoryUpdate(frame, 0, 2, member.incarnation() + 1, 2, true, entries);
        member.sendControl(frame, length);
        length = member.encoder().encodeDirectoryUpdate(frame, 0, 3, member.incarnation(), 3, true, entries);
        member.sendControl(frame, length);
        Await.until(() -> one.interconnect.counters().rejectedFrames(FrameRejection.MALFORMED) == malformed + 2,
            "another incarnation's and another node's updates refused");
        assertThat(heard).isEmpty();
    }

    /** The payload of a TEXT event as the test cluster's codec writes it. */
    private static int textPayload(final UnsafeBuffer into, final String text)
    {
        @SuppressWarnings("unchecked")
        final EventCodec<String> codec = (EventCodec<String>)TestCluster.CODECS.codec(TestCluster.TEXT);
        return codec.encode(text, into, 0);
    }
}
