package io.troupe.memquota;

import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reclamation with an injected clock, driven by calling {@link MemoryQuotaTracker#reclaimIfNeeded()} directly.
 * Max is 1 MiB and low water the default 768 KiB; each participant's use is what it claimed plus one local cache
 * refill.
 */
class ReclamationTest
{
    private static final long MAX = 1L << 20;
    private static final long LOW_WATER = 786_432;
    private static final long REFILL = Participation.LOCAL_CACHE_REFILL_BYTES;

    private final ManualClock clock = new ManualClock();
    private final MemoryQuotaTracker tracker =
        MemoryQuotaTracker.create(MemoryQuotaConfig.of(MAX).reclaimTimeout(Duration.ofMillis(20)), clock);

    @AfterEach
    void closeTracker()
    {
        tracker.close();
    }

    private FakeParticipant participant(final Account account, final String name, final long oldestNs, final long claim)
    {
        final FakeParticipant participant = FakeParticipant.register(account, name, oldestNs);
        participant.participation.claim(claim);
        return participant;
    }

    @Test
    void reclaimsOldestFirstUntilUnderLowWaterNotJustUnderMax()
    {
        assertThat(tracker.config().lowWaterBytes()).isEqualTo(LOW_WATER);
        final FakeParticipant a = participant(tracker.newAccount(), "a", 30, 250_000);
        final FakeParticipant b = participant(tracker.newAccount(), "b", 10, 250_000);
        final FakeParticipant c = participant(tracker.newAccount(), "c", 50, 250_000);
        final FakeParticipant d = participant(tracker.newAccount(), "d", 20, 250_000);
        final FakeParticipant e = participant(tracker.newAccount(), "e", 40, 250_000);
        final long each = 250_000 + REFILL;
        assertThat(tracker.usedBytes()).isEqualTo(5 * each).isGreaterThan(MAX);
        assertThat(tracker.reclaimWanted()).isTrue();

        final int asked = tracker.reclaimIfNeeded();

        // after b alone use is already under max (4 * each < MAX) but still over low water, so d goes too
        assertThat(4 * each).isLessThan(MAX).isGreaterThan(LOW_WATER);
        assertThat(asked).isEqualTo(2);
        assertThat(b.reclaimCalls()).isEqualTo(1);
        assertThat(d.reclaimCalls()).isEqualTo(1);
        assertThat(a.wasReclaimed()).isFalse();
        assertThat(c.wasReclaimed()).isFalse();
        assertThat(e.wasReclaimed()).isFalse();
        assertThat(b.participation.isGone()).isTrue();
        assertThat(d.participation.isGone()).isTrue();
        assertThat(tracker.usedBytes()).isEqualTo(3 * each).isLessThanOrEqualTo(LOW_WATER);
        // each victim is told the age of the next oldest data, the last one that of the oldest survivor
        assertThat(b.requests.get(0).discardOlderThanNs()).isEqualTo(20);
        assertThat(d.requests.get(0).discardOlderThanNs()).isEqualTo(30);
        assertThat(b.requests.get(0).bytesWanted()).isEqualTo(5 * each - LOW_WATER);

        final MemoryQuotaCounters counters = tracker.counters();
        assertThat(counters.reclamations()).isEqualTo(1);
        assertThat(counters.participantsCollapsed()).isEqualTo(2);
        assertThat(counters.bytesReclaimed()).isEqualTo(2 * each);
        assertThat(counters.usedBytes()).isEqualTo(3 * each);
        assertThat(tracker.reclaimWanted()).isFalse();
    }

    @Test
    void doesNothingWhileUseIsNotOverMax()
    {
        final FakeParticipant old = participant(tracker.newAccount(), "old", 1, 500_000);
        final FakeParticipant young = participant(tracker.newAccount(), "young", 2, MAX - 500_000 - 2 * REFILL);
        assertThat(tracker.usedBytes()).isEqualTo(MAX).isGreaterThan(LOW_WATER);
        assertThat(tracker.reclaimWanted()).isFalse();

        assertThat(tracker.reclaimIfNeeded()).isZero();

        assertThat(old.wasReclaimed()).isFalse();
        assertThat(young.wasReclaimed()).isFalse();
        assertThat(tracker.usedBytes()).isEqualTo(MAX);
        assertThat(tracker.counters().reclamations()).isZero();

        young.participation.claim(1);
        assertThat(tracker.usedBytes()).isEqualTo(MAX); // served from the local cache
        young.participation.claim(REFILL);
        assertThat(tracker.usedBytes()).isGreaterThan(MAX);
        assertThat(tracker.reclaimIfNeeded()).isEqualTo(1);
        assertThat(old.wasReclaimed()).isTrue();
        assertThat(young.wasReclaimed()).isFalse();
    }

    @Test
    void accountsWithoutDataAreNotAsked()
    {
        final FakeParticipant empty = participant(tracker.newAccount(), "empty", Participant.NO_DATA, 400_000);
        final FakeParticipant full = participant(tracker.newAccount(), "full", 5, 700_000);
        tracker.reclaimIfNeeded();
        assertThat(empty.wasReclaimed()).isFalse();
        assertThat(full.wasReclaimed()).isTrue();
        assertThat(tracker.usedBytes()).isEqualTo(400_000 + REFILL);
    }

    @Test
    void reclaimingAParentReclaimsAllItsDescendants()
    {
        final Account parent = tracker.newAccount();
        final Account child = tracker.newAccount(parent);
        final Account grandchild = tracker.newAccount(child);
        final Account unrelated = tracker.newAccount();
        assertThat(child.parentId()).isEqualTo(parent.id());
        assertThat(grandchild.parentId()).isEqualTo(child.id());
        assertThat(parent.parentId()).isZero();
        final FakeParticipant p = participant(parent, "parent", 10, 300_000);
        final FakeParticipant c = participant(child, "child", 100, 300_000);
        final FakeParticipant c2 = participant(child, "child2", 150, 1_000);
        final FakeParticipant g = participant(grandchild, "grandchild", 200, 300_000);
        final FakeParticipant u = participant(unrelated, "unrelated", 50, 300_000);

        tracker.reclaimIfNeeded();

        assertThat(p.reclaimCalls()).isEqualTo(1);
        assertThat(c.reclaimCalls()).isEqualTo(1);
        assertThat(c2.reclaimCalls()).isEqualTo(1);
        assertThat(g.reclaimCalls()).isEqualTo(1);
        assertThat(u.wasReclaimed()).isFalse();
        assertThat(tracker.usedBytes()).isEqualTo(300_000 + REFILL);
        assertThat(tracker.counters().participantsCollapsed()).isEqualTo(4);
        // the accounts stay open: only their participants were reclaimed
        assertThat(child.isClosed()).isFalse();
        assertThat(tracker.counters().accounts()).isEqualTo(4);
    }

    @Test
    void reclaimingAChildLeavesItsParentAlone()
    {
        final Account parent = tracker.newAccount();
        final Account child = tracker.newAccount(parent);
        final Account grandchild = tracker.newAccount(child);
        final FakeParticipant p = participant(parent, "parent", 100, 400_000);
        final FakeParticipant c = participant(child, "child", 10, 300_000);
        final FakeParticipant g = participant(grandchild, "grandchild", 500, 100_000);
        final FakeParticipant u = participant(tracker.newAccount(), "unrelated", 50, 300_000);

        tracker.reclaimIfNeeded();

        assertThat(c.reclaimCalls()).isEqualTo(1);
        assertThat(g.reclaimCalls()).isEqualTo(1); // descendants of the victim go with it
        assertThat(p.wasReclaimed()).isFalse();
        assertThat(u.wasReclaimed()).isFalse();
        assertThat(tracker.usedBytes()).isEqualTo(700_000 + 2 * REFILL);
    }

    @Test
    void aCollectedParticipantCountsAsFreed()
    {
        final FakeParticipant survivor = participant(tracker.newAccount(), "survivor", 1_000, 100_000);
        final Account account = tracker.newAccount();
        final WeakReference<?>[] participantRefOut = new WeakReference<?>[1];
        final Participation orphan = registerAndDrop(account, participantRefOut);
        final WeakReference<?> participantRef = participantRefOut[0];
        orphan.claim(2 * MAX);
        assertThat(tracker.usedBytes()).isEqualTo(2 * MAX + 100_000 + 2 * REFILL);

        Await.until(() ->
        {
            System.gc();
            return participantRef.get() == null;
        }, "the dropped participant is collected");

        final int asked = tracker.reclaimIfNeeded();

        assertThat(asked).isZero(); // finding it collected was enough
        assertThat(orphan.isGone()).isTrue();
        assertThat(orphan.usedBytes()).isZero();
        assertThat(tracker.usedBytes()).isEqualTo(100_000 + REFILL);
        assertThat(tracker.counters().participantsCollapsed()).isEqualTo(1);
        assertThat(survivor.wasReclaimed()).isFalse();
        assertThatThrownBy(() -> orphan.claim(1)).isInstanceOf(MemoryQuotaException.ParticipantGone.class);
    }

    /** Registers a participant and lets go of it: only a weak reference to it is handed back (in refOut). */
    private static Participation registerAndDrop(final Account account, final WeakReference<?>[] refOut)
    {
        final FakeParticipant participant = new FakeParticipant("orphan");
        participant.oldestNs = 5;
        refOut[0] = new WeakReference<>(participant);
        return account.register(participant);
    }

    @Test
    void aPartialParticipantIsAskedAgainUntilUnderLowWater()
    {
        final Account account = tracker.newAccount();
        final FakeParticipant p = FakeParticipant.register(account, "cache", 1);
        final Deque<long[]> chunks = new ArrayDeque<>(); // {time, bytes}
        for (int i = 1; i <= 10; i++)
        {
            p.participation.claim(100_000);
            chunks.add(new long[] {i, 100_000});
        }
        p.mode = FakeParticipant.Mode.PARTIAL;
        p.onPartial = request ->
        {
            final long[] chunk = chunks.poll();
            p.participation.release(chunk[1]);
            p.oldestNs = chunks.isEmpty() ? Participant.NO_DATA : chunks.peek()[0];
            return chunk[1];
        };
        final FakeParticipant young = participant(tracker.newAccount(), "young", 1_000, 200_000);
        final long before = tracker.usedBytes();
        assertThat(before).isEqualTo(1_200_000 + 2 * REFILL);

        tracker.reclaimIfNeeded();

        // 5 chunks of 100 000 are needed to get from 1 216 384 to under 786 432
        assertThat(p.reclaimCalls()).isEqualTo(5);
        assertThat(chunks).hasSize(5);
        assertThat(young.wasReclaimed()).isFalse();
        assertThat(p.participation.isGone()).isFalse();
        assertThat(tracker.usedBytes()).isEqualTo(before - 500_000).isLessThanOrEqualTo(LOW_WATER);
        assertThat(p.requests).allSatisfy(r -> assertThat(r.discardOlderThanNs()).isEqualTo(1_000));
        assertThat(p.requests.get(0).bytesWanted()).isEqualTo(before - LOW_WATER);
        assertThat(p.requests.get(4).bytesWanted()).isEqualTo(before - 400_000 - LOW_WATER);
        assertThat(tracker.counters().participantsCollapsed()).isZero();
        assertThat(tracker.counters().bytesReclaimed()).isEqualTo(500_000);
    }

    @Test
    void aPartialParticipantThatMakesNoProgressIsNotAskedForever()
    {
        final FakeParticipant stuck = participant(tracker.newAccount(), "stuck", 1, 500_000);
        stuck.mode = FakeParticipant.Mode.PARTIAL;
        final FakeParticipant next = participant(tracker.newAccount(), "next", 2, 400_000);
        final FakeParticipant last = participant(tracker.newAccount(), "last", 3, 200_000);

        tracker.reclaimIfNeeded();

        assertThat(stuck.reclaimCalls()).isEqualTo(1);
        assertThat(next.reclaimCalls()).isEqualTo(1);
        assertThat(last.wasReclaimed()).isFalse();
        assertThat(tracker.usedBytes()).isEqualTo(700_000 + 2 * REFILL).isLessThanOrEqualTo(LOW_WATER);
    }

    @Test
    void anUnresponsiveParticipantIsTimedOutAndOthersAreStillReclaimed()
    {
        final FakeParticipant silent = participant(tracker.newAccount(), "silent", 10, 300_000);
        silent.mode = FakeParticipant.Mode.NEVER;
        final FakeParticipant b = participant(tracker.newAccount(), "b", 20, 300_000);
        final FakeParticipant c = participant(tracker.newAccount(), "c", 30, 300_000);
        final FakeParticipant d = participant(tracker.newAccount(), "d", 40, 300_000);
        final long each = 300_000 + REFILL;

        final long start = System.nanoTime();
        tracker.reclaimIfNeeded();
        final long tookMs = (System.nanoTime() - start) / 1_000_000;

        assertThat(silent.reclaimCalls()).isEqualTo(1);
        assertThat(b.reclaimCalls()).isEqualTo(1);
        assertThat(c.reclaimCalls()).isEqualTo(1);
        assertThat(d.wasReclaimed()).isFalse();
        assertThat(silent.participation.isGone()).isFalse(); // it cannot be killed, only passed over
        assertThat(tracker.usedBytes()).isEqualTo(2 * each);
        assertThat(tracker.counters().unresponsive()).isEqualTo(1);
        assertThat(tracker.counters().participantsCollapsed()).isEqualTo(2);
        assertThat(tookMs).isGreaterThanOrEqualTo(19).isLessThan(5_000);
    }

    @Test
    void aFailingParticipantCountsAsUnresponsive()
    {
        final Account account = tracker.newAccount();
        final Participant failing = new Participant()
        {
            @Override
            public long oldestDataTimeNs()
            {
                return 1;
            }

            @Override
            public CompletionStage<Reclaimed> reclaim(final long discardOlderThanNs, final long bytesWanted)
            {
                return CompletableFuture.failedFuture(new IllegalStateException("boom"));
            }
        };
        final Participation participation = account.register(failing);
        participation.claim(600_000);
        final FakeParticipant other = participant(tracker.newAccount(), "other", 2, 600_000);

        tracker.reclaimIfNeeded();

        assertThat(tracker.counters().unresponsive()).isEqualTo(1);
        assertThat(other.reclaimCalls()).isEqualTo(1);
        assertThat(participation.isGone()).isFalse();
        assertThat(tracker.usedBytes()).isEqualTo(600_000 + REFILL);
        assertThat(failing.oldestDataTimeNs()).isEqualTo(1); // keeps it strongly reachable
    }
}
