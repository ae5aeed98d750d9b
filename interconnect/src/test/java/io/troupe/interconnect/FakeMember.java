package io.troupe.interconnect;

import io.troupe.interconnect.seal.HandshakeAuth;
import io.troupe.interconnect.seal.SessionKeys;
import io.troupe.interconnect.seal.FrameSeal;
import io.aeron.Aeron;
import io.aeron.ChannelUriStringBuilder;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.troupe.serialization.wire.EnvelopeFrame;
import io.troupe.serialization.wire.FrameDecoder;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.serialization.wire.FrameHandler;
import io.troupe.serialization.wire.FrameProtection;
import io.troupe.serialization.wire.Handshake;
import io.troupe.serialization.wire.HandshakeFrame;
import io.troupe.serialization.wire.HandshakePhase;
import io.troupe.serialization.wire.TypeTable;
import io.troupe.testing.Await;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.time.Duration;

/**
 * A malicious member, for tests: a peer played by the test that holds the cluster secret, completes the handshake
 * with a real node as its acceptor (the real node must have the lower id) and then sends whatever frames it likes,
 * sealed with the session's keys, so they pass every check an outsider's cannot. Its own Aeron driver and client;
 * one thread (the test's).
 */
final class FakeMember implements AutoCloseable
{
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final InterconnectConfig config;
    private final int nodeId;
    private final int realId;
    private final long incarnation = 42;
    private final MediaDriver driver;
    private final Aeron aeron;
    private final Subscription control;
    private final ExclusivePublication controlOut;
    private final ExclusivePublication dataOut;
    private final ExclusivePublication bulkOut;
    private final FrameEncoder encoder = new FrameEncoder();
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[1 << 17]);
    private final UnsafeBuffer sealed = new UnsafeBuffer(new byte[(1 << 17) + FrameSeal.OVERHEAD]);
    private FrameSeal.Sealer sealer;
    private long heartbeats;

    /**
     * @param cluster the cluster whose secret and codecs it uses.
     * @param real    the node it talks to (started, with the lower id).
     * @param fake    the node it plays (never started).
     */
    FakeMember(final TestCluster cluster, final TestCluster.Node real, final TestCluster.Node fake)
    {
        this.config = cluster.config(real);
        this.nodeId = fake.id;
        this.realId = real.id;
        final String dir = System.getProperty("java.io.tmpdir") + "/troupe-member-" + System.nanoTime();
        driver = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(dir)
            .threadingMode(ThreadingMode.SHARED).dirDeleteOnStart(true).dirDeleteOnShutdown(true)
            .termBufferSparseFile(true).publicationTermBufferLength(1 << 20).ipcTermBufferLength(64 * 1024));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        final String own = new ChannelUriStringBuilder().media("udp").endpoint("127.0.0.1:" + fake.port).build();
        control = aeron.addSubscription(own, config.controlStreamId());
        controlOut = publication(real, config.controlStreamId(), config.controlTermLength());
        dataOut = publication(real, config.dataStreamId(), config.dataTermLength());
        bulkOut = publication(real, config.bulkStreamId(), config.bulkTermLength());
    }

    /** With the real node's term length: it refuses images of longer terms. */
    private ExclusivePublication publication(final TestCluster.Node real, final int streamId, final int termLength)
    {
        return aeron.addExclusivePublication(new ChannelUriStringBuilder().media("udp")
            .endpoint("127.0.0.1:" + real.port).termLength(termLength).sessionId(777_002).build(), streamId);
    }

    /** Answers the real node's HELLO, takes its CONFIRM, and seals a heartbeat, which puts the session up there. */
    void handshake(final TestCluster cluster)
    {
        final long[] theirIncarnation = {0};
        final byte[][] theirChallenge = {null};
        final boolean[] confirmed = {false};
        final FrameDecoder decoder = new FrameDecoder(new FrameHandler()
        {
            @Override
            public void onEnvelope(final EnvelopeFrame frame)
            {
            }

            @Override
            public void onHandshake(final HandshakeFrame frame)
            {
                if (frame.phase() == HandshakePhase.HELLO)
                {
                    theirIncarnation[0] = frame.incarnation();
                    theirChallenge[0] = frame.challenge();
                }
                else if (frame.phase() == HandshakePhase.CONFIRM)
                {
                    confirmed[0] = true;
                }
            }
        }, 1 << 20);
        Await.until(() ->
        {
            control.poll((buffer, offset, length, header) -> decoder.decode(buffer, offset, length), 10);
            return theirChallenge[0] != null;
        }, WAIT, "HELLO from the real node");
        final HandshakeAuth auth = new HandshakeAuth(TestCluster.SECRET);
        final byte[] ourChallenge = auth.newChallenge();
        final byte[] types = TypeTable.encode(cluster.codecs);
        final byte[] proof = auth.prove(HandshakePhase.WELCOME, config.clusterId(), nodeId, incarnation, realId,
            theirIncarnation[0], theirChallenge[0], types, FrameProtection.AUTHENTICATED);
        Await.until(() -> controlOut.isConnected() && dataOut.isConnected() && bulkOut.isConnected(), WAIT,
            "publications connected");
        final int welcome = encoder.encodeHandshake(out, 0, new Handshake(HandshakePhase.WELCOME, config.clusterId(),
            nodeId, incarnation, realId, theirIncarnation[0], InterconnectConfig.MIN_PROTOCOL_VERSION,
            InterconnectConfig.PROTOCOL_VERSION, ourChallenge, proof, "", types, FrameProtection.AUTHENTICATED,
            theirChallenge[0]));
        offer(controlOut, out, welcome);
        Await.until(() ->
        {
            control.poll((buffer, offset, length, header) -> decoder.decode(buffer, offset, length), 10);
            return confirmed[0];
        }, WAIT, "CONFIRM from the real node");
        final SessionKeys keys = SessionKeys.derive(TestCluster.SECRET, config.clusterId(),
            FrameProtection.AUTHENTICATED, realId, theirIncarnation[0], nodeId, incarnation, theirChallenge[0],
            ourChallenge);
        sealer = new FrameSeal.Sealer(FrameProtection.AUTHENTICATED, keys.sealKey(false), keys.sealKeyId(false));
        heartbeat();
    }

    /** Seals and sends a heartbeat: call it more often than the failure timeout. */
    void heartbeat()
    {
        final int length = encoder.encodeHeartbeat(out, 0, nodeId, incarnation, System.nanoTime(), ++heartbeats, 0L,
            0L);
        sendControl(out, length);
    }

    /** Sends frames on the data stream, packed as the interconnect packs them (each after its int32 length). */
    void sendData(final DirectBuffer frame, final int length)
    {
        final UnsafeBuffer packed = new UnsafeBuffer(new byte[OutboundBatch.LENGTH_PREFIX + length]);
        packed.putInt(0, length, ByteOrder.LITTLE_ENDIAN);
        packed.putBytes(OutboundBatch.LENGTH_PREFIX, frame, 0, length);
        send(FrameSeal.DATA, dataOut, packed, packed.capacity());
    }

    /** Sends one frame as one message on the control stream. */
    void sendControl(final DirectBuffer frame, final int length)
    {
        send(FrameSeal.CONTROL, controlOut, frame, length);
    }

    /** Sends one frame as one message on the bulk stream. */
    void sendBulk(final DirectBuffer frame, final int length)
    {
        send(FrameSeal.BULK, bulkOut, frame, length);
    }

    FrameEncoder encoder()
    {
        return encoder;
    }

    long incarnation()
    {
        return incarnation;
    }

    private void send(final int kind, final ExclusivePublication publication, final DirectBuffer body, final int length)
    {
        final int sealedLength = sealer.seal(kind, publication.streamId(), body, 0, length, sealed);
        offer(publication, sealed, sealedLength);
        sealer.sent(kind);
    }

    private static void offer(final ExclusivePublication publication, final DirectBuffer buffer, final int length)
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        while (publication.offer(buffer, 0, length) < 0)
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException("could not offer on stream " + publication.streamId());
            }
            Thread.onSpinWait();
        }
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(aeron, driver);
    }
}
