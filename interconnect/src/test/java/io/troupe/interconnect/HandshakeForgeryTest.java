package io.troupe.interconnect;

import io.troupe.actor.spi.ActorSystemSpi;
import io.troupe.interconnect.seal.HandshakeAuth;
import io.aeron.Publication;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.serialization.wire.FrameEncoder;
import io.troupe.serialization.wire.FrameProtection;
import io.troupe.serialization.wire.Handshake;
import io.troupe.serialization.wire.HandshakePhase;
import io.troupe.testing.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Handshake steps from someone else than the node they claim to come from, sent from an Aeron publication of
 * their own to the nodes' control streams: forged HELLOs (no secret, so a wrong proof), REFUSEs (which carry no
 * proof at all), stale WELCOMEs and CONFIRMs, and valid HELLOs replayed or made by a member that knows the secret.
 * None of them ends or blocks a session; each is counted; valid HELLOs are answered at a bounded rate.
 */
@Timeout(90)
class HandshakeForgeryTest
{
    private static final Duration CONNECT = Duration.ofSeconds(15);

    @AutoClose
    private final TestCluster cluster = TestCluster.of(2);
    private final Random random = new Random(18);
    private final FrameEncoder encoder = new FrameEncoder();
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8192]);
    @AutoClose
    private RogueAeron rogue;

    @Test
    void forgedHellosRefusesAndStaleStepsLeaveAnEstablishedSessionAlone() throws Exception
    {
        cluster.startAll().awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final String clusterId = cluster.config(one).clusterId();
        final Publication toTwo = rogue(two.port);
        final Publication toOne = rogue(one.port);

        for (int i = 0; i < 200; i++)
        {
            // to the acceptor, as node 1: its current incarnation (seen on the wire), a made-up proof
            offer(toTwo, step(HandshakePhase.HELLO, clusterId, 1, one.interconnect.incarnation(), 2, 0L, bytes(32),
                bytes(32), bytes(0)));
            // to the initiator, as node 2: a refusal, and a WELCOME and a CONFIRM answering nothing of its
            offer(toOne, step(HandshakePhase.REFUSE, clusterId, 2, two.interconnect.incarnation(), 1, 0L, bytes(0),
                bytes(0), bytes(0)));
            offer(toOne, step(HandshakePhase.WELCOME, clusterId, 2, two.interconnect.incarnation(), 1,
                one.interconnect.incarnation(), bytes(32), bytes(32), bytes(32)));
            offer(toTwo, step(HandshakePhase.CONFIRM, clusterId, 1, one.interconnect.incarnation(), 2,
                two.interconnect.incarnation(), bytes(0), bytes(32), bytes(32)));
        }
        Await.until(() -> two.interconnect.counters().rejectedFrames(FrameRejection.BAD_PROOF) >= 200 &&
            one.interconnect.counters().rejectedFrames(FrameRejection.REFUSE_RECEIVED) >= 200 &&
            one.interconnect.counters().rejectedFrames(FrameRejection.STALE_HANDSHAKE) >= 200 &&
            two.interconnect.counters().rejectedFrames(FrameRejection.STALE_HANDSHAKE) >= 200, CONNECT,
            "every forged step counted");

        assertThat(one.interconnect.isConnected(2)).isTrue();
        assertThat(two.interconnect.isConnected(1)).isTrue();
        assertThat(one.interconnect.peerCounters().get(0).sessionsDown()).isZero();
        assertThat(two.interconnect.peerCounters().get(0).sessionsDown()).isZero();
        assertRoundTrip(one, two);
    }

    @Test
    void validHellosFromAMemberAreAnsweredAtABoundedRateAndNeverEndTheSession() throws Exception
    {
        cluster.startAll().awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final String clusterId = cluster.config(one).clusterId();
        rogue = new RogueAeron();
        final Publication toTwo = rogue.member(two.port, cluster.config(two)); // it publishes as a member does
        final HandshakeAuth auth = new HandshakeAuth(TestCluster.SECRET); // a member: it knows the secret

        final long newer = one.interconnect.incarnation() + 1; // as if node 1 had restarted
        for (int i = 0; i < 100; i++)
        {
            final byte[] challenge = auth.newChallenge();
            offer(toTwo, step(HandshakePhase.HELLO, clusterId, 1, newer, 2, 0L, challenge,
                auth.prove(HandshakePhase.HELLO, clusterId, 1, newer, 2, 0L, challenge, new byte[0],
                    FrameProtection.AUTHENTICATED), new byte[0]));
        }
        // a burst of 8 is answered, then one per 50 ms: most of a quick hundred are not
        Await.until(() -> two.interconnect.counters().rejectedFrames(FrameRejection.HELLO_RATE_LIMITED) >= 50, CONNECT,
            "HELLOs beyond the rate dropped");
        // an older incarnation's HELLO is stale, however valid
        final byte[] challenge = auth.newChallenge();
        final long older = one.interconnect.incarnation() - 1;
        offer(toTwo, step(HandshakePhase.HELLO, clusterId, 1, older, 2, 0L, challenge,
            auth.prove(HandshakePhase.HELLO, clusterId, 1, older, 2, 0L, challenge, new byte[0],
                FrameProtection.AUTHENTICATED), new byte[0]));
        Await.until(() -> two.interconnect.counters().rejectedFrames(FrameRejection.STALE_HANDSHAKE) >= 1, CONNECT,
            "the older incarnation's HELLO ignored");

        // the answered ones started attempts that nobody completes (the real node 1 ignores their WELCOMEs); the
        // session they would replace is still there
        Await.until(() -> one.interconnect.counters().rejectedFrames(FrameRejection.STALE_HANDSHAKE) >= 1, CONNECT,
            "node 1 ignoring the WELCOMEs it never asked for");
        assertThat(two.interconnect.isConnected(1)).isTrue();
        assertThat(two.interconnect.peerCounters().get(0).sessionsDown()).isZero();
        assertRoundTrip(one, two);
    }

    @Test
    void aSessionFormsWhileForgedHellosAndRefusesFlood() throws Exception
    {
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        cluster.start(two, cluster.config(two));
        final String clusterId = cluster.config(one).clusterId();
        final Publication toTwo = rogue(two.port);
        final Publication toOne = rogue(one.port);
        final AtomicBoolean flooding = new AtomicBoolean(true);
        final Thread flood = new Thread(() ->
        {
            final UnsafeBuffer local = new UnsafeBuffer(new byte[8192]);
            final FrameEncoder localEncoder = new FrameEncoder();
            final Random localRandom = new Random(7);
            while (flooding.get())
            {
                final byte[] noise = new byte[32];
                localRandom.nextBytes(noise);
                int length = localEncoder.encodeHandshake(local, 0, new Handshake(HandshakePhase.HELLO, clusterId, 1,
                    localRandom.nextLong() & Long.MAX_VALUE, 2, 0L, InterconnectConfig.MIN_PROTOCOL_VERSION,
                    InterconnectConfig.PROTOCOL_VERSION, noise, noise, "", new byte[0], FrameProtection.AUTHENTICATED,
                    new byte[0]));
                toTwo.offer(local, 0, length);
                length = localEncoder.encodeHandshake(local, 0, new Handshake(HandshakePhase.REFUSE, clusterId, 2,
                    1L, 1, 0L, InterconnectConfig.MIN_PROTOCOL_VERSION, InterconnectConfig.PROTOCOL_VERSION,
                    new byte[0], new byte[0], "go away", new byte[0], FrameProtection.AUTHENTICATED, new byte[0]));
                toOne.offer(local, 0, length);
                LockSupportPause.pause();
            }
        }, "forger");
        flood.setDaemon(true);
        flood.start();
        try
        {
            Await.until(() -> two.interconnect.counters().rejectedFrames(FrameRejection.BAD_PROOF) >= 20, CONNECT,
                "the flood reaching node 2");
            cluster.start(one, cluster.config(one));
            cluster.awaitConnected(CONNECT);
            Await.until(() -> one.interconnect.counters().rejectedFrames(FrameRejection.REFUSE_RECEIVED) >= 20, CONNECT,
                "the flood reaching node 1");
            assertThat(two.interconnect.counters().rejectedFrames(FrameRejection.HELLO_RATE_LIMITED)).as("forged " +
                "HELLOs use up none of the genuine node's budget").isZero();
            assertRoundTrip(one, two);
        }
        finally
        {
            flooding.set(false);
            flood.join(5_000);
        }
    }

    /** About one step every 100 microseconds per kind: a flood, without taking a core from the nodes. */
    private static final class LockSupportPause
    {
        static void pause()
        {
            LockSupport.parkNanos(100_000);
        }
    }

    private void assertRoundTrip(final TestCluster.Node one, final TestCluster.Node two) throws InterruptedException
    {
        final BlockingQueue<Object> received = new LinkedBlockingQueue<>();
        final ActorId sink = two.system.register((ctx, envelope) -> received.add(envelope.event()));
        ActorSystemSpi.of(one.system).send(
            new Envelope(sink, ActorId.NONE, TestCluster.TEXT, 0, 0L, "still fine", null));
        assertThat(received.poll(10, TimeUnit.SECONDS)).isEqualTo("still fine");
    }

    private Publication rogue(final int port)
    {
        if (rogue == null)
        {
            rogue = new RogueAeron();
        }
        return rogue.publication(port, cluster.config(cluster.node(1)).controlStreamId(), 64 * 1024);
    }

    private int step(
        final HandshakePhase phase,
        final String clusterId,
        final int nodeId,
        final long incarnation,
        final int peerNodeId,
        final long peerIncarnation,
        final byte[] challenge,
        final byte[] proof,
        final byte[] echo)
    {
        return encoder.encodeHandshake(buffer, 0, new Handshake(phase, clusterId, nodeId, incarnation, peerNodeId,
            peerIncarnation, InterconnectConfig.MIN_PROTOCOL_VERSION, InterconnectConfig.PROTOCOL_VERSION, challenge,
            proof, phase == HandshakePhase.REFUSE ? "forged refusal" : "", new byte[0], FrameProtection.AUTHENTICATED,
            echo));
    }

    private void offer(final Publication publication, final int length)
    {
        Await.until(() -> publication.offer(buffer, 0, length) > 0, CONNECT, "the forger's offer taken");
    }

    private byte[] bytes(final int length)
    {
        final byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }
}
