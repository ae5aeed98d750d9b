package io.troupe.memquota;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AccountLifecycleTest
{
    private static final long MAX = 1L << 20;
    private static final long REFILL = Participation.LOCAL_CACHE_REFILL_BYTES;

    private final ManualClock clock = new ManualClock();
    private final MemoryQuotaTracker tracker = MemoryQuotaTracker.create(MemoryQuotaConfig.of(MAX), clock);

    @AfterEach
    void closeTracker()
    {
        tracker.close();
    }

    @Test
    void claimAfterAccountCloseFailsWithAccountClosed()
    {
        final Account account = tracker.newAccount();
        final FakeParticipant participant = FakeParticipant.register(account, "p", 1);
        participant.participation.claim(100);
        assertThat(tracker.usedBytes()).isEqualTo(REFILL + 100);

        account.close();

        assertThat(account.isClosed()).isTrue();
        assertThat(tracker.usedBytes()).isZero();
        assertThat(participant.participation.isGone()).isTrue();
        assertThatThrownBy(() -> participant.participation.claim(1))
            .isInstanceOf(MemoryQuotaException.AccountClosed.class)
            .hasMessageContaining(Long.toString(account.id()));
        assertThatThrownBy(() -> account.register(new FakeParticipant("late")))
            .isInstanceOf(MemoryQuotaException.AccountClosed.class);
        assertThatThrownBy(account::duplicate).isInstanceOf(MemoryQuotaException.AccountClosed.class);
        assertThatThrownBy(() -> tracker.newAccount(account)).isInstanceOf(MemoryQuotaException.AccountClosed.class);
        participant.participation.release(100); // infallible after close
        assertThat(tracker.usedBytes()).isZero();
        account.close(); // idempotent
        assertThat(tracker.counters().accounts()).isZero();
    }

    @Test
    void claimAfterTrackerCloseFailsWithTrackerShutDown()
    {
        final Account account = tracker.newAccount();
        final FakeParticipant participant = FakeParticipant.register(account, "p", 1);
        participant.participation.claim(10);

        tracker.close();

        assertThat(tracker.isClosed()).isTrue();
        assertThat(account.isClosed()).isTrue();
        assertThat(tracker.usedBytes()).isZero();
        assertThatThrownBy(() -> participant.participation.claim(1))
            .isInstanceOf(MemoryQuotaException.TrackerShutDown.class);
        assertThatThrownBy(tracker::newAccount).isInstanceOf(MemoryQuotaException.TrackerShutDown.class);
        assertThat(tracker.reclaimIfNeeded()).isZero();
        tracker.close(); // idempotent
    }

    @Test
    void claimAfterTheParticipantWasReclaimedFailsWithParticipantGone()
    {
        final Account old = tracker.newAccount();
        final FakeParticipant participant = FakeParticipant.register(old, "raw", 1);
        participant.participation.claim(MAX);
        tracker.reclaimIfNeeded();

        assertThat(participant.wasReclaimed()).isTrue();
        assertThat(participant.participation.isGone()).isTrue();
        assertThat(participant.participation.usedBytes()).isZero();
        assertThat(tracker.usedBytes()).isZero();
        assertThatThrownBy(() -> participant.participation.claim(1))
            .isInstanceOf(MemoryQuotaException.ParticipantGone.class)
            .hasMessageContaining("memory account " + old.id());
        // the account itself is still open: a new participant can claim again
        final FakeParticipant again = FakeParticipant.register(old, "again", 2);
        again.participation.claim(1);
        assertThat(tracker.usedBytes()).isEqualTo(REFILL + 1);
    }

    @Test
    void closingAParticipationForgetsItsBytes()
    {
        final Account account = tracker.newAccount();
        final FakeParticipant a = FakeParticipant.register(account, "a", 1);
        final FakeParticipant b = FakeParticipant.register(account, "b", 1);
        a.participation.claim(40_000);
        b.participation.claim(10);
        a.participation.close();
        assertThat(tracker.usedBytes()).isEqualTo(REFILL + 10);
        assertThatThrownBy(() -> a.participation.claim(1)).isInstanceOf(MemoryQuotaException.ParticipantGone.class);
        a.participation.close(); // idempotent
        assertThat(tracker.usedBytes()).isEqualTo(REFILL + 10);
        assertThatThrownBy(() -> b.participation.claim(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void duplicateKeepsTheAccountOpenUntilTheLastHandleCloses()
    {
        final Account first = tracker.newAccount();
        final Account second = first.duplicate();
        final Account third = second.duplicate();
        assertThat(second.id()).isEqualTo(first.id());
        final FakeParticipant participant = FakeParticipant.register(first, "p", 1);

        first.close();
        first.close(); // closing one handle twice drops only one
        assertThat(first.isClosed()).isFalse();
        participant.participation.claim(10);
        assertThatThrownBy(() -> first.register(new FakeParticipant("x")))
            .isInstanceOf(MemoryQuotaException.AccountClosed.class);
        second.close();
        assertThat(third.isClosed()).isFalse();
        participant.participation.claim(10);
        assertThat(tracker.usedBytes()).isEqualTo(REFILL + 10); // the second claim came from the local cache
        assertThat(participant.participation.localCacheBytes()).isEqualTo(REFILL - 10);

        third.close();
        assertThat(third.isClosed()).isTrue();
        assertThat(tracker.usedBytes()).isZero();
        assertThatThrownBy(() -> participant.participation.claim(1))
            .isInstanceOf(MemoryQuotaException.AccountClosed.class);
    }

    @Test
    void weakAccountUpgradesOnlyWhileTheAccountIsOpen()
    {
        final Account account = tracker.newAccount();
        final WeakAccount weak = account.weak();
        assertThat(weak.id()).isEqualTo(account.id());
        final Optional<Account> upgraded = weak.upgrade();
        assertThat(upgraded).isPresent();

        account.close();
        assertThat(upgraded.get().isClosed()).isFalse(); // the upgraded handle counts
        upgraded.get().close();
        assertThat(account.isClosed()).isTrue();

        assertThat(weak.upgrade()).isEmpty();
    }

    @Test
    void parentMustBelongToTheSameTracker()
    {
        try (MemoryQuotaTracker other = MemoryQuotaTracker.create(MemoryQuotaConfig.of(MAX), clock))
        {
            final Account foreign = other.newAccount();
            assertThatThrownBy(() -> tracker.newAccount(foreign))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("another tracker");
        }
    }

    @Test
    void closingAParentLeavesItsChildOpen()
    {
        final Account parent = tracker.newAccount();
        final Account child = tracker.newAccount(parent);
        final FakeParticipant participant = FakeParticipant.register(child, "c", 1);
        parent.close();
        assertThat(child.isClosed()).isFalse();
        participant.participation.claim(1);
        assertThat(tracker.usedBytes()).isEqualTo(REFILL + 1);
    }

    @Test
    void accountsListsUseAndOldestAge()
    {
        final Account parent = tracker.newAccount();
        final Account child = tracker.newAccount(parent);
        final Account idle = tracker.newAccount();
        final FakeParticipant p1 = FakeParticipant.register(parent, "p1", clock.nowNs());
        final FakeParticipant p2 = FakeParticipant.register(parent, "p2", clock.nowNs() - 500);
        p1.participation.claim(1_000);
        p2.participation.claim(2_000);
        final FakeParticipant c = FakeParticipant.register(child, "c", clock.nowNs());
        c.participation.claim(3_000);
        clock.advance(1_000);

        final List<AccountInfo> infos = tracker.accounts();

        assertThat(infos).containsExactly(
            new AccountInfo(parent.id(), 0, 3_000 + 2 * REFILL, 2, 1_500),
            new AccountInfo(child.id(), parent.id(), 3_000 + REFILL, 1, 1_000),
            new AccountInfo(idle.id(), 0, 0, 0, -1));
        assertThat(tracker.counters().accounts()).isEqualTo(3);
    }
}
