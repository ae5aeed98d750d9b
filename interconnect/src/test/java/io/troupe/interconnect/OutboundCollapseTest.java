package io.troupe.interconnect;

import io.troupe.testing.Await;
import io.troupe.actor.ActorId;
import io.troupe.actor.Envelope;
import io.troupe.actor.Undelivered;
import io.troupe.actor.UndeliveredReason;
import io.troupe.actor.CreditAccount;
import io.troupe.memquota.MemoryQuotaConfig;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static io.troupe.interconnect.TestCluster.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A peer's outbound queue reclaimed by the node's memory quota: node 2 stops reading, node 1 keeps sending
 * tracked events until its 4 MiB quota is full, and the quota collapses the queue that holds the oldest data.
 * Every event ends exactly once as undelivered (shed at a full quota, collapsed, or lost with the session) and
 * its cost is repaid; the queue the agent replaces it with keeps working.
 */
@Timeout(60)
class OutboundCollapseTest
{
    /**
     * Node 1's failure timeout: it must not give node 2 up before the flood has filled the quota and the quota has
     * collapsed the queue, however slow a loaded machine is at sending it (the detector is not what is tested).
     */
    private static final Duration PATIENT = Duration.ofSeconds(5);

    @AutoClose
    private final TestCluster cluster = TestCluster.of(2);

    @Test
    void aReclaimedQueueReportsEveryTrackedFrameOnceAndIsReplaced() throws Exception
    {
        cluster.memoryQuota = () -> MemoryQuotaConfig.of(4L << 20);
        cluster.start(cluster.node(1), cluster.config(cluster.node(1)).failureTimeout(PATIENT));
        cluster.start(cluster.node(2), cluster.config(cluster.node(2)));
        cluster.awaitConnected(WAIT);
        final TestCluster.Node one = cluster.node(1);
        final TestCluster.Node two = cluster.node(2);
        final ActorId consumer = two.system.register((ctx, envelope) -> { });
        final CreditAccount account = one.system.flow().openAccount(Long.MAX_VALUE);
        final Map<Long, UndeliveredReason> ended = new ConcurrentHashMap<>();
        final AtomicInteger duplicates = new AtomicInteger();
        final int total = 20_000;
        final String kilobyte = "x".repeat(1024);
        final ActorId sender = one.system.register((ctx, envelope) ->
        {
            if (envelope.event() instanceof Undelivered)
            {
                final Undelivered notice = (Undelivered)envelope.event();
                if (ended.put(notice.cookie(), notice.reason()) != null)
                {
                    duplicates.incrementAndGet();
                }
                return;
            }
            for (int i = 0; i < total; i++)
            {
                ctx.send(consumer, kilobyte, TestCluster.TEXT, Envelope.FLAG_TRACK_DELIVERY, i, account, 1);
            }
        });

        // node 2 stops reading without a word: Aeron's window fills and the rest waits in node 1's queue
        two.interconnect.kill();
        one.system.send(sender, "go");
        Await.until(() -> ended.containsValue(UndeliveredReason.COLLAPSED), WAIT,
            "the quota collapses node 1's queue to node 2");
        Await.until(() -> !one.interconnect.isConnected(2), WAIT, "node 1 declares node 2 down");
        Await.until(() -> ended.size() == total, WAIT, "every tracked event is reported");
        Await.until(() -> account.debt() == 0, WAIT, "every charge is settled");
        assertThat(duplicates.get()).as("no event is reported twice").isZero();
        assertThat(ended.keySet()).hasSize(total);
        assertThat(ended.values()).contains(UndeliveredReason.COLLAPSED);
    }
}
