package io.troupe.actor;

import io.troupe.testing.Await;
import io.troupe.memquota.Account;
import io.troupe.memquota.HasMemoryCost;
import io.troupe.memquota.MemoryQuotaConfig;
import io.troupe.memquota.MemoryQuotaTracker;
import io.troupe.memquota.Participation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Memory-tracked mailboxes: queued events are claimed against the actor's account and released when
 * handled; when the node's quota reclaims the oldest mailbox it collapses, its queued events are reported
 * (tracked) or counted (untracked), its actor is told and keeps working, and younger mailboxes survive.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MemoryTrackedMailboxTest
{
    private static final int NODE = 7;
    private static final long PAYLOAD_BYTES = 1000;
    private static final long EVENT_BYTES = Envelope.ENVELOPE_COST_BYTES + PAYLOAD_BYTES;

    private ActorSystem system;

    /** An event that costs PAYLOAD_BYTES in a tracked mailbox. */
    record Payload(int seq) implements HasMemoryCost
    {
        @Override
        public long memoryCost()
        {
            return PAYLOAD_BYTES;
        }
    }

    /** Tells the sender actor to send a burst. */
    record Burst(ActorId to, int count, boolean tracked)
    {
    }

    /** Sends bursts on command and records what comes back (notices). */
    static final class Sender implements Behavior
    {
        final BlockingQueue<Envelope> received = new LinkedBlockingQueue<>();

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            if (envelope.event() instanceof Burst)
            {
                final Burst burst = (Burst)envelope.event();
                for (int i = 0; i < burst.count(); i++)
                {
                    ctx.send(burst.to(), new Payload(i), TestActors.USER_TYPE,
                        burst.tracked() ? Envelope.FLAG_TRACK_DELIVERY : 0, i);
                }
            }
            else
            {
                received.add(envelope);
            }
        }
    }

    /**
     * Blocks on its first event until released, then records everything. An event is counted in {@code handled}
     * after it is in {@code events}: whoever sees the count at n finds the n-th event recorded.
     */
    static final class Gated implements Behavior
    {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<Object> events = new CopyOnWriteArrayList<>();
        final AtomicInteger handled = new AtomicInteger();
        final BlockingQueue<MailboxCollapsed> collapses = new LinkedBlockingQueue<>();
        private final AtomicBoolean blocked = new AtomicBoolean();

        @Override
        public void receive(final ActorContext ctx, final Envelope envelope)
        {
            if (envelope.event() instanceof MailboxCollapsed)
            {
                collapses.add((MailboxCollapsed)envelope.event());
                return;
            }
            if (blocked.compareAndSet(false, true))
            {
                entered.countDown();
                try
                {
                    release.await(30, TimeUnit.SECONDS);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }
            events.add(envelope.event());
            handled.incrementAndGet();
        }
    }

    @AfterEach
    void tearDown()
    {
        if (system != null)
        {
            system.close();
        }
    }

    private void start(final MemoryQuotaConfig quota)
    {
        // three threads: two gated actors block theirs, the sender needs one more
        system = ActorSystem.start(TestActors.config(NODE).memoryQuota(quota).pool(PoolConfig.named("x").threads(3)));
    }

    @Test
    void queuedEventsAreClaimedWhileQueuedAndReleasedWhenHandled() throws Exception
    {
        start(MemoryQuotaConfig.disabled());
        final MemoryQuotaTracker quota = system.memoryQuota();
        final Gated gated = new Gated();
        try (Account account = quota.newAccount())
        {
            final ActorId actor = system.register(gated, 0, MailboxType.SIMPLE, account);
            system.send(actor, new Payload(-1));
            Await.latch(gated.entered, "the actor blocks");
            final int backlog = 100;
            for (int i = 0; i < backlog; i++)
            {
                system.send(actor, new Payload(i));
            }

            assertThat(quota.usedBytes()).as("the backlog is claimed").isGreaterThanOrEqualTo(backlog * EVENT_BYTES);
            assertThat(quota.accounts()).singleElement().satisfies(info ->
            {
                assertThat(info.accountId()).isEqualTo(account.id());
                assertThat(info.usedBytes()).isGreaterThanOrEqualTo(backlog * EVENT_BYTES);
                assertThat(info.oldestAgeNs()).isGreaterThanOrEqualTo(0);
            });

            gated.release.countDown();
            Await.until(() -> gated.handled.get() == backlog + 1, "the backlog is handled");
            Await.until(() -> quota.usedBytes() <= Participation.LOCAL_CACHE_MAX_BYTES, "handled events are released");
        }
    }

    @Test
    void reclamationCollapsesTheOldestMailboxWhichReportsItsQueueAndRecovers() throws Exception
    {
        start(MemoryQuotaConfig.of(1 << 20)); // low water 768 KiB
        final MemoryQuotaTracker quota = system.memoryQuota();
        final Sender sender = new Sender();
        final ActorId senderId = system.register(sender);
        final Gated old = new Gated();
        final Gated young = new Gated();
        final Account oldAccount = quota.newAccount();
        final Account youngAccount = quota.newAccount();
        final ActorId oldId = system.register(old, 0, MailboxType.SIMPLE, oldAccount);
        final ActorId youngId = system.register(young, 0, MailboxType.REVOLVING, youngAccount);
        system.send(oldId, "block");
        system.send(youngId, "block");
        Await.latch(old.entered, "old blocks");
        Await.latch(young.entered, "young blocks");

        // ~530 KB of old data: 400 tracked and 100 untracked events
        system.send(senderId, new Burst(oldId, 400, true));
        system.send(senderId, new Burst(oldId, 100, false));
        Await.until(() -> quota.usedBytes() >= 500 * EVENT_BYTES, "old's backlog is claimed");
        // old's oldest event was stamped before the next one was claimed: the clock's value now is at or after it.
        // Once the (cached, monotonic) clock has moved on, every one of young's events is stamped later than it.
        final long oldStampedBy = quota.clock().nowNs();
        Await.until(() -> quota.clock().nowNs() > oldStampedBy, "the coarse clock moves past old's data");
        final long droppedBefore = system.counters().dropped();

        // ~640 KB of young data pushes the total over 1 MiB: the reclaimer takes the oldest mailbox only. While
        // use is over max, refills are refused, so some of young's events may be shed (reported as SHED).
        system.send(senderId, new Burst(youngId, 600, true));
        Await.until(() -> quota.counters().participantsCollapsed() >= 1, "the quota reclaims");
        assertThat(quota.counters().participantsCollapsed()).isEqualTo(1);
        Await.until(() -> quota.usedBytes() <= quota.config().lowWaterBytes(), "use falls under low water");

        // old's worker drops the queue once its handler returns
        old.release.countDown();
        final MailboxCollapsed collapsed = Await.next(old.collapses);
        assertThat(collapsed.actor()).isEqualTo(oldId);
        assertThat(collapsed.dropped()).isEqualTo(500);
        Await.until(() -> system.counters().dropped() - droppedBefore >= 100, "untracked ones are counted as dropped");
        assertThat(old.events).containsExactly("block");
        assertThat(system.counters().mailboxesCollapsed()).isEqualTo(1);

        // every tracked event ends exactly once: old's as COLLAPSED, young's handled or SHED
        young.release.countDown();
        final int[] collapsedNotices = new int[1];
        final int[] shedNotices = new int[1];
        Await.until(() ->
        {
            Envelope notice;
            while ((notice = sender.received.poll()) != null)
            {
                final Undelivered undelivered = (Undelivered)notice.event();
                if (undelivered.reason() == UndeliveredReason.COLLAPSED)
                {
                    assertThat(undelivered.recipient()).isEqualTo(oldId);
                    collapsedNotices[0]++;
                }
                else
                {
                    assertThat(undelivered.reason()).isEqualTo(UndeliveredReason.SHED);
                    assertThat(undelivered.recipient()).isEqualTo(youngId);
                    shedNotices[0]++;
                }
            }
            return collapsedNotices[0] == 400 && young.handled.get() - 1 + shedNotices[0] == 600;
        }, "every event is handled or reported once");
        assertThat(young.collapses).isEmpty();
        assertThat(quota.counters().refusedClaims() > 0).isEqualTo(shedNotices[0] > 0);

        // the collapsed actor stays alive and its mailbox is tracked again
        system.send(oldId, new Payload(999));
        Await.until(() -> old.handled.get() == 2, "old handles events again");
        assertThat(old.events).last().isEqualTo(new Payload(999));
        // collapsed, shed and handled alike, every event's credit was repaid (all were charged to the node's)
        Await.until(() -> system.flow().nodeAccount().debt() == 0, "every cost is repaid");
        oldAccount.close();
        youngAccount.close();
    }

    @Test
    void aMailboxWhoseLastActorPassesAwayLeavesItsAccount() throws Exception
    {
        start(MemoryQuotaConfig.disabled());
        final MemoryQuotaTracker quota = system.memoryQuota();
        final Account account = quota.newAccount();
        final ActorId actor = system.register((ctx, envelope) -> ctx.passAway(), 0, MailboxType.SIMPLE, account);
        account.close(); // the mailbox holds its own handle
        assertThat(account.isClosed()).as("kept open by the mailbox's handle").isFalse();

        system.send(actor, new Payload(1));

        Await.until(account::isClosed, "the vacated mailbox closes its handle");
        assertThat(quota.usedBytes()).isZero();
    }
}
