package io.troupe.interconnect;

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
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The start of a session, against a scripted acceptor: the initiator counts the session up on WELCOME, but
 * the acceptor takes envelopes only once it has processed the CONFIRM, and the two travel on different
 * streams. So the initiator must hold its envelopes until it hears the acceptor on the control stream after
 * the WELCOME: otherwise a data frame can overtake the CONFIRM, be dropped, and later be covered by the
 * acceptor's cumulative ack, lost without an Undelivered.
 */
@Timeout(60)
class SessionStartTest
{
    private static final Duration CONNECT = Duration.ofSeconds(10);
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
    private static void decodePacked(final FrameDecoder decoder, final org.agrona.DirectBuffer buffer, final int offset,
        final int length)
    {
        final org.agrona.concurrent.UnsafeBuffer expanded = new org.agrona.concurrent.UnsafeBuffer(new byte[65536]);
        int at = offset;
        int baseAt = -1;
        while (at < offset + length)
        {
            final int entry = buffer.getInt(at, java.nio.ByteOrder.LITTLE_ENDIAN);
            final int frameLength = entry & ~OutboundBatch.COMPACT_FLAG;
            at += OutboundBatch.LENGTH_PREFIX;
            if ((entry & OutboundBatch.COMPACT_FLAG) != 0)
            {
                decoder.decode(expanded, 0,
                    io.troupe.serialization.wire.EnvelopeCompaction.expand(buffer, baseAt, buffer, at, frameLength, expanded));
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
    void theInitiatorHoldsEnvelopesUntilTheAcceptorConfirmedTheSession() throws Exception
    {
        cluster = TestCluster.of(2);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node fake = cluster.node(2); // played by this test, never started
        final InterconnectConfig config = cluster.config(one);
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
                .endpoint("127.0.0.1:" + one.port).termLength(64 * 1024).sessionId(777_001).build(), config.controlStreamId());

            final long[] helloIncarnation = {0};
            final byte[][] helloChallenge = {null};
            final List<ActorId> envelopes = new ArrayList<>();
            final FrameDecoder decoder = new FrameDecoder(new FrameHandler()
            {
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
                        helloIncarnation[0] = frame.incarnation();
                        helloChallenge[0] = frame.challenge();
                    }
                }
            }, 1 << 20);
            final HandshakeAuth auth = new HandshakeAuth(TestCluster.SECRET);
            final long fakeIncarnation = 42;

            // node 1 initiates: wait for its HELLO, answer with a valid WELCOME
            Await.until(() ->
            {
                control.poll((buffer, offset, length, header) -> decoder.decode(buffer, offset, length), 10);
                return helloChallenge[0] != null;
            }, CONNECT, "HELLO from node 1");
            final long oneIncarnation = helloIncarnation[0];
            final byte[] proof = auth.prove(HandshakePhase.WELCOME, config.clusterId(), 2, fakeIncarnation, 1,
                oneIncarnation, helloChallenge[0]);
            final FrameEncoder encoder = new FrameEncoder();
            final UnsafeBuffer out = new UnsafeBuffer(new byte[4096]);
            Await.until(reply::isConnected, CONNECT, "reply publication connected");
            final int welcome = encoder.encodeHandshake(out, 0, new Handshake(HandshakePhase.WELCOME, config.clusterId(),
                2, fakeIncarnation, 1, oneIncarnation, InterconnectConfig.MIN_PROTOCOL_VERSION,
                InterconnectConfig.PROTOCOL_VERSION, auth.newChallenge(), proof, ""));
            assertThat(reply.offer(out, 0, welcome)).isPositive();
            Await.until(() -> one.interconnect.isConnected(2), CONNECT, "node 1 counts the session up");

            // node 1 sends at once; the acceptor has not confirmed yet, so nothing may reach its data stream
            final ActorId recipient = ActorId.of(2, 5, 0);
            final ActorId sender = one.system.register((ctx, envelope) -> { });
            one.system.send(new Envelope(recipient, sender, TestCluster.TEXT, Envelope.FLAG_TRACK_DELIVERY, 1L, "early",
                null));
            final long quietUntil = System.nanoTime() + 300_000_000L;
            while (System.nanoTime() - quietUntil < 0)
            {
                data.poll((buffer, offset, length, header) -> decodePacked(decoder, buffer, offset, length), 10);
                Thread.sleep(1);
            }
            assertThat(envelopes).as("envelopes before the acceptor confirmed").isEmpty();

            // the acceptor's first control frame after the WELCOME (a heartbeat) confirms the session
            final int heartbeat = encoder.encodeHeartbeat(out, 0, 2, fakeIncarnation, System.nanoTime(), 1, 0L, 0L);
            assertThat(reply.offer(out, 0, heartbeat)).isPositive();
            Await.until(() ->
            {
                data.poll((buffer, offset, length, header) -> decodePacked(decoder, buffer, offset, length), 10);
                return !envelopes.isEmpty();
            }, CONNECT, "the held envelope after the confirmation");
            assertThat(envelopes).containsExactly(recipient);
        }
    }
}
