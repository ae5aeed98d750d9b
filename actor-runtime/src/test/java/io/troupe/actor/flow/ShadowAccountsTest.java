package io.troupe.actor.flow;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A node's shadows of other nodes' accounts: resolution, the flush bound, draining and dropping. */
class ShadowAccountsTest
{
    private static final int NODE = 3;

    private final AtomicInteger flushRequests = new AtomicInteger();
    private final FlowControl flow = new FlowControl(new FlowControlConfig().flushBound(10), NODE, (waiter, event) -> { });

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
    void aShadowAsksForAFlushOnceItsPendingDeltaReachesTheBoundEitherWay()
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
        assertThat(flow.drainShadows((owner, id, delta) -> sent.add(owner + ":" + id + "=" + delta))).isEqualTo(1);
        assertThat(sent).containsExactly("7:1=15");
        assertThat(shadow.pending()).isZero();
        assertThat(flow.isFlushRequested()).isFalse();

        shadow.repay(10);
        assertThat(flushRequests.get()).isEqualTo(2);
        sent.clear();
        flow.drainShadows((owner, id, delta) -> sent.add(owner + ":" + id + "=" + delta));
        assertThat(sent).containsExactly("7:1=-10");
    }

    @Test
    void aRefusedDeltaStaysPendingAndZeroDeltasAreNotSent()
    {
        final ShadowAccount shadow = (ShadowAccount)flow.resolve(7, 1L);
        final ShadowAccount quiet = (ShadowAccount)flow.resolve(7, 2L);
        shadow.charge(4);
        quiet.charge(3);
        quiet.repay(3);
        assertThat(flow.drainShadows((owner, id, delta) -> false)).isZero();
        assertThat(shadow.pending()).isEqualTo(4);
        shadow.charge(1);
        final List<Long> deltas = new ArrayList<>();
        flow.drainShadows((owner, id, delta) -> deltas.add(delta));
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
        // events still charged to a dropped shadow repay it to no effect
        a.repay(4);
        final List<Long> deltas = new ArrayList<>();
        flow.drainShadows((owner, id, delta) -> deltas.add(delta));
        assertThat(deltas).containsExactly(1L);
        assertThat(flow.dropShadowsOf(9)).isZero();
    }

    @Test
    void theFlushBoundIsValidated()
    {
        assertThatThrownBy(() -> new FlowControlConfig().flushBound(0)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("credit flush bound must be 1 or more, was 0");
        assertThat(flow.flushBound()).isEqualTo(10);
    }
}
