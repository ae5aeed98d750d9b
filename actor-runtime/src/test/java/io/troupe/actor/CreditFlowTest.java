package io.troupe.actor;

import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static io.troupe.actor.TestActors.USER_TYPE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Credit accounts on one node: fan-out billed to the source, ensureClearFunds and FundsCleared, and repayment,
 * exactly once, on every way an event can end.
 */
@Timeout(60)
class CreditFlowTest
{
    private static final int NODE = 21;
    private static final String READ = "read";
    private static final String BLOCK = "block";
    /** How long the debt must stay at 0 once it got there: a cost repaid twice would take it below. */
    private static final Duration SETTLED_WINDOW = Duration.ofMillis(50);
    /** How long a handler stays stuck once shutdown has begun: well past that shutdown's 20 ms drain deadline. */
    private static final Duration STUCK_PAST_THE_DEADLINE = Duration.ofMillis(100);

    private ActorSystem system;

    @AfterEach
    void tearDown()
    {
        if (system != null)
        {
            system.close();
        }
    }

    private void start(final FlowControlConfig flow)
    {
        system = ActorSystem.start(TestActors.config(NODE)
            .pool(PoolConfig.named("main").threads(2))
            .pool(PoolConfig.named("dataspace").threads(1))
            .pool(PoolConfig.named("peers").threads(1))
            .flowControl(flow)
            .deadLetterHandler(new TestActors.DeadLetters()));
    }

    /**
     * The seed's example: A reads publications and forwards each to D at cost 1; D fans each out to nine busy
     * peers. A's account shows +1 -1 +9 = 9 outstanding; over its threshold of 5, A stops reading; as the peers
     * finish, the debt falls, A is told and resumes.
     */
    @Test
    void fanOutIsBilledToTheSourceWhichStopsAndResumesAsThePeersFinish() throws Exception
    {
        start(new FlowControlConfig());
        final CreditAccount account = system.flow().openAccount(5);
        final Gate dataspacePool = new Gate();
        final Gate peersPool = new Gate();
        system.send(system.register(dataspacePool, system.poolId("dataspace"), MailboxType.SIMPLE),
            BLOCK);
        system.send(system.register(peersPool, system.poolId("peers"), MailboxType.SIMPLE), BLOCK);
        Await.latch(dataspacePool.entered, "the dataspace pool is busy");
        Await.latch(peersPool.entered, "the peers' pool is busy");

        final AtomicInteger peersHandled = new AtomicInteger();
        final ActorId[] peers = new ActorId[9];
        for (int i = 0; i < peers.length; i++)
        {
            peers[i] = system.register((ctx, envelope) -> peersHandled.incrementAndGet(), system.poolId("peers"),
                MailboxType.SIMPLE);
        }
        final ActorId dataspace = system.register((ctx, envelope) ->
        {
            for (final ActorId peer : peers)
            {
                ctx.send(peer, envelope.event(), USER_TYPE, 0, 0L); // charged to the account M was charged to
            }
        }, system.poolId("dataspace"), MailboxType.SIMPLE);
        final Ingress ingress = new Ingress(account, dataspace);
        final ActorId a = system.register(ingress);

        // A reads M and forwards it to D: +1
        system.send(a, READ);
        assertThat(Await.next(ingress.log)).isEqualTo("forwarded, debt 1");
        assertThat(account.debt()).isEqualTo(1);

        // D handles M (-1) and sends M' to O1..O9 (+9)
        dataspacePool.release.countDown();
        Await.until(() -> account.debt() == 9, "D's fan-out is billed to A's account");
        assertThat(peersHandled.get()).isZero();

        // next time round A's loop it finds the debt over its threshold and stops reading
        system.send(a, READ);
        assertThat(Await.next(ingress.log)).isEqualTo("stopped, debt 9");
        assertThat(account.isClear()).isFalse();
        assertThat(account.waits()).isEqualTo(1);

        // the peers get round to M': each repays 1; below 5, A is told and resumes
        peersPool.release.countDown();
        final String resumed = Await.next(ingress.log);
        assertThat(resumed).startsWith("resumed, debt ");
        assertThat(Long.parseLong(resumed.substring("resumed, debt ".length()))).isLessThan(5);
        Await.until(() -> peersHandled.get() == 9 && account.debt() == 0, "every M' is handled and repaid");
        assertThat(account.clearedNotices()).isEqualTo(1);
        assertThat(system.flow().clearedNotices()).isEqualTo(1);
    }

    @Test
    void aClearAccountLetsTheIngressReadAtOnceAndAWaiterIsToldOnceHoweverOftenItAsks() throws Exception
    {
        start(new FlowControlConfig());
        final CreditAccount account = system.flow().openAccount(2);
        final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        final AtomicReference<Boolean> clear = new AtomicReference<>();
        final ActorId waiter = system.register((ctx, envelope) ->
        {
            if (READ.equals(envelope.event()))
            {
                clear.set(ctx.ensureClearFunds(account));
                events.add(clear.get());
            }
            else
            {
                events.add(envelope.event());
            }
        });
        system.send(waiter, READ);
        assertThat(Await.next(events)).isEqualTo(true);

        account.charge(3);
        system.send(waiter, READ);
        system.send(waiter, READ);
        assertThat(Await.next(events)).isEqualTo(false);
        assertThat(Await.next(events)).isEqualTo(false);
        account.repay(1); // 2: still not below the threshold
        TestActors.assertNothingArrives(events, Duration.ofMillis(50));
        account.repay(1);
        assertThat(Await.next(events)).isEqualTo(new FundsCleared(account.accountId(), 1));
        TestActors.assertNothingArrives(events, Duration.ofMillis(50));

        // raising the threshold clears a waiter too
        account.charge(5);
        system.send(waiter, READ);
        assertThat(Await.next(events)).isEqualTo(false);
        account.threshold(100);
        assertThat(Await.next(events)).isEqualTo(new FundsCleared(account.accountId(), 6));
        account.repay(6);
        assertThat(account.debt()).isZero();
        assertThatThrownBy(() -> account.threshold(0)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("credit account threshold must be 1 or more, was 0");
    }

    @Test
    void sendsFromOutsideAndFromUnchargedEventsGoToTheNodesAccountUnlessAnotherIsChosen() throws Exception
    {
        final int heavy = EventTypes.typeId(EventTypes.SPACE_USER_FIRST, 99);
        start(new FlowControlConfig().typeCost(heavy, 7));
        final CreditAccount nodeAccount = system.flow().nodeAccount();
        final CreditAccount source = system.flow().openAccount();
        final CreditAccount other = system.flow().openAccount();
        final Gate sink = new Gate();
        final ActorId sinkId = system.register(sink);
        system.send(sinkId, BLOCK);
        Await.latch(sink.entered, "the sink blocks");
        assertThat(nodeAccount.debt()).as("the blocked event is still outstanding").isEqualTo(1);

        final List<Chargeable> defaults = new CopyOnWriteArrayList<>();
        final ActorId relay = system.register((ctx, envelope) ->
        {
            defaults.add(ctx.account());
            if ("choose".equals(envelope.event()))
            {
                ctx.chargeTo(other);
                defaults.add(ctx.account());
            }
            ctx.send(sinkId, "relayed");                                      // the default account, cost 1
            ctx.send(sinkId, "heavy", heavy, 0, 0L);                           // the type's cost, 7
            ctx.send(sinkId, "explicit", USER_TYPE, 0, 0L, source, 3);         // given account and cost
        });
        // from outside, with no account: the node's account
        system.send(relay, "plain");
        // charges are plain stores to per-thread stripes: another thread sees them shortly, not at once
        Await.until(() -> defaults.size() == 1 && nodeAccount.debt() == 9 && source.debt() == 3,
            "the relay's sends are charged");
        assertThat(defaults).containsExactly(nodeAccount);
        assertThat(nodeAccount.debt()).isEqualTo(1 + 1 + 7);
        assertThat(source.debt()).isEqualTo(3);

        // from outside, charged to the source: the relay's sends are billed to the source
        system.send(relay, "sourced", USER_TYPE, 0, 0L, source, 2);
        Await.until(() -> defaults.size() == 2 && source.debt() == 14, "the relay's sends are charged");
        assertThat(defaults).containsExactly(nodeAccount, source);
        assertThat(source.debt()).isEqualTo(3 + 1 + 7 + 3);

        // chargeTo: the rest of the handler bills another account
        system.send(relay, "choose", USER_TYPE, 0, 0L, source, 1);
        Await.until(() -> defaults.size() == 4 && other.debt() == 8, "the relay's sends are charged");
        assertThat(defaults).containsExactly(nodeAccount, source, source, other);
        assertThat(other.debt()).isEqualTo(1 + 7);
        assertThat(source.debt()).isEqualTo(14 + 3);

        sink.release.countDown();
        Await.until(() -> nodeAccount.debt() == 0 && source.debt() == 0 && other.debt() == 0, "everything is repaid");
        assertThatThrownBy(() -> system.send(relay, "x", USER_TYPE, 0, 0L, source, -1))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("envelope cost must be 0 or more, was -1");
    }

    @Test
    void everyWayAnEventCanEndRepaysItsCostExactlyOnce() throws Exception
    {
        final TestActors.Failures failures = new TestActors.Failures();
        system = ActorSystem.start(TestActors.config(NODE)
            .pool(PoolConfig.named("main").threads(2))
            .failureHandler(failures)
            .deadLetterHandler(new TestActors.DeadLetters()));
        final CreditAccount account = system.flow().openAccount(1_000_000);
        final TestActors.Recorder live = new TestActors.Recorder();
        final ActorId liveId = system.register(live);
        final ActorId unknown = ActorId.of(NODE, 777_777, 3_000);
        final ActorId otherNode = ActorId.of(NODE + 1, 5, 5);
        final CountDownLatch sent = new CountDownLatch(1);
        final ActorId senderId = system.register((ctx, envelope) ->
        {
            if (!(envelope.event() instanceof Undelivered))
            {
                final int n = (Integer)envelope.event();
                ctx.chargeTo(account);
                for (int i = 0; i < n; i++)
                {
                    ctx.send(liveId, i, USER_TYPE, 0, i);                                               // handled
                    ctx.send(unknown, i, USER_TYPE, 0, i);                                              // dropped
                    ctx.send(unknown, i, USER_TYPE, Envelope.FLAG_TRACK_DELIVERY, i);                   // undelivered
                    ctx.send(unknown, i, USER_TYPE, 0, i, liveId);                                      // forwarded
                    ctx.send(otherNode, i, USER_TYPE, Envelope.FLAG_TRACK_DELIVERY, i);                 // no transport
                }
                sent.countDown();
            }
        });
        final ActorId thrower = system.register((ctx, envelope) ->
        {
            throw new IllegalStateException("handler fails");
        });
        system.send(senderId, 100);
        for (int i = 0; i < 50; i++)
        {
            system.send(thrower, i, USER_TYPE, 0, 0L, account, 2);                                      // failed
        }
        // the last sends of the sender's loop come after live's 200th event: wait for them too, so that from here on
        // nothing is charged any more and the debt can only fall
        Await.latch(sent, "the sender's loop ends");
        Await.until(() -> live.received.size() == 200 && failures.received.size() == 50, "everything arrived");
        settlesAtZero(account);
        settlesAtZero(system.flow().nodeAccount());
    }

    /**
     * The debt reaches 0 and stays there: nothing was repaid twice (which would take it below 0). Call it only once
     * nothing more is charged, so that the debt can only fall (a sum read while charges still race with it need
     * not be a snapshot).
     */
    private static void settlesAtZero(final CreditAccount account)
    {
        Await.until(() -> account.debt() == 0, "every cost is repaid");
        Await.holdsFor(SETTLED_WINDOW, () -> account.debt() == 0, "the debt stays at 0: nothing repaid twice");
    }

    @Test
    void queuedEventsOfAnActorThatPassesAwayOrOfAStoppingNodeAreRepaid() throws Exception
    {
        start(new FlowControlConfig());
        final CreditAccount account = system.flow().openAccount(1_000_000);
        final Gate mortal = new Gate();
        mortal.passAwayAfterBlock = true;
        final ActorId mortalId = system.register(mortal);
        system.send(mortalId, BLOCK, USER_TYPE, 0, 0L, account, 1);
        Await.latch(mortal.entered, "the actor blocks");
        for (int i = 0; i < 100; i++)
        {
            system.send(mortalId, i, USER_TYPE, i % 2 == 0 ? Envelope.FLAG_TRACK_DELIVERY : 0, i, account, 1);
        }
        assertThat(account.debt()).isEqualTo(101);
        mortal.release.countDown();
        settlesAtZero(account);

        final Gate stuck = new Gate();
        final ActorId stuckId = system.register(stuck);
        system.send(stuckId, BLOCK, USER_TYPE, 0, 0L, account, 1);
        Await.latch(stuck.entered, "the actor blocks");
        for (int i = 0; i < 100; i++)
        {
            system.send(stuckId, i, USER_TYPE, i % 2 == 0 ? Envelope.FLAG_TRACK_DELIVERY : 0, i, account, 1);
        }
        final ActorSystem stopping = system;
        final Thread releaser = new Thread(() ->
        {
            try
            {
                Await.until(() -> !stopping.isRunning(), "shutdown begins");
                Thread.sleep(STUCK_PAST_THE_DEADLINE.toMillis()); // the pause under test: the handler overruns
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            finally
            {
                stuck.release.countDown();
            }
        });
        releaser.start();
        system.shutdown(Duration.ofMillis(20)); // the drain deadline passes while the actor is stuck
        releaser.join();
        Await.until(() -> account.debt() == 0, "what a stopped node still held is repaid");
        // refused after shutdown: repaid at once
        assertThat(system.send(stuckId, "late", USER_TYPE, 0, 0L, account, 5)).isFalse();
        assertThat(account.debt()).isZero();
        system = null;
    }

    @Test
    void withFlowControlOffNothingIsChargedAndFundsAreAlwaysClear() throws Exception
    {
        start(FlowControlConfig.disabled());
        final CreditAccount account = system.flow().openAccount(1);
        account.charge(10);
        final BlockingQueue<Object> seen = new LinkedBlockingQueue<>();
        final ActorId actor = system.register((ctx, envelope) ->
        {
            seen.add(envelope.account() == null ? "uncharged" : "charged");
            seen.add(ctx.ensureClearFunds(account));
        });
        system.send(actor, "x", USER_TYPE, 0, 0L, account, 1);
        assertThat(Await.next(seen)).isEqualTo("uncharged");
        assertThat(Await.next(seen)).isEqualTo(true);
        assertThat(account.debt()).isEqualTo(10);
    }

    @Test
    void concurrentChainsAndFanOutsSettleToZero() throws Exception
    {
        system = ActorSystem.start(TestActors.config(NODE).pool(PoolConfig.named("main").threads(4)));
        final CreditAccount account = system.flow().openAccount(1_000_000);
        final AtomicInteger leaves = new AtomicInteger();
        final ActorId[] actors = new ActorId[16];
        for (int i = 0; i < actors.length; i++)
        {
            final int index = i;
            actors[i] = system.register((ctx, envelope) ->
            {
                final int hops = (Integer)envelope.event();
                if (hops == 0)
                {
                    leaves.incrementAndGet();
                    return;
                }
                // fan out to two, each with one hop less
                ctx.send(actors[(index + 1) % actors.length], hops - 1);
                ctx.send(actors[(index + 7) % actors.length], hops - 1);
            });
        }
        for (int i = 0; i < 64; i++)
        {
            system.send(actors[i % actors.length], 10, 0, 0, 0L, account, 1);
        }
        Await.until(() -> leaves.get() == 64 * 1024, "every chain reaches its leaves");
        settlesAtZero(account);
    }

    /**
     * Workers repay in batches: the debt an ingress reads may overstate what is outstanding by the events the
     * worker has handled in its current activation, never more than {@code eventsPerActivation}, and is exact
     * once the activation ends.
     */
    @Test
    void repaymentsLagByAtMostOneActivation() throws Exception
    {
        final int perActivation = 10;
        final int events = 95;
        system = ActorSystem.start(TestActors.config(NODE)
            .pool(PoolConfig.named("main").threads(1).eventsPerActivation(perActivation)
                .timePerActivation(Duration.ofSeconds(10))));
        final CreditAccount account = system.flow().openAccount(1_000_000);
        final long[] seen = new long[events];
        final AtomicInteger handled = new AtomicInteger();
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final ActorId reader = system.register((ctx, envelope) ->
        {
            if (BLOCK.equals(envelope.event()))
            {
                entered.countDown();
                Await.latch(release, "the test releases the reader");
                return;
            }
            seen[handled.get()] = account.debt();
            handled.incrementAndGet(); // after the value is stored: whoever sees the count sees the value
        });
        system.send(reader, BLOCK);
        Await.latch(entered, "the reader blocks its only worker");
        for (int i = 0; i < events; i++)
        {
            system.send(reader, i, USER_TYPE, 0, 0L, account, 1);
        }
        assertThat(account.debt()).isEqualTo(events);
        release.countDown();
        Await.until(() -> handled.get() == events, "every event is handled");
        settlesAtZero(account);
        for (int i = 0; i < events; i++)
        {
            final long outstanding = events - i; // this one and those behind it
            assertThat(seen[i]).as("debt seen by event %d", i)
                .isBetween(outstanding, outstanding + perActivation - 1);
        }
        // the first activation ran BLOCK and 9 events; each later one starts with every earlier event repaid
        assertThat(seen[perActivation - 1]).isEqualTo(events - (perActivation - 1));
    }

    /** An ingress: on each read, forwards one publication to D at cost 1, unless its account is in debt. */
    private static final class Ingress implements Behavior
    {
        final BlockingQueue<String> log = new LinkedBlockingQueue<>();
        private final CreditAccount account;
        private final ActorId dataspace;
        private int publication;

        Ingress(final CreditAccount account, final ActorId dataspace)
        {
            this.account = account;
            this.dataspace = dataspace;
        }

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            if (envelope.event() instanceof FundsCleared)
            {
                log.add("resumed, debt " + ((FundsCleared)envelope.event()).debt());
                return;
            }
            if (!ctx.ensureClearFunds(account))
            {
                log.add("stopped, debt " + account.debt());
                return;
            }
            ctx.send(dataspace, "M" + publication++, USER_TYPE, 0, 0L, account, 1);
            log.add("forwarded, debt " + account.debt());
        }
    }

    /** Blocks its worker on the first event until released, then counts what it handles. */
    private static final class Gate implements Behavior
    {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger handled = new AtomicInteger();
        volatile boolean passAwayAfterBlock;

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            if (BLOCK.equals(envelope.event()))
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
                if (passAwayAfterBlock)
                {
                    ctx.passAway();
                }
                return;
            }
            handled.incrementAndGet();
        }
    }
}
