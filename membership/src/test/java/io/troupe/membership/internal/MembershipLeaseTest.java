package io.troupe.membership.internal;

import io.troupe.membership.table.MemberStatus;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A membership client's lease against a voter in this JVM: a node that stops renewing is downed after its lease, and
 * one that cannot renew gives its lease up at its deadline (a class of its own so that two test JVMs share the
 * membership's slow tests).
 */
@Timeout(180)
class MembershipLeaseTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration LEASE = Duration.ofSeconds(10);

    @TempDir
    Path dir;
    @AutoClose // and its clients
    private MembershipHarness voters;

    @Test
    void aNodeCutOffFromTheVotersLosesItsLeaseBeforeTheServiceCouldDownItAndTheOthersSeeItDowned()
    {
        voters = new MembershipHarness(dir, 1);
        voters.start(0, LEASE);
        final ClientHarness a = voters.client(5, 1, 7005);
        Await.until(() -> a.joinedAs == 5, WAIT, () -> "joined: " + a.refused);
        final ClientHarness watcher = voters.client(6, 1, 7006);
        Await.until(() -> watcher.joinedAs == 6, WAIT, () -> "joined: " + watcher.refused);

        final long cut = System.nanoTime();
        a.close(); // its process stops renewing: from the service's side the same as a partition
        Await.until(() -> watcher.heard(5, MemberStatus.DOWN), WAIT, () -> "5 downed: " + watcher.heard);
        final long downedAfterMs = (System.nanoTime() - cut) / 1_000_000;
        assertThat(downedAfterMs).isGreaterThanOrEqualTo(LEASE.toMillis() - 600);
        assertThat(watcher.leaseLost).isNull();
    }

    @Test
    void aMemberThatLostItsSessionWithTheServiceStillStopsAtItsDeadline()
    {
        voters = new MembershipHarness(dir, 1);
        voters.start(0, LEASE);
        final ClientHarness a = voters.client(5, 1, 7005);
        Await.until(() -> a.joinedAs == 5, WAIT, () -> "joined: " + a.refused);
        Await.until(() -> a.client.renewals() > 1, WAIT, "a renewal taken");

        final long cut = System.nanoTime();
        voters.stop(0); // the service goes: the session ends, the client connects again and again, nothing renews
        Await.until(() -> a.leaseLost != null, WAIT, "node 5 gave its lease up");
        final long stoppedAfterMs = (System.nanoTime() - cut) / 1_000_000;
        // the lease (10 s) less the margin (2 s) after its last renewal taken, at most a renew interval (0.5 s) ago
        assertThat(stoppedAfterMs).isBetween(8_000L - 500 - 300, 8_000L + 500);
        assertThat(a.leaseLost).contains("could not renew its membership lease in time");
    }
}
