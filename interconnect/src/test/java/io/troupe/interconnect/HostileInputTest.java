package io.troupe.interconnect;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.serialization.wire.GoodbyeReason;
import io.troupe.testing.Await;
import io.aeron.Aeron;
import io.aeron.ChannelUriStringBuilder;
import io.aeron.Publication;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.serialization.wire.FrameEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Garbage and forged frames from a rogue Aeron publisher, and many senders racing for one recipient. */
@Timeout(90)
class HostileInputTest
{
    private static final Duration CONNECT = Duration.ofSeconds(30);
    /** Asks that must succeed: generous, their timeout is not what is tested. */
    private static final Duration ASK = Duration.ofSeconds(30);
    /** Messages the rogue's first flood sends: each is dropped and counted once, whatever is wrong with it. */
    private static final int FLOOD = 3_000;
    /** Forged compact-entry messages of the second flood: each dropped and counted once, as unsealed. */
    private static final int COMPACT_FLOOD = 200;
    private TestCluster cluster;

    @AfterEach
    void tearDown()
    {
        if (cluster != null)
        {
            cluster.close();
        }
    }

    @Test
    void aRoguePublisherSendingGarbageChangesNothingForHealthySessions() throws Exception
    {
        cluster = TestCluster.of(2).startAll();
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final BlockingQueue<Object> received = new LinkedBlockingQueue<>();
        final ActorId sink = two.system.register((ctx, envelope) -> received.add(envelope.event()));

        final String dir = System.getProperty("java.io.tmpdir") + "/troupe-rogue-" + System.nanoTime();
        try (MediaDriver driver = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(dir)
                .threadingMode(ThreadingMode.SHARED).dirDeleteOnStart(true).dirDeleteOnShutdown(true)
                .termBufferSparseFile(true).publicationTermBufferLength(64 * 1024).ipcTermBufferLength(64 * 1024));
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName())))
        {
            final String endpoint = "127.0.0.1:" + two.port;
            final List<Publication> rogue = new ArrayList<>();
            for (final int stream : new int[] {10, 11, 12})
            {
                rogue.add(aeron.addPublication(new ChannelUriStringBuilder().media("udp").endpoint(endpoint)
                    .termLength(64 * 1024).build(), stream));
            }
            Await.until(() -> rogue.stream().allMatch(Publication::isConnected), CONNECT, "rogue connected");
            final long droppedBefore = two.interconnect.counters().unauthenticatedFrames();
            final Random random = new Random(42);
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
            final FrameEncoder encoder = new FrameEncoder();
            for (int i = 0; i < FLOOD; i++)
            {
                final Publication publication = rogue.get(i % 3);
                final int length;
                if (i % 2 == 0)
                {
                    final byte[] garbage = new byte[1 + random.nextInt(300)];
                    random.nextBytes(garbage);
                    buffer.putBytes(0, garbage);
                    length = garbage.length;
                }
                else
                {
                    // a well-formed envelope from a session that never completed a handshake
                    final byte[] payload = {0, 0, 0, 4, 'e', 'v', 'i', 'l'};
                    // (on the data stream, packed as the interconnect packs frames: after an int32 length)
                    final int at = i % 3 == 1 ? OutboundBatch.LENGTH_PREFIX : 0;
                    final int frameLength = encoder.encodeEnvelope(buffer, at, new Envelope(sink, ActorId.NONE,
                        TestCluster.TEXT, 0, 0L, "evil", null), 0, 0L, 1, new UnsafeBuffer(payload), 0, payload.length);
                    if (at > 0)
                    {
                        buffer.putInt(0, frameLength, ByteOrder.LITTLE_ENDIAN);
                    }
                    length = at + frameLength;
                }
                while (publication.offer(buffer, 0, length) < 0)
                {
                    Thread.onSpinWait();
                }
            }
            // every message of the flood counted: garbage, unsealed envelopes, each dropped once, on every stream
            Await.equal(() -> two.interconnect.counters().unauthenticatedFrames() - droppedBefore, (long)FLOOD,
                "messages of the first flood counted");
            final long unsealedBefore = two.interconnect.counters().rejectedFrames(FrameRejection.UNSEALED);
            // compact entries (cookie + payload, repeating the message's previous envelope): alone, and after a
            // well-formed envelope, from the same unauthenticated session; each message is counted, none delivered
            final Publication data = rogue.get(1);
            for (int i = 0; i < COMPACT_FLOOD; i++)
            {
                int at = 0;
                if (i % 2 == 1)
                {
                    final byte[] payload = {0, 0, 0, 4, 'e', 'v', 'i', 'l'};
                    final int frameLength = encoder.encodeEnvelope(buffer, OutboundBatch.LENGTH_PREFIX,
                        new Envelope(sink, ActorId.NONE, TestCluster.TEXT, 0, 0L, "evil", null), 0, 0L, 1,
                        new UnsafeBuffer(payload), 0, payload.length);
                    buffer.putInt(0, frameLength, ByteOrder.LITTLE_ENDIAN);
                    at = OutboundBatch.LENGTH_PREFIX + frameLength;
                }
                buffer.putInt(at, 16 | OutboundBatch.COMPACT_FLAG, ByteOrder.LITTLE_ENDIAN);
                buffer.putLong(at + OutboundBatch.LENGTH_PREFIX, i);
                buffer.putLong(at + OutboundBatch.LENGTH_PREFIX + 8, 0x0400_0000_6c69_7665L);
                final int length = at + OutboundBatch.LENGTH_PREFIX + 16;
                while (data.offer(buffer, 0, length) < 0)
                {
                    Thread.onSpinWait();
                }
            }
            // each message is dropped whole, unopened (no seal), before any frame in it is read
            Await.equal(() -> two.interconnect.counters().rejectedFrames(FrameRejection.UNSEALED) - unsealedBefore,
                (long)COMPACT_FLOOD, "forged compact messages counted as unsealed");
            assertThat(two.interconnect.counters().unauthenticatedFrames() - droppedBefore)
                .as("one count per message, none for the frames in it").isEqualTo(FLOOD + COMPACT_FLOOD);
        }

        ActorSystemSpi.of(one.system).send(
            new Envelope(sink, ActorId.NONE, TestCluster.TEXT, 0, 0L, "still fine", null));
        assertThat(Await.next(received)).isEqualTo("still fine");
        assertThat(received).as("nothing forged reached an actor").isEmpty();
        assertThat(two.interconnect.isConnected(1)).isTrue();
        assertThat(one.interconnect.peerCounters().get(0).sessionsDown()).isZero();
    }

    @Test
    void forgedGoodbyesAcksAndCreditFromASpoofedSessionAreDroppedAndEndNothing() throws Exception
    {
        cluster = TestCluster.of(2).startAll();
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final long incarnation = one.interconnect.incarnation();
        final long unknownBefore = two.interconnect.counters().rejectedFrames(FrameRejection.UNKNOWN_SESSION);
        final long unsealedBefore = two.interconnect.counters().rejectedFrames(FrameRejection.UNSEALED);

        final String dir = System.getProperty("java.io.tmpdir") + "/troupe-spoof-" + System.nanoTime();
        try (MediaDriver driver = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(dir)
                .threadingMode(ThreadingMode.SHARED).dirDeleteOnStart(true).dirDeleteOnShutdown(true)
                .termBufferSparseFile(true).publicationTermBufferLength(64 * 1024).ipcTermBufferLength(64 * 1024));
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName())))
        {
            final Publication control = aeron.addPublication(new ChannelUriStringBuilder().media("udp")
                .endpoint("127.0.0.1:" + two.port).termLength(64 * 1024).build(),
                cluster.config(two).controlStreamId());
            Await.until(control::isConnected, CONNECT, "spoofer connected");
            final FrameEncoder encoder = new FrameEncoder();
            final UnsafeBuffer frame = new UnsafeBuffer(new byte[512]);
            final UnsafeBuffer message = new UnsafeBuffer(new byte[1024]);
            final Random random = new Random(7);
            // each claims to be node 1, in its current incarnation: a goodbye, an ack of everything, a credit
            // repayment of a large debt; each once bare and once behind a made-up seal (marker, key id, tag)
            final List<Integer> lengths = List.of(
                encoder.encodeGoodbye(frame, 0, 1, incarnation, GoodbyeReason.SHUTDOWN,
                    "forged"),
                encoder.encodeAck(frame, 128, 1, incarnation, cluster.config(two).dataStreamId(), Long.MAX_VALUE / 2),
                encoder.encodeCreditDeltas(frame, 256, 1, incarnation, new int[] {2}, new long[] {1L},
                    new long[] {-1_000_000L}, 1));
            for (int i = 0; i < 3; i++)
            {
                final int at = i * 128;
                final int length = lengths.get(i);
                offer(control, frame, at, length);
                message.putShort(0, (short)0xFFFF, ByteOrder.LITTLE_ENDIAN);
                message.putShort(2, (short)random.nextInt(1 << 16), ByteOrder.LITTLE_ENDIAN);
                message.putLong(4, 0L, ByteOrder.LITTLE_ENDIAN);
                message.putLong(12, 1L, ByteOrder.LITTLE_ENDIAN);
                message.putBytes(FrameSeal.HEADER, frame, at, length);
                final byte[] tag = new byte[FrameSeal.TAG];
                random.nextBytes(tag);
                message.putBytes(FrameSeal.HEADER + length, tag);
                offer(control, message, 0, FrameSeal.HEADER + length + FrameSeal.TAG);
            }
            // the bare ones are unsealed; the ones behind a made-up seal name a session no handshake set up
            Await.until(() ->
                two.interconnect.counters().rejectedFrames(FrameRejection.UNSEALED) - unsealedBefore >= 3 &&
                two.interconnect.counters().rejectedFrames(FrameRejection.UNKNOWN_SESSION) - unknownBefore >= 3,
                CONNECT, "every forgery dropped and counted");
        }
        // heartbeats keep flowing: the sessions stay as they were for longer than a failure timeout, so a forgery that
        // had broken one would have shown by now
        final Duration quiet = cluster.config(one).failureTimeout().plusMillis(500);
        Await.holdsFor(quiet, () -> two.interconnect.isConnected(1) && one.interconnect.isConnected(2) &&
            two.interconnect.peerCounters().get(0).sessionsDown() == 0 &&
            one.interconnect.peerCounters().get(0).sessionsDown() == 0, "both sessions up, none ended");
        final ActorId echo = two.system.register((ctx, envelope) -> ctx.reply("echo:" + envelope.event()));
        assertThat(one.system.ask(echo, "still fine", TestCluster.TEXT, ASK).get(ASK.toSeconds(), TimeUnit.SECONDS))
            .isEqualTo("echo:still fine");
    }

    private static void offer(final Publication publication, final UnsafeBuffer buffer, final int offset,
        final int length)
    {
        while (publication.offer(buffer, offset, length) < 0)
        {
            Thread.onSpinWait();
        }
    }

    @Test
    void eventsOfEachSenderArriveInOrderWhileManySendersRace() throws Exception
    {
        cluster = TestCluster.of(2).startAll();
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final int senders = 4;
        final int perSender = 5_000;
        final ConcurrentHashMap<ActorId, Long> lastSeen = new ConcurrentHashMap<>();
        final List<String> violations = new CopyOnWriteArrayList<>();
        final AtomicLong count = new AtomicLong();
        final ActorId sink = two.system.register((ctx, envelope) ->
        {
            final Long previous = lastSeen.put(envelope.sender(), envelope.cookie());
            if (previous != null && previous + 1 != envelope.cookie())
            {
                violations.add(envelope.sender() + ": " + previous + " then " + envelope.cookie());
            }
            count.incrementAndGet();
        });
        final List<ActorId> producers = new ArrayList<>();
        for (int s = 0; s < senders; s++)
        {
            producers.add(one.system.register((ctx, envelope) ->
            {
                for (long i = 0; i < perSender; i++)
                {
                    final String text = i % 500 == 0 ? "big".repeat(4_000) : "small"; // some go on the bulk stream
                    ctx.send(sink, text, TestCluster.TEXT, 0, i);
                }
            }));
        }
        for (final ActorId producer : producers)
        {
            one.system.send(producer, "go");
        }
        Await.until(() -> count.get() + one.interconnect.peerCounters().get(0).shed() == (long)senders * perSender,
            "all events delivered or shed");
        assertThat(violations).as("FIFO per (sender, recipient); shed " + one.interconnect.peerCounters().get(0).shed())
            .isEmpty();
    }
}
