package io.troupe.interconnect;

import io.troupe.testing.Await;
import io.troupe.actor.ActorContext;
import io.troupe.actor.ActorId;
import io.troupe.actor.Behavior;
import io.troupe.actor.Envelope;
import io.troupe.actor.CreditAccount;
import io.troupe.actor.FlowControlConfig;
import io.troupe.actor.FundsCleared;
import io.troupe.actor.ShadowAccount;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Credit accounts across nodes, on real Aeron over loopback: a consumer on one node throttles a source on
 * another through the shadow of its account; shadows converge to zero; a lost node's debt is written off.
 */
@Timeout(60)
class CreditAcrossNodesTest
{
    private static final Duration CONNECT = Duration.ofSeconds(30);
    private static final Duration WAIT = Duration.ofSeconds(30);
    /**
     * A failure timeout for a node that must not give a silent peer up before the test has done its sends: far longer
     * than they take, even on a loaded machine.
     */
    private static final Duration PATIENT = Duration.ofSeconds(5);
    /** How long the source is watched for reading on while in debt: the window is what is tested. */
    private static final Duration STOPPED = Duration.ofMillis(200);
    private static final String READ = "read";
    private static final String BLOCK = "block";
    private static final long THRESHOLD = 50;
    private static final int TOTAL = 400;

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
    void aBusyConsumerOnAnotherNodeStopsTheSourceUntilItCatchesUpAndEveryShadowSettlesAtZero() throws Exception
    {
        cluster = TestCluster.of(2).startAll();
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final Gate gate = blockWorker(two);

        // node 2: the consumer fans every event out to two sinks, billed (by default) to the event's account
        final AtomicInteger sunk = new AtomicInteger();
        final ActorId sink = two.system.register((ctx, envelope) -> sunk.incrementAndGet());
        final ActorId consumer = two.system.register((ctx, envelope) ->
        {
            ctx.send(sink, envelope.event());
            ctx.send(sink, envelope.event());
        });
        // node 1: the source's account, and an ingress that reads while its funds are clear
        final CreditAccount account = one.system.flow().openAccount(THRESHOLD);
        final Ingress ingress = new Ingress(account, consumer, TOTAL);
        final ActorId ingressId = one.system.register(ingress);
        one.system.send(ingressId, READ);

        // every event stays on the account from its send: in the outbound queue, on the wire, at node 2; with
        // nothing repaid yet, the source stops exactly at its threshold
        Await.until(() -> ingress.stops.get() > 0, WAIT, "the source stops reading");
        final int sentWhenStopped = ingress.sent;
        assertThat(sentWhenStopped).isEqualTo((int)THRESHOLD);
        assertThat(account.debt()).isEqualTo(THRESHOLD);
        Await.until(() -> one.interconnect.agentCredit().heldBy(2, account.accountId()) == sentWhenStopped, WAIT,
            "every event sent is written to node 2, which answers for it");
        Await.until(() -> two.interconnect.peerCounters().get(0).eventsIn() == sentWhenStopped, WAIT,
            "every event sent has arrived at node 2");
        final ShadowAccount shadow = two.system.flow().shadow(1, account.accountId());
        assertThat(shadow).as("node 2 shadows the account").isNotNull();
        Await.holdsFor(STOPPED, () -> ingress.sent == sentWhenStopped && account.debt() == THRESHOLD,
            "nothing is read while in debt");
        assertThat(shadow.pending()).as("events from the owner are not charged again").isZero();
        assertThat(two.interconnect.agentCredit().heldBy(1, account.accountId())).isZero();

        // node 2 catches up: its repayments and fan-out reach node 1, the source resumes and finishes
        gate.release.countDown();
        Await.until(() -> ingress.sent == TOTAL && sunk.get() == 2 * TOTAL, WAIT, "everything is read and sunk");
        assertThat(ingress.resumes.get()).isGreaterThan(0);
        Await.until(() -> account.debt() == 0 && shadow.pending() == 0, WAIT, "the accounts settle at zero");
        assertThat(one.interconnect.agentCredit().heldBy(2, account.accountId())).isZero();
        assertThat(account.writtenOff()).isZero();
        assertThat(one.system.flow().nodeAccount().debt()).isZero();
        Await.until(() -> two.system.flow().nodeAccount().debt() == 0, WAIT, "node 2's own account settles");
    }

    @Test
    void theDebtOfANodeThatIsLostIsWrittenOffAndItsShadowsAreDropped() throws Exception
    {
        cluster = TestCluster.of(2).startAll();
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final Gate gate = blockWorker(two);
        final ActorId consumer = two.system.register((ctx, envelope) -> { });
        final CreditAccount account = one.system.flow().openAccount(THRESHOLD);
        final Ingress ingress = new Ingress(account, consumer, TOTAL);
        one.system.send(one.system.register(ingress), READ);
        Await.until(() -> ingress.stops.get() > 0, WAIT, "the source stops reading");
        Await.until(() -> one.interconnect.agentCredit().heldBy(2, account.accountId()) == THRESHOLD, WAIT,
            "every event sent is written to node 2, which answers for it");
        final long held = account.debt();
        assertThat(held).isEqualTo(THRESHOLD);

        // node 2 vanishes without a goodbye: node 1 writes its debt off and the source resumes
        two.interconnect.kill();
        Await.until(() -> account.debt() == 0, WAIT, "the lost node's debt is written off");
        assertThat(account.writtenOff()).isEqualTo(held);
        assertThat(one.system.flow().writtenOff()).isEqualTo(held);
        Await.until(() -> ingress.resumes.get() > 0, WAIT, "the source is told to resume");
        gate.release.countDown();
    }

    @Test
    void aNodeDropsItsShadowsOfAnOwnerThatIsLost() throws Exception
    {
        cluster = TestCluster.of(2).startAll();
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final Gate gate = blockWorker(two);
        final ActorId consumer = two.system.register((ctx, envelope) -> { });
        final CreditAccount account = one.system.flow().openAccount(THRESHOLD);
        final Ingress ingress = new Ingress(account, consumer, 10);
        one.system.send(one.system.register(ingress), READ);
        Await.until(() -> two.system.flow().shadowCount() == 1 && account.debt() == 10, WAIT,
            "node 2 shadows node 1's account, which counts what node 2 holds");
        // charged at send is not arrived: a kill of node 1 would lose what its driver had not sent yet
        Await.until(() -> two.interconnect.peerCounters().get(0).eventsIn() == 10, WAIT,
            "all 10 events have arrived at node 2");

        // the owner vanishes: node 2 forgets its shadow; the events still queued repay it to no effect
        one.interconnect.kill();
        Await.until(() -> two.system.flow().shadowCount() == 0, WAIT, "the shadow is dropped");
        gate.release.countDown();
        Await.until(() -> two.system.counters().eventsHandled() >= 11, WAIT, "node 2 handles what it held");
        assertThat(two.system.flow().shadowCount()).isZero();
    }

    @Test
    void anEventSentOnByANodeThatIsNotTheOwnerIsHeldByTheNodeItReached() throws Exception
    {
        cluster = TestCluster.of(3).startAll();
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final TestCluster.Node three = cluster.node(3);
        final Gate gate = blockWorker(three);
        final AtomicInteger sunk = new AtomicInteger();
        final ActorId sink = three.system.register((ctx, envelope) -> sunk.incrementAndGet());
        // node 2 relays to node 3, billed by default to the account the event was charged to
        final ActorId relay =
            two.system.register((ctx, envelope) -> ctx.send(sink, envelope.event(), TestCluster.TEXT, 0, 0L));
        final CreditAccount account = one.system.flow().openAccount(1_000);
        final Ingress ingress = new Ingress(account, relay, 30);
        one.system.send(one.system.register(ingress), READ);

        // node 2 passes each event on and repays its shadow; node 3 charges its own and holds them all
        Await.until(() -> one.interconnect.agentCredit().heldBy(3, account.accountId()) == 30 &&
            one.interconnect.agentCredit().heldBy(2, account.accountId()) == 0 && account.debt() == 30, WAIT,
            "node 1 sees node 3 holding the 30 events");
        assertThat(ingress.sent).isEqualTo(30);

        gate.release.countDown();
        Await.until(() -> sunk.get() == 30 && account.debt() == 0, WAIT, "node 3 handles and repays them");
        Await.until(() -> two.system.flow().shadow(1, account.accountId()).pending() == 0 &&
            three.system.flow().shadow(1, account.accountId()).pending() == 0, WAIT, "the shadows settle at zero");
        assertThat(one.interconnect.agentCredit().heldBy(3, account.accountId())).isZero();
    }

    @Test
    void theOwnersViewLagsAShadowByLessThanTheFlushBoundUntilThePeriodicFlush() throws Exception
    {
        final long bound = 10;
        cluster = TestCluster.of(2);
        cluster.flowControl = () -> new FlowControlConfig().flushBound(bound);
        for (int id = 1; id <= 2; id++)
        {
            final TestCluster.Node node = cluster.node(id);
            cluster.start(node, cluster.config(node).creditFlushInterval(Duration.ofSeconds(1)));
        }
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        // node 2's sink blocks on the first part it gets: the parts stay outstanding
        final Gate sink = new Gate();
        final ActorId sinkId = two.system.register(sink);
        final int fanOut = 25;
        final ActorId fanner = two.system.register((ctx, envelope) ->
        {
            for (int i = 0; i < fanOut; i++)
            {
                ctx.send(sinkId, "part " + i, TestCluster.TEXT, 0, 0L);
            }
        });
        final CreditAccount account = one.system.flow().openAccount(1_000);
        one.system.send(fanner, "whole", TestCluster.TEXT, 0, 0L, account, 1);
        Await.until(() -> sink.entered.getCount() == 0, WAIT, "node 2 fans out and its sink blocks");

        // 25 parts outstanding; node 2's shadow reports what it holds each time its pending delta reaches 10, so once
        // that report is in, the owner's view is off by less than 10 until the periodic flush, a second later (when
        // exactly a report goes out is tested on a clock the test moves: CallerDrivenAgentTest). On a loaded machine
        // the 25 may all be charged before node 2's agent takes the report, and the whole's repayment may come just
        // after it (a delta of -1); node 1's view and node 2's delta are read together, as the periodic flush may
        // come between two reads
        final ShadowAccount shadow = two.system.flow().shadow(1, account.accountId());
        final long[] seenAndPending = new long[2];
        Await.until(() ->
        {
            seenAndPending[1] = shadow.pending();
            seenAndPending[0] = account.debt();
            return Math.abs(seenAndPending[1]) < bound && seenAndPending[0] + seenAndPending[1] == fanOut;
        }, WAIT, () -> "node 2's report at the bound taken (its delta now " + shadow.pending() + ") and applied at " +
            "node 1 (its view now " + account.debt() + ", of " + fanOut + " parts outstanding)");
        assertThat(fanOut - seenAndPending[0]).as("what node 1 does not know of yet")
            .isBetween(-(bound - 1), bound - 1);
        Await.until(() -> account.debt() == fanOut, WAIT, "the periodic flush reports the rest");
        sink.release.countDown();
        Await.until(() -> account.debt() == 0, WAIT, "everything is repaid");
    }

    @Test
    void anEventRefusedForADownPeerIsRepaidAtOnce() throws Exception
    {
        cluster = TestCluster.of(2);
        final TestCluster.Node one = cluster.start(cluster.node(1), cluster.config(cluster.node(1)));
        final CreditAccount account = one.system.flow().openAccount(THRESHOLD);
        for (int i = 0; i < 20; i++)
        {
            one.system.send(ActorId.of(2, 5, 5), "to nobody", TestCluster.TEXT,
                i % 2 == 0 ? Envelope.FLAG_TRACK_DELIVERY : 0, 0L, account, 3);
        }
        assertThat(account.debt()).isZero();
        assertThat(one.interconnect.agentCredit().heldBy(2, account.accountId())).isZero();
    }

    @Test
    void framesStillQueuedWhenASessionDiesAreRepaidAndWhatWasWrittenIsWrittenOff() throws Exception
    {
        cluster = TestCluster.of(2);
        // node 1 gives node 2 up only long after every send below is queued, however slow the machine
        cluster.start(cluster.node(1), cluster.config(cluster.node(1)).failureTimeout(PATIENT));
        cluster.start(cluster.node(2), cluster.config(cluster.node(2)));
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final ActorId consumer = two.system.register((ctx, envelope) -> { });
        final CreditAccount account = one.system.flow().openAccount(Long.MAX_VALUE);

        // node 2 stops reading without a word: Aeron's window to it fills and the rest waits in node 1's queue
        two.interconnect.kill();
        final int total = 20_000;
        final String kilobyte = "x".repeat(1024);
        for (int i = 0; i < total; i++)
        {
            one.system.send(consumer, kilobyte, TestCluster.TEXT, 0, i, account, 1);
        }
        assertThat(account.debt()).as("every event is charged until it is written, refused or dropped").isPositive();

        Await.until(() -> !one.interconnect.isConnected(2), WAIT, "node 1 declares node 2 down");
        Await.until(() -> account.debt() == 0, WAIT, "every charge is settled");
        // each queued frame is counted before it is repaid: once the last charge is settled, every count is in
        final PeerCounters peer = one.interconnect.peerCounters().get(0);
        assertThat(account.writtenOff() + peer.lostQueued() + peer.refusedDown())
            .as("each event written off, dropped from the queue or refused, exactly once: %s + %s",
                account.writtenOff(), peer)
            .isEqualTo(total);
        assertThat(peer.lostQueued()).as("frames were still queued when the session died").isPositive();
        assertThat(account.writtenOff()).as("frames written before the end are written off, the rest repaid")
            .isLessThan(total);
        assertThat(one.interconnect.agentCredit().heldBy(2, account.accountId())).isZero();
    }

    @Test
    void aShadowForgottenWhileEventsChargedToItWaitStillCarriesTheirRepaymentsToTheOwner() throws Exception
    {
        cluster = TestCluster.of(2);
        cluster.flowControl = () -> new FlowControlConfig().shadowIdleTimeout(Duration.ofMillis(20));
        cluster.startAll();
        cluster.awaitConnected(CONNECT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final Gate gate = blockWorker(two);
        final ActorId consumer = two.system.register((ctx, envelope) -> { });
        final CreditAccount account = one.system.flow().openAccount(THRESHOLD);
        for (int i = 0; i < 20; i++)
        {
            one.system.send(consumer, "event " + i, TestCluster.TEXT, 0, i, account, 1);
        }
        Await.until(() -> one.interconnect.agentCredit().heldBy(2, account.accountId()) == 20, WAIT,
            "all 20 written to node 2");
        // (all arrived, so that no later arrival makes the shadow anew after it was forgotten)
        Await.until(() -> two.interconnect.peerCounters().get(0).eventsIn() == 20, WAIT, "all 20 arrived at node 2");

        // nothing changes on node 2's shadow while its worker is blocked: node 2 forgets it
        Await.until(() -> two.system.flow().shadowsForgotten() > 0, WAIT, "node 2 forgets the quiet shadow");
        assertThat(two.system.flow().shadowCount()).isZero();
        assertThat(account.debt()).isEqualTo(20);

        gate.release.countDown();
        Await.until(() -> account.debt() == 0, WAIT, "the repayments reach the owner all the same");
        assertThat(one.interconnect.agentCredit().heldBy(2, account.accountId())).isZero();
        assertThat(account.writtenOff()).isZero();
    }

    /** Blocks a node's only worker with a gate; its actors' events queue up until the gate is released. */
    private static Gate blockWorker(final TestCluster.Node node)
    {
        final Gate gate = new Gate();
        node.system.send(node.system.register(gate), BLOCK);
        Await.until(() -> gate.entered.getCount() == 0, WAIT, "node " + node.id + "'s worker is busy");
        return gate;
    }

    /**
     * Reads up to a total, one event per read, each sent to the consumer charged to the account at cost 1,
     * then reads again; stops while the account is in debt, and resumes on {@link FundsCleared}.
     */
    private static final class Ingress implements Behavior
    {
        final AtomicInteger stops = new AtomicInteger();
        final AtomicInteger resumes = new AtomicInteger();
        final BlockingQueue<String> log = new LinkedBlockingQueue<>();
        private final CreditAccount account;
        private final ActorId consumer;
        private final int total;
        volatile int sent;

        Ingress(final CreditAccount account, final ActorId consumer, final int total)
        {
            this.account = account;
            this.consumer = consumer;
            this.total = total;
        }

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            if (envelope.event() instanceof FundsCleared)
            {
                resumes.incrementAndGet();
            }
            if (sent == total)
            {
                return;
            }
            if (!ctx.ensureClearFunds(account))
            {
                stops.incrementAndGet();
                return;
            }
            ctx.send(consumer, "event " + sent, TestCluster.TEXT, 0, 0L, account, 1);
            sent++;
            // read again: a poll of our own, which costs nothing
            ctx.send(ctx.self(), READ, 0, 0, 0L, ctx.system().flow().nodeAccount(), 0);
        }
    }

    /** Blocks its worker on the first event until released. */
    private static final class Gate implements Behavior
    {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            entered.countDown();
            try
            {
                release.await();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
