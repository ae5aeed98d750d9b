package io.troupe.interconnect;

import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.NodeConnected;
import io.troupe.actor.NodeDisconnected;
import io.troupe.actor.PoolConfig;
import io.troupe.actor.ServiceId;
import io.troupe.actor.ShadowAccount;
import io.troupe.testing.Await;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The interconnect agent one duty cycle at a time, on clocks the test moves: acks and the heartbeat timeout
 * happen exactly at the clock times the settings say, and handshakes and reconnection within a bounded number
 * of cycles, with no sleeping. Real Aeron on 127.0.0.1; each node's media driver runs inside its agent's duty
 * cycle, so nothing runs between cycles (the drivers keep real time for their own setup and status frames,
 * which is why a handshake takes a varying number of cycles).
 */
class CallerDrivenAgentTest
{
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Rounds a step may take: far more than it needs (tens), far fewer than a hang would spin. */
    private static final int MAX_ROUNDS = 100_000;

    private final TestCluster cluster = TestCluster.of(2);
    private final CachedNanoClock clockOne = new CachedNanoClock();
    private final CachedNanoClock clockTwo = new CachedNanoClock();
    private final BlockingQueue<Object> sessionsAtOne = new LinkedBlockingQueue<>();
    private ActorSystem systemOne;
    private ActorSystem systemTwo;
    private Interconnect one;
    private Interconnect two;
    private long heartbeatNs;
    private long failureNs;
    private long ackNs;

    @BeforeEach
    void start()
    {
        clockOne.update(1_000 * MS);
        clockTwo.update(7_000 * MS); // the two clocks need not agree
        systemOne = system(1);
        systemTwo = system(2);
        final InterconnectConfig configOne = cluster.config(cluster.node(1));
        heartbeatNs = configOne.heartbeatInterval().toNanos();
        failureNs = configOne.failureTimeout().toNanos();
        ackNs = configOne.ackInterval().toNanos();
        one = Interconnect.startCallerDriven(systemOne, configOne, TestCluster.CODECS, clockOne);
        two = Interconnect.startCallerDriven(systemTwo, cluster.config(cluster.node(2)), TestCluster.CODECS, clockTwo);
        systemOne.send(systemOne.register((ctx, envelope) ->
        {
            if ("watch".equals(envelope.event()))
            {
                ctx.subscribeToNode(2);
            }
            else
            {
                sessionsAtOne.add(envelope.event());
            }
        }), "watch");
        // the subscription is a command node 1's agent takes in a duty cycle: drive it until it has (the state then,
        // no session yet), or a test whose rounds end quickly would wait for notices no cycle will ever send
        Await.until(() ->
        {
            one.dutyCycle();
            return !sessionsAtOne.isEmpty();
        }, "node 1's agent to take the subscription");
        assertThat(sessionsAtOne.poll()).isEqualTo(new NodeDisconnected(2));
    }

    @AfterEach
    void stop()
    {
        for (final AutoCloseable closeable : new AutoCloseable[] {one, two, systemOne, systemTwo})
        {
            try
            {
                if (closeable != null)
                {
                    closeable.close();
                }
            }
            catch (final Exception ignore)
            {
                // best effort: the next test starts fresh nodes on fresh ports
            }
        }
    }

    private static ActorSystem system(final int nodeId)
    {
        return ActorSystem.start(new ActorSystemConfig().nodeId(nodeId).threadNamePrefix("driven-" + nodeId + "-")
            .pool(PoolConfig.named("default").threads(1)));
    }

    /** Runs a duty cycle of each node, advancing both clocks by a step, until the condition holds. */
    private void rounds(final BooleanSupplier condition, final long stepNs, final boolean driveTwo)
    {
        for (int round = 1; round <= MAX_ROUNDS; round++)
        {
            clockOne.advance(stepNs);
            one.dutyCycle();
            if (driveTwo)
            {
                clockTwo.advance(stepNs);
                two.dutyCycle();
            }
            if (condition.getAsBoolean())
            {
                return;
            }
        }
        throw new AssertionError("not reached in " + MAX_ROUNDS + " rounds");
    }

    /** Runs both nodes until their session is up, and checks that node 1's subscriber heard it. */
    private void handshake()
    {
        // how many rounds depends on the media drivers, which keep real time (setup and status frames)
        rounds(() -> one.isConnected(2) && two.isConnected(1), MS, true);
        expectUp();
    }

    /** The next session event at node 1 is node 2 up (after the state at subscription, if that was down). */
    private void expectUp()
    {
        Object sighting = Await.next(sessionsAtOne);
        if (sighting.equals(new NodeDisconnected(2)))
        {
            sighting = Await.next(sessionsAtOne); // the state when the subscription took effect: not up yet
        }
        assertThat(sighting).isEqualTo(new NodeConnected(2));
    }

    @Test
    void theHandshakeCompletesInDutyCyclesAndTheSessionIsAnnounced()
    {
        handshake();
        assertThat(one.peerState(2).state()).isEqualTo(PeerSession.State.ESTABLISHED);
    }

    @Test
    void aShadowsChargesAtTheBoundAreReportedAtOnceItsRepaymentsAQuarterPeriodAfterTheLastReport()
    {
        handshake();
        final long periodNs = cluster.config(cluster.node(2)).creditFlushInterval().toNanos();
        final RemoteCredit credit = two.agentCredit();
        final long bound = systemTwo.flow().flushBound();
        final ShadowAccount shadow = (ShadowAccount)systemTwo.flow().resolve(1, 42L);
        final long before = credit.framesSent;

        shadow.charge(bound);
        two.dutyCycle(); // the clock stands still
        assertThat(credit.framesSent).as("charges at the bound: reported in the next cycle").isEqualTo(before + 1);
        assertThat(shadow.pending()).isZero();

        shadow.repay(bound);
        for (int i = 0; i < 20; i++)
        {
            two.dutyCycle();
        }
        clockTwo.advance(periodNs / 4 - 1);
        two.dutyCycle();
        assertThat(credit.framesSent).as("repayments at the bound wait a quarter period after the last report")
            .isEqualTo(before + 1);
        assertThat(shadow.pending()).isEqualTo(-bound);
        clockTwo.advance(1);
        two.dutyCycle();
        assertThat(credit.framesSent).as("then go in one frame, long before the period").isEqualTo(before + 2);
        assertThat(shadow.pending()).isZero();
    }

    @Test
    void anEventIsAcknowledgedAtTheNextAckTickOfTheReceiversClockNotBefore()
    {
        handshake();
        // let acks of the handshake traffic settle
        rounds(() -> one.peerState(2).dataAcked == one.peerState(2).dataSent, MS, true);
        final long ackedBefore = one.peerState(2).dataAcked;
        systemOne.send(ServiceId.of(2, "nobody"), "hello", TestCluster.TEXT, 0, 0L);
        rounds(() -> two.peerCounters().get(0).eventsIn() == 1, 0, true);
        // the receiver's clock has not moved: it acknowledges nothing until its next ack tick
        for (int i = 0; i < 50; i++)
        {
            one.dutyCycle();
            two.dutyCycle();
        }
        assertThat(one.peerState(2).dataAcked).as("no ack before the receiver's ack interval passes")
            .isEqualTo(ackedBefore);
        clockTwo.advance(ackNs);
        rounds(() -> one.peerState(2).dataAcked == one.peerState(2).dataSent, 0, true);
        assertThat(one.peerState(2).dataAcked).isGreaterThan(ackedBefore);
    }

    @Test
    void aSilentPeerIsDownOnceTheFailureTimeoutHasPassedOnTheClockAndNotBefore()
    {
        handshake();
        // node 2 stops: its last frames arrive, then silence from the clock time silentFromNs
        for (int i = 0; i < 50; i++)
        {
            one.dutyCycle();
        }
        final long silentFromNs = clockOne.nanoTime();
        clockOne.advance(failureNs - heartbeatNs);
        for (int i = 0; i < 50; i++)
        {
            one.dutyCycle();
        }
        assertThat(one.isConnected(2)).as("still up %d ms into the silence", (clockOne.nanoTime() - silentFromNs) / MS)
            .isTrue();
        clockOne.advance(heartbeatNs + MS);
        one.dutyCycle();
        assertThat(one.isConnected(2)).as("down once the failure timeout has passed").isFalse();
        assertThat(Await.next(sessionsAtOne)).isEqualTo(new NodeDisconnected(2));
    }

    @Test
    void aPeerDeclaredDownReconnectsOnceBothRunAgain()
    {
        handshake();
        clockOne.advance(failureNs + heartbeatNs);
        one.dutyCycle();
        assertThat(one.isConnected(2)).isFalse();
        assertThat(Await.next(sessionsAtOne)).isEqualTo(new NodeDisconnected(2));

        // node 2 runs again: it too finds node 1 silent, and the two start a new session
        rounds(() -> one.isConnected(2) && two.isConnected(1), 10 * MS, true);
        assertThat(Await.next(sessionsAtOne)).isEqualTo(new NodeConnected(2));
        assertThat(one.peerCounters().get(0).sessionsUp()).isEqualTo(2);
    }

    @Test
    void aNodeThatStoodStillLongerThanTheFailureTimeoutEndsItsSessionsBeforeReadingWhatWaited()
    {
        handshake();
        // node 1 stands still (a paused process) while node 2 runs on: node 2 keeps sending heartbeats until its
        // detector gives node 1 up; those heartbeats wait for node 1 to read them
        for (long ranNs = 0; ranNs <= failureNs + 10 * MS; ranNs += 10 * MS)
        {
            clockTwo.advance(10 * MS);
            two.dutyCycle();
        }
        assertThat(two.isConnected(1)).as("node 2 gave node 1 up").isFalse();
        clockOne.advance(failureNs + 10 * MS);
        one.dutyCycle();
        assertThat(one.isConnected(2)).as("node 1 ends its side at once, not kept up by the heartbeats that waited")
            .isFalse();
        assertThat(Await.next(sessionsAtOne)).isEqualTo(new NodeDisconnected(2));

        rounds(() -> one.isConnected(2) && two.isConnected(1), 10 * MS, true);
        assertThat(Await.next(sessionsAtOne)).isEqualTo(new NodeConnected(2));
    }
}
