package io.troupe.interconnect;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.interconnect.seal.HandshakeAuth;
import io.troupe.interconnect.seal.SessionKeys;
import io.troupe.interconnect.seal.FrameSeal;
import io.troupe.serialization.wire.EnvelopeCompaction;
import io.troupe.serialization.wire.TypeTable;
import io.troupe.testing.Await;
import io.aeron.Aeron;
import io.aeron.ChannelUriStringBuilder;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.serialization.wire.EnvelopeFrame;
import io.troupe.serialization.wire.FrameDecoder;
import io.troupe.serialization.wire.FrameHandler;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.serialization.wire.Handshake;
import io.troupe.serialization.wire.HandshakeFrame;
import io.troupe.serialization.wire.HandshakePhase;
import io.troupe.serialization.wire.FrameProtection;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The start of a session, against a scripted acceptor: the acceptor takes envelopes only once it has verified
 * the CONFIRM, and the CONFIRM and envelopes travel on different streams, so an envelope sent earlier could
 * overtake it, be dropped, and be covered by a later cumulative ack, lost without an Undelivered. The initiator
 * therefore counts the session up only when the first frame sealed with the new keys arrives: the acceptor
 * seals nothing before it verified the CONFIRM.
 */
@Timeout(60)
class SessionStartTest
{
    private static final Duration CONNECT = Duration.ofSeconds(30);
    /**
     * Node 1's failure timeout, which is also how long it gives a handshake attempt: the scripted acceptor is slow
     * (this thread plays it, and heartbeats only once), so node 1 must give it up neither before it seals its first
     * frame nor before the envelope is out; neither timeout is what is tested. Not longer: node 1's close lingers
     * that long for an ack the acceptor never sends.
     */
    private static final Duration PATIENT = Duration.ofSeconds(5);
    /** How long node 1, having confirmed, is watched for counting the session up too early: the window is tested. */
    private static final Duration NOT_YET = Duration.ofMillis(200);
    private TestCluster cluster;

    @AfterEach
    void tearDown()
    {
        if (cluster != null)
        {
            cluster.close();
        }
    }

    /** Decodes a data-stream message: frames, each after its int32 length, compact ones rebuilt whole. */
    private static void decodePacked(final FrameDecoder decoder, final DirectBuffer buffer, final int offset,
        final int length)
    {
        final UnsafeBuffer expanded = new UnsafeBuffer(new byte[65536]);
        int at = offset;
        int baseAt = -1;
        while (at < offset + length)
        {
            final int entry = buffer.getInt(at, ByteOrder.LITTLE_ENDIAN);
            final int frameLength = entry & ~OutboundBatch.COMPACT_FLAG;
            at += OutboundBatch.LENGTH_PREFIX;
            if ((entry & OutboundBatch.COMPACT_FLAG) != 0)
            {
                decoder.decode(expanded, 0,
                    EnvelopeCompaction.expand(buffer, baseAt, buffer, at, frameLength, expanded));
            }
            else
            {
                baseAt = at;
                decoder.decode(buffer, at, frameLength);
            }
            at += frameLength;
        }
    }

    @Test
    void theInitiatorCountsTheSessionUpOnlyOnceTheAcceptorSealedAFrameWithTheNewKeys() throws Exception
    {
        cluster = TestCluster.of(2);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node fake = cluster.node(2); // played by this test, never started
        final InterconnectConfig config = cluster.config(one).failureTimeout(PATIENT);
        cluster.start(one, config);

        final String dir = System.getProperty("java.io.tmpdir") + "/troupe-acceptor-" + System.nanoTime();
        try (MediaDriver driver = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(dir)
                .threadingMode(ThreadingMode.SHARED).dirDeleteOnStart(true).dirDeleteOnShutdown(true)
                .termBufferSparseFile(true).publicationTermBufferLength(64 * 1024).ipcTermBufferLength(64 * 1024));
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName())))
        {
            final String own = new ChannelUriStringBuilder().media("udp").endpoint("127.0.0.1:" + fake.port).build();
            final Subscription control = aeron.addSubscription(own, config.controlStreamId());
            final Subscription data = aeron.addSubscription(own, config.dataStreamId());
            final ExclusivePublication reply = aeron.addExclusivePublication(new ChannelUriStringBuilder().media("udp")
                .endpoint("127.0.0.1:" + one.port).termLength(64 * 1024).sessionId(777_001).build(),
                config.controlStreamId());
            // a member's data and bulk streams, under the same Aeron session: node 1 answers only once it hears them
            final ExclusivePublication dataOut = aeron.addExclusivePublication(new ChannelUriStringBuilder()
                .media("udp").endpoint("127.0.0.1:" + one.port).termLength(64 * 1024).sessionId(777_001).build(),
                config.dataStreamId());
            final ExclusivePublication bulkOut = aeron.addExclusivePublication(new ChannelUriStringBuilder()
                .media("udp").endpoint("127.0.0.1:" + one.port).termLength(64 * 1024).sessionId(777_001).build(),
                config.bulkStreamId());

            final Heard heard = new Heard();
            final FrameDecoder decoder = new FrameDecoder(heard, 1 << 20);
            final HandshakeAuth auth = new HandshakeAuth(TestCluster.SECRET);
            final long fakeIncarnation = 42;

            // node 1 initiates: wait for its HELLO, answer with a valid WELCOME
            Await.until(() ->
            {
                control.poll((buffer, offset, length, header) -> decoder.decode(buffer, offset, length), 10);
                return heard.helloChallenge != null;
            }, CONNECT, "HELLO from node 1");
            final long oneIncarnation = heard.helloIncarnation;
            final byte[] ourChallenge = auth.newChallenge();
            final byte[] types = TypeTable.encode(cluster.codecs);
            final byte[] proof = auth.prove(HandshakePhase.WELCOME, config.clusterId(), 2, fakeIncarnation, 1,
                oneIncarnation, heard.helloChallenge, types, FrameProtection.AUTHENTICATED);
            final FrameEncoder encoder = new FrameEncoder();
            final UnsafeBuffer out = new UnsafeBuffer(new byte[4096]);
            Await.until(() -> reply.isConnected() && dataOut.isConnected() && bulkOut.isConnected(), CONNECT,
                "the fake acceptor's streams heard by node 1");
            final int welcome = encoder.encodeHandshake(out, 0, new Handshake(HandshakePhase.WELCOME,
                config.clusterId(), 2, fakeIncarnation, 1, oneIncarnation, InterconnectConfig.MIN_PROTOCOL_VERSION,
                InterconnectConfig.PROTOCOL_VERSION, ourChallenge, proof, "", types, FrameProtection.AUTHENTICATED,
                heard.helloChallenge));
            assertThat(reply.offer(out, 0, welcome)).isPositive();
            Await.until(() ->
            {
                control.poll((buffer, offset, length, header) -> decoder.decode(buffer, offset, length), 10);
                return heard.confirmEcho != null;
            }, CONNECT, "CONFIRM from node 1");
            assertThat(heard.confirmEcho).as("the CONFIRM echoes our challenge").isEqualTo(ourChallenge);

            // node 1 has confirmed, but it does not know yet that we verified its CONFIRM: no session, nothing sent
            final ActorId recipient = ActorId.of(2, 5, 0);
            final ActorId sender = one.system.register((ctx, envelope) -> { });
            Await.holdsFor(NOT_YET, () -> !one.interconnect.isConnected(2),
                "node 1 does not count the session up before the acceptor sealed anything");

            // the acceptor's first sealed frame (a heartbeat) completes the handshake on node 1
            final SessionKeys keys = SessionKeys.derive(TestCluster.SECRET, config.clusterId(),
                FrameProtection.AUTHENTICATED, 1, oneIncarnation, 2, fakeIncarnation, heard.helloChallenge,
                ourChallenge);
            final FrameSeal.Sealer sealer = new FrameSeal.Sealer(FrameProtection.AUTHENTICATED, keys.sealKey(false),
                keys.sealKeyId(false));
            final FrameSeal.Opener opener = new FrameSeal.Opener(FrameProtection.AUTHENTICATED, keys.openKey(false),
                keys.openKeyId(false));
            final int heartbeat = encoder.encodeHeartbeat(out, 0, 2, fakeIncarnation, System.nanoTime(), 1, 0L, 0L);
            final UnsafeBuffer sealed = new UnsafeBuffer(new byte[4096]);
            assertThat(reply.offer(sealed, 0,
                sealer.seal(FrameSeal.CONTROL, config.controlStreamId(), out, 0, heartbeat, sealed))).isPositive();
            Await.until(() -> one.interconnect.isConnected(2), CONNECT, "node 1 counts the session up");

            // and its envelopes come sealed with the other direction's key, from sequence 1
            ActorSystemSpi.of(one.system).send(
                new Envelope(recipient, sender, TestCluster.TEXT, Envelope.FLAG_TRACK_DELIVERY, 2L, "now",
                null));
            final UnsafeBuffer opened = new UnsafeBuffer(new byte[1 << 16]);
            Await.until(() ->
            {
                data.poll((buffer, offset, length, header) ->
                {
                    final int body = opener.open(FrameSeal.DATA, config.dataStreamId(), buffer, offset, length, opened);
                    assertThat(body).as("the data message opens").isNotNegative();
                    decodePacked(decoder, opened, FrameSeal.HEADER, body);
                }, 10);
                return !heard.envelopes.isEmpty();
            }, CONNECT, "the envelope after the session came up");
            assertThat(heard.envelopes).containsExactly(recipient);
        }
    }

    /** What the scripted acceptor heard from node 1: its HELLO, its CONFIRM's echo, and whom its envelopes were for. */
    private static final class Heard implements FrameHandler
    {
        final List<ActorId> envelopes = new ArrayList<>();
        long helloIncarnation;
        byte[] helloChallenge;
        byte[] confirmEcho;

        @Override
        public void onEnvelope(final EnvelopeFrame frame)
        {
            envelopes.add(frame.recipient());
        }

        @Override
        public void onHandshake(final HandshakeFrame frame)
        {
            if (frame.phase() == HandshakePhase.HELLO)
            {
                helloIncarnation = frame.incarnation();
                helloChallenge = frame.challenge();
            }
            else if (frame.phase() == HandshakePhase.CONFIRM)
            {
                confirmEcho = frame.echo();
            }
        }
    }
}
