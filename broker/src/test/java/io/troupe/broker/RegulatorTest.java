package io.troupe.broker;

import io.troupe.actor.ActorId;
import io.troupe.actor.ActorSystem;
import io.troupe.actor.ActorSystemConfig;
import io.troupe.actor.PoolConfig;
import io.troupe.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.troupe.broker.TestRequests.ms;
import static io.troupe.broker.TestRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

/** The regulator: slots through a valve, done, continue, live reconfiguration, holders of a lost node. */
@Timeout(60)
class RegulatorTest
{
    /** How long to wait for what should happen (a slot, a queue length): never reached on a slow machine. */
    private static final Duration WAIT = Await.DEFAULT_TIMEOUT;
    private static final long WAIT_S = WAIT.toSeconds();
    /** How long a second asker must be seen waiting while the one slot is held. */
    private static final Duration STILL_WAITING = Duration.ofMillis(50);
    /**
     * The lease in {@link #anAskerThatTimedOutWhileItsSlotWasGrantedHoldsItOnlyUntilTheLeaseRunsOut}: the impatient
     * ask (50 ms) must time out before the first lease runs out, however slow the test thread is to send it.
     */
    private static final Duration LEASE = Duration.ofMillis(500);
    private final BrokerCoreTest.Answers out = new BrokerCoreTest.Answers();
    private final ActorId self = ActorId.of(1, 999, 0);

    private RegulatorCore core(final int max)
    {
        return new RegulatorCore(self, new RegulatorSpec(DropQueueSpec.fifo(100), new OpenValveSpec(max), List.of()),
            0);
    }

    @Test
    void requestsProceedWhileTheValveOpensAndWaitForADoneOtherwise()
    {
        final RegulatorCore core = core(2);
        core.ask(request(1, 0), false, 0, out);
        core.ask(request(2, 0), false, 0, out);
        core.ask(request(3, ms(1)), false, ms(1), out);
        assertThat(out.answers).extracting(BrokerCoreTest.Answers.Answer::ref).containsExactly(1L, 2L);
        assertThat(core.waiting()).isEqualTo(1);
        assertThat(core.held()).isEqualTo(2);

        core.done(request(1, 0).requester(), 1, ms(5), out);
        assertThat(out.answers).hasSize(3);
        final Go third = (Go)out.answers.get(2).event();
        assertThat(third.ref()).isEqualTo(3);
        assertThat(third.counterparty()).isEqualTo(self);
        assertThat(third.sojournTimeNs()).isEqualTo(ms(4));
        assertThat(core.held()).isEqualTo(2);

        core.done(request(1, 0).requester(), 1, ms(6), out); // a second done for the same slot changes nothing
        assertThat(core.held()).isEqualTo(2);
        assertThat(core.unknownHolders()).isEqualTo(1);
    }

    @Test
    void aNonBlockingAskIsDroppedWhenTheValveIsShut()
    {
        final RegulatorCore core = core(1);
        core.ask(request(1, 0), true, 0, out);
        core.ask(request(2, 0), true, 0, out);
        assertThat(out.answers).extracting(a -> a.event().getClass().getSimpleName()).containsExactly("Go", "Drop");
    }

    @Test
    void continueKeepsTheSlotUntilAReconfigurationShrinksTheValve()
    {
        final RegulatorCore core = core(2);
        core.ask(request(1, 0), false, 0, out);
        core.ask(request(2, 0), false, 0, out);
        assertThat(core.keep(request(1, 0).requester(), 1, ms(1), out)).isTrue();

        core.reconfigure(new RegulatorSpec(DropQueueSpec.fifo(100), new OpenValveSpec(1), List.of()), ms(2));
        assertThat(core.held()).as("held slots carry over").isEqualTo(2);
        assertThat(core.keep(request(1, 0).requester(), 1, ms(3), out)).as("over the new max: stop").isFalse();
        assertThat(core.held()).isEqualTo(1);
        assertThat(core.keep(request(2, 0).requester(), 2, ms(3), out)).isTrue();
        assertThat(core.keep(request(1, 0).requester(), 1, ms(3), out)).as("released already").isFalse();
    }

    @Test
    void slotsOfHoldersOnANodeThatDisconnectedAreReleased()
    {
        final RegulatorCore core = core(2);
        final ActorId remote = ActorId.of(2, 5, 0);
        core.ask(new BrokerRequest(1, remote, 0, remote, 0, remote), false, 0, out);
        core.ask(request(2, 0), false, 0, out);
        core.ask(request(3, 0), false, 0, out);
        assertThat(core.waiting()).isEqualTo(1);

        core.releaseNode(2, ms(1), out);
        assertThat(core.released()).isEqualTo(1);
        assertThat(out.answers).extracting(BrokerCoreTest.Answers.Answer::ref).containsExactly(1L, 2L, 3L);
        assertThat(core.held()).isEqualTo(2);
    }

    @Test
    void aRelativeValveGrowsOnUpdatesBelowTarget()
    {
        final RegulatorCore core = new RegulatorCore(self, new RegulatorSpec(DropQueueSpec.fifo(100),
            new RelativeValveSpec(Duration.ofMillis(10), 1, 3), List.of()), 0);
        for (int i = 1; i <= 4; i++)
        {
            core.ask(request(i, 0), false, 0, out);
        }
        assertThat(core.held()).as("min").isEqualTo(1);
        core.update(ms(1), ms(1), out);
        core.update(ms(1), ms(2), out);
        core.update(ms(1), ms(3), out);
        assertThat(core.held()).as("max").isEqualTo(3);
        core.update(ms(50), ms(4), out);
        assertThat(core.keep(request(1, 0).requester(), 1, ms(5), out)).as("above target: shrink").isFalse();
    }

    @Test
    void aRegulatorActorGrantsSlotsToPlainThreadsAndTakesThemBackByReference() throws Exception
    {
        try (ActorSystem system = ActorSystem.start(new ActorSystemConfig().nodeId(1)
            .pool(PoolConfig.named("default").threads(2))))
        {
            final ActorId regulator = Regulators.start(system,
                new RegulatorSpec(DropQueueSpec.fifo(100), new OpenValveSpec(1), List.of()));
            final Go first = (Go)Regulators.ask(system, regulator, WAIT).get(WAIT_S, TimeUnit.SECONDS);
            final CompletableFuture<Object> second = Regulators.ask(system, regulator, WAIT);
            Await.holdsFor(STILL_WAITING, () -> !second.isDone(), "the second asker waits while the slot is held");
            Regulators.done(system, regulator, first.ref());
            assertThat(second.get(WAIT_S, TimeUnit.SECONDS)).isInstanceOf(Go.class);
            assertThat(Brokers.lengths(system, regulator, WAIT).get(WAIT_S, TimeUnit.SECONDS))
                .isEqualTo(new Lengths(0, 1));
        }
    }

    @Test
    void aSlotWhoseHolderSaysNothingIsReleasedWhenItsLeaseRunsOutAndAContinueRenewsIt()
    {
        final RegulatorCore core = new RegulatorCore(self,
            new RegulatorSpec(DropQueueSpec.fifo(100), new OpenValveSpec(1), List.of(), Duration.ofMillis(100)), 0);
        core.ask(request(1, 0), false, 0, out);
        core.ask(request(2, 0), false, 0, out);
        assertThat(core.held()).isEqualTo(1);
        assertThat(core.afterBatch(ms(10), -1, out)).as("wake when the lease runs out").isEqualTo(ms(100));

        assertThat(core.keep(request(1, 0).requester(), 1, ms(60), out)).as("a continue renews the lease").isTrue();
        core.afterBatch(ms(100), -1, out);
        assertThat(core.expiredLeases()).isZero();
        assertThat(out.answers).hasSize(1);

        core.afterBatch(ms(160), -1, out); // 100 ms after the continue: released, and the next request proceeds
        assertThat(core.expiredLeases()).isEqualTo(1);
        assertThat(out.answers).extracting(BrokerCoreTest.Answers.Answer::ref).containsExactly(1L, 2L);
        assertThat(core.held()).isEqualTo(1);
        core.done(request(1, 0).requester(), 1, ms(170), out);
        assertThat(core.unknownHolders()).as("the late done of the expired holder").isEqualTo(1);
        assertThat(core.held()).isEqualTo(1);
    }

    @Test
    void aGoThatCannotBeDeliveredGivesTheSlotBackAtOnce()
    {
        final RegulatorCore core = core(1);
        final BrokerRequest first = request(1, 0);
        core.ask(first, false, 0, out);
        core.ask(request(2, 0), false, 0, out);
        core.goUndelivered(first.requester(), first.cookie(), ms(1), out);
        assertThat(out.answers).extracting(BrokerCoreTest.Answers.Answer::ref).containsExactly(1L, 2L);
        assertThat(core.held()).isEqualTo(1);
    }

    @Test
    void aSlotHolderThatPassesAwayGivesItsSlotBackAtOnce() throws Exception
    {
        final ActorSystem system =
            ActorSystem.start(new ActorSystemConfig().nodeId(1).pool(PoolConfig.named("default").threads(2)));
        try
        {
            // a lease far longer than the test: only the holder's Terminated can give the slot back in time
            final ActorId regulator = Regulators.start(system, new RegulatorSpec(DropQueueSpec.fifo(100),
                new OpenValveSpec(1), List.of(), Duration.ofMinutes(10)));
            final BlockingQueue<Object> got = new LinkedBlockingQueue<>();
            final ActorId holder = system.register((ctx, envelope) ->
            {
                if ("ask".equals(envelope.event()))
                {
                    Regulators.ask(ctx, regulator, 1, 10);
                }
                else if ("die".equals(envelope.event()))
                {
                    ctx.passAway();
                }
                else
                {
                    got.add(envelope.event());
                }
            });
            system.send(holder, "ask");
            assertThat(Await.next(got)).isInstanceOf(Go.class);
            final CompletableFuture<Object> next = Regulators.ask(system, regulator, WAIT);
            assertThat(next).as("the one slot is held").isNotCompleted();

            system.send(holder, "die");
            assertThat(next.get(WAIT_S, TimeUnit.SECONDS)).isInstanceOf(Go.class);
        }
        finally
        {
            system.close();
        }
    }

    @Test
    void anAskerThatTimedOutWhileItsSlotWasGrantedHoldsItOnlyUntilTheLeaseRunsOut() throws Exception
    {
        final ActorSystem system =
            ActorSystem.start(new ActorSystemConfig().nodeId(1).pool(PoolConfig.named("default").threads(2)));
        try
        {
            final ActorId regulator = Regulators.start(system, new RegulatorSpec(DropQueueSpec.fifo(100),
                new OpenValveSpec(1), List.of(), LEASE));
            // the first asker gets the slot and never says done; the second waits behind it and times out
            assertThat(Regulators.ask(system, regulator, WAIT).get(WAIT_S, TimeUnit.SECONDS)).isInstanceOf(Go.class);
            final CompletableFuture<Object> impatient = Regulators.ask(system, regulator, Duration.ofMillis(50));
            assertThat(impatient).failsWithin(WAIT);
            // the first lease runs out, the slot goes to the impatient asker, which is gone: its lease runs out too
            final long start = System.nanoTime();
            final Object third = Regulators.ask(system, regulator, WAIT).get(WAIT_S, TimeUnit.SECONDS);
            assertThat(third).isInstanceOf(Go.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("two leases at most, and scheduling")
                .isLessThan(LEASE.multipliedBy(20));
        }
        finally
        {
            system.close();
        }
    }
}
