package io.troupe.actor;

import io.troupe.testing.Await;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A node's shadows of other nodes' accounts: resolution, the flush bound, draining and dropping. */
class ShadowAccountsTest
{
    private static final int NODE = 3;

    private final AtomicInteger flushRequests = new AtomicInteger();
    private final FlowControl flow = new FlowControl(new FlowControlConfig().flushBound(10), NODE,
        (waiter, event) -> { });

    ShadowAccountsTest()
    {
        flow.onFlushRequest(flushRequests::incrementAndGet);
    }

    @Test
    void framesNameThisNodesAccountsOrAreChargedToOneShadowPerForeignAccount()
    {
        final CreditAccount own = flow.openAccount();
        assertThat(flow.resolve(NODE, own.accountId())).isSameAs(own);
        assertThat(flow.resolve(NODE, own.accountId() + 1000)).isNull();
        assertThat(flow.unknownAccounts()).isEqualTo(1);
        own.close();
        assertThat(flow.resolve(NODE, own.accountId())).isNull();
        assertThat(flow.unknownAccounts()).isEqualTo(2);

        final Chargeable shadow = flow.resolve(7, 42L);
        assertThat(shadow).isInstanceOf(ShadowAccount.class).isSameAs(flow.resolve(7, 42L));
        assertThat(shadow.ownerNode()).isEqualTo(7);
        assertThat(shadow.accountId()).isEqualTo(42L);
        assertThat(flow.resolve(8, 42L)).isNotSameAs(shadow);
        assertThat(flow.shadowCount()).isEqualTo(2);
        assertThat(flow.shadow(7, 42L)).isSameAs(shadow);
        assertThat(flow.shadow(7, 43L)).isNull();
    }

    @Test
    void aPeerCannotMakeTheNodeKeepMoreShadowsOfOneOwnerThanTheCap()
    {
        final FlowControl capped = new FlowControl(new FlowControlConfig().maxShadowsPerOwner(3), NODE,
            (waiter, event) -> { });
        for (long id = 1; id <= 3; id++)
        {
            assertThat(capped.resolve(7, id)).isInstanceOf(ShadowAccount.class);
        }
        assertThat(capped.resolve(7, 4L)).as("one more of owner 7").isNull();
        assertThat(capped.resolve(7, 999L)).isNull();
        assertThat(capped.shadowsRefused()).isEqualTo(2);
        assertThat(capped.resolve(7, 2L)).as("a shadow it has is still found").isNotNull();
        assertThat(capped.resolve(8, 4L)).as("the cap is per owner").isInstanceOf(ShadowAccount.class);
        assertThat(capped.shadowCount()).isEqualTo(4);
        assertThatThrownBy(() -> new FlowControlConfig().maxShadowsPerOwner(0))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("shadows per owner must be 1 to 16,777,216, was 0");
    }

    @Test
    void theGenerationChangesExactlyWhenAResolvedAccountOrShadowMayHaveBeenForgotten()
    {
        final long initial = flow.generation();
        final CreditAccount own = flow.openAccount();
        flow.resolve(NODE, own.accountId());
        final Chargeable shadow = flow.resolve(7, 42L);
        flow.dropShadowsOf(9); // no shadows of node 9: nothing forgotten
        assertThat(flow.generation()).as("opening and resolving forget nothing").isEqualTo(initial);

        own.close();
        final long afterClose = flow.generation();
        assertThat(afterClose).as("a closed account is forgotten").isNotEqualTo(initial);

        flow.dropShadowsOf(7);
        assertThat(flow.generation()).as("dropped shadows are forgotten").isNotEqualTo(afterClose);
        assertThat(flow.resolve(7, 42L)).as("a new shadow after the drop").isNotSameAs(shadow);
    }

    @Test
    void aShadowAsksForAFlushAtOnceForChargesAndSoonForRepaymentsOnceItsPendingDeltaReachesTheBound()
    {
        final ShadowAccount shadow = (ShadowAccount)flow.resolve(7, 1L);
        shadow.charge(9);
        assertThat(flushRequests.get()).isZero();
        assertThat(flow.isFlushRequested()).isFalse();
        shadow.charge(1);
        assertThat(flushRequests.get()).isEqualTo(1);
        assertThat(flow.isFlushRequested()).isTrue();
        shadow.charge(5);
        assertThat(flushRequests.get()).as("one request until the flush").isEqualTo(1);

        final List<String> sent = new ArrayList<>();
        assertThat(flow.drainShadows(recordingInto(sent))).isEqualTo(1);
        assertThat(sent).containsExactly("7:1=15");
        assertThat(shadow.pending()).isZero();
        assertThat(flow.isFlushRequested()).isFalse();

        shadow.repay(9);
        assertThat(flushRequests.get()).isEqualTo(1);
        shadow.repay(1);
        assertThat(flushRequests.get()).as("repayments at the bound wake the transport too").isEqualTo(2);
        assertThat(flow.isFlushRequested()).as("but not for a flush at once: the owner only overstates the debt")
            .isFalse();
        assertThat(flow.isRepaymentFlushRequested()).isTrue();
        shadow.repay(5);
        assertThat(flushRequests.get()).as("one request until the flush").isEqualTo(2);
        sent.clear();
        flow.drainShadows(recordingInto(sent));
        assertThat(sent).containsExactly("7:1=-15");
        assertThat(flow.isRepaymentFlushRequested()).isFalse();

        shadow.repay(10);
        shadow.charge(30);
        assertThat(flow.isFlushRequested()).as("charges past the bound: at once").isTrue();
    }

    @Test
    void aRefusedDeltaStaysPendingAndZeroDeltasAreNotSent()
    {
        final ShadowAccount shadow = (ShadowAccount)flow.resolve(7, 1L);
        final ShadowAccount quiet = (ShadowAccount)flow.resolve(7, 2L);
        shadow.charge(4);
        quiet.charge(3);
        quiet.repay(3);
        assertThat(flow.drainShadows((flushed, delta) -> false)).isZero();
        assertThat(shadow.pending()).isEqualTo(4);
        shadow.charge(1);
        final List<Long> deltas = new ArrayList<>();
        flow.drainShadows((flushed, delta) -> deltas.add(delta));
        assertThat(deltas).containsExactly(5L);
    }

    @Test
    void theShadowsOfALostOwnerAreDroppedWithWhatWasPending()
    {
        final ShadowAccount a = (ShadowAccount)flow.resolve(7, 1L);
        final ShadowAccount b = (ShadowAccount)flow.resolve(7, 2L);
        final ShadowAccount other = (ShadowAccount)flow.resolve(8, 1L);
        a.charge(4);
        b.repay(2);
        other.charge(1);
        assertThat(flow.dropShadowsOf(7)).isEqualTo(6);
        assertThat(flow.shadowDebtDropped()).isEqualTo(6);
        assertThat(flow.shadow(7, 1L)).isNull();
        assertThat(flow.shadowCount()).isEqualTo(1);
        // events still charged to a dropped shadow repay it: dropped at the next flush, and counted
        a.repay(4);
        final List<Long> deltas = new ArrayList<>();
        flow.drainShadows((flushed, delta) -> deltas.add(delta));
        assertThat(deltas).containsExactly(1L);
        assertThat(flow.shadowDebtDropped()).isEqualTo(10);
        assertThat(flow.dropShadowsOf(9)).isZero();
    }

    @Test
    void theFlushBoundAndIdleTimeoutAreValidated()
    {
        assertThatThrownBy(() -> new FlowControlConfig().flushBound(0)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("flow control setting flushBound = 0 is invalid: allowed 1..2^62");
        assertThat(flow.flushBound()).isEqualTo(10);
        assertThatThrownBy(() -> new FlowControlConfig().shadowIdleTimeout(Duration.ZERO))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("flow control setting shadowIdleTimeout = 0ms is invalid: allowed 1ms..1h");
        assertThatThrownBy(() -> new FlowControlConfig().shadowIdleTimeout(null))
            .isInstanceOf(IllegalArgumentException.class);
        assertThat(flow.shadowIdleTimeoutNs()).isEqualTo(FlowControlConfig.DEFAULT_SHADOW_IDLE_TIMEOUT.toNanos());
    }

    @Test
    void aShadowWithoutChangesForAWholeSweepIsForgottenAndAChangeAfterThatIsStillFlushed()
    {
        final List<String> sent = new ArrayList<>();
        final ShadowDeltaSink sink = recordingInto(sent);
        final ShadowAccount quiet = (ShadowAccount)flow.resolve(7, 1L);
        final ShadowAccount busy = (ShadowAccount)flow.resolve(7, 2L);
        final ShadowAccount unflushed = (ShadowAccount)flow.resolve(8, 1L);
        quiet.charge(2);
        flow.drainShadows(sink);
        assertThat(flow.sweepIdleShadows()).as("each changed during the sweep just ending").isZero();

        busy.charge(1);
        unflushed.charge(1);
        flow.drainShadows((shadow, delta) -> shadow != unflushed && sink.accept(shadow, delta));
        final long generation = flow.generation();
        assertThat(flow.sweepIdleShadows()).as("only the one without a change since the last sweep").isEqualTo(1);
        assertThat(flow.shadow(7, 1L)).isNull();
        assertThat(flow.shadow(7, 2L)).isSameAs(busy);
        assertThat(flow.shadow(8, 1L)).as("a refused delta keeps its shadow").isSameAs(unflushed);
        assertThat(flow.shadowsForgotten()).isEqualTo(1);
        assertThat(flow.shadowCount()).isEqualTo(2);
        assertThat(flow.generation()).isNotEqualTo(generation);

        // an event still charged to the forgotten shadow is handled: its repayment reaches the owner
        sent.clear();
        quiet.repay(2);
        flow.drainShadows(sink);
        assertThat(sent).containsExactlyInAnyOrder("7:1=-2", "8:1=1");
        assertThat(flow.resolve(7, 1L)).as("a new event gets a new shadow").isNotSameAs(quiet);

        // a refused delta of a forgotten shadow goes back to that shadow
        sent.clear();
        quiet.charge(5);
        flow.drainShadows((shadow, delta) -> false);
        assertThat(quiet.pending()).isEqualTo(5);
        flow.drainShadows(sink);
        assertThat(sent).containsExactly("7:1=5");

        assertThat(flow.sweepIdleShadows()).isEqualTo(1);
        assertThat(flow.sweepIdleShadows()).as("all quiet for a whole sweep").isEqualTo(2);
        assertThat(flow.shadowCount()).isZero();
    }

    @Test
    void concurrentChargesRepaymentsFlushesAndSweepsLoseNoDelta() throws Exception
    {
        final int accounts = 16;
        final int threads = 3;
        final int rounds = 50_000;
        final long[] net = new long[accounts];
        final AtomicBoolean done = new AtomicBoolean();
        final ShadowDeltaSink sink = (shadow, delta) ->
        {
            if (ThreadLocalRandom.current().nextInt(8) == 0)
            {
                return false; // back pressure: the delta goes back to its shadow
            }
            net[(int)shadow.accountId()] += delta;
            return true;
        };
        final Thread flusher = new Thread(() ->
        {
            while (!done.get())
            {
                flow.drainShadows(sink);
                flow.sweepIdleShadows();
            }
        });
        flusher.start();
        final List<Thread> workers = new ArrayList<>();
        // how many rounds overlap a sweep that forgets a shadow depends on how the threads are scheduled: a worker
        // goes on past its rounds until one has (bounded), so that the race under test surely happened
        final long deadlineNs = System.nanoTime() + Await.DEFAULT_TIMEOUT.toNanos();
        for (int t = 0; t < threads; t++)
        {
            final Thread worker = new Thread(() ->
            {
                final ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int i = 0; i < rounds || flow.shadowsForgotten() == 0 && System.nanoTime() - deadlineNs < 0; i++)
                {
                    // an event arrives (charged to a shadow looked up now) and is handled a little later
                    final Chargeable shadow = flow.resolve(7, random.nextInt(accounts));
                    shadow.charge(3);
                    Thread.onSpinWait();
                    shadow.repay(3);
                }
            });
            workers.add(worker);
            worker.start();
        }
        for (final Thread worker : workers)
        {
            worker.join();
        }
        done.set(true);
        flusher.join();
        // the last flush takes whatever is still pending, refused deltas included
        flow.drainShadows((shadow, delta) ->
        {
            net[(int)shadow.accountId()] += delta;
            return true;
        });
        for (int i = 0; i < accounts; i++)
        {
            assertThat(net[i]).as("net delta of account %d: every charge met its repayment", i).isZero();
        }
        assertThat(flow.shadowsForgotten()).as("sweeps forgot shadows while events were in flight").isPositive();
    }

    /** A sink that takes every delta and records it as {@code owner:account=delta}. */
    private static ShadowDeltaSink recordingInto(final List<String> sent)
    {
        return (shadow, delta) -> sent.add(shadow.ownerNode() + ":" + shadow.accountId() + "=" + delta);
    }
}
