package io.troupe.membership.internal;

import io.troupe.membership.table.Member;
import io.troupe.membership.table.MemberStatus;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Membership clients against three voters in this JVM: joins, one view, a leader killed, leases kept and lost. */
@Timeout(180)
class MembershipClientTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration LEASE = Duration.ofSeconds(10);

    @TempDir
    Path dir;
    private MembershipHarness voters;
    private final List<ClientHarness> clients = new ArrayList<>();

    @AfterEach
    void tearDown()
    {
        clients.forEach(ClientHarness::close);
        if (voters != null)
        {
            voters.close();
        }
    }

    private ClientHarness client(final int nodeId, final long incarnation, final int port)
    {
        final ClientHarness client = new ClientHarness(voters, nodeId, incarnation, port,
            Duration.ofMillis(500), Duration.ofSeconds(2));
        clients.add(client);
        return client;
    }

    private static boolean heardStatus(final ClientHarness client, final int nodeId, final MemberStatus status)
    {
        return client.heard.stream().anyMatch(o -> o instanceof Member m && m.nodeId() == nodeId &&
            m.status() == status);
    }

    @Test
    void nodesJoinAndGoUpEveryOneSeesTheSameTableAndALeaderKilledChangesNothingForThem() throws Exception
    {
        voters = new MembershipHarness(dir, 3);
        for (int i = 0; i < 3; i++)
        {
            voters.start(i, LEASE);
        }
        final ClientHarness a = client(5, 1, 7005);
        final ClientHarness b = client(0, 1, 7100);
        Await.until(() -> a.joinedAs == 5 && b.joinedAs == 100, WAIT, () -> "both joined: " + a.refused + " " +
            b.refused + " " + voters.errors);
        a.client.ready().get(30, TimeUnit.SECONDS);
        b.client.ready().get(30, TimeUnit.SECONDS);
        for (final ClientHarness client : List.of(a, b))
        {
            Await.until(() -> heardStatus(client, 5, MemberStatus.UP) && heardStatus(client, 100, MemberStatus.UP),
                WAIT, () -> "both up as heard: " + client.heard);
        }
        Await.until(() -> a.client.epoch() == b.client.epoch() && a.client.epoch() == 4, WAIT,
            () -> "both at epoch 4: " + a.client.epoch() + " " + b.client.epoch());

        final int leader = leader();
        voters.stop(leader);
        final long renewalsBefore = a.client.renewals();
        Await.until(() -> a.client.renewals() > renewalsBefore + 4 && b.client.renewals() > 4, WAIT,
            "renewals accepted again after the leader went");
        assertThat(a.leaseLost).isNull();
        assertThat(b.leaseLost).isNull();
        // the new leader's service sealed its answers with the sequences every voter kept: none was refused
        assertThat(a.client.noticesRejected()).isZero();
        assertThat(b.client.noticesRejected()).isZero();

        voters.start(leader, LEASE); // from its directory: it catches up with the new leader
        final ClientHarness c = client(7, 1, 7007);
        Await.until(() -> c.joinedAs == 7, WAIT, () -> "a third joins after the voter restarted: " +
            c.refused);
        Await.until(() -> heardStatus(a, 7, MemberStatus.JOINING) && heardStatus(b, 7, MemberStatus.JOINING), WAIT,
            "the others hear the third join");
        assertThat(a.leaseLost).isNull();
    }

    @Test
    void aVoterBehindTheNewLeaderCopiesTheLogItMissedFromTheLeadersArchive()
    {
        // what a partition that reaches the voters one after another leaves: voter A misses the end of a term that
        // voter B has; when the leader goes, B leads and A must copy that end from B's archive (Aeron Cluster's
        // log replication), as a client of B's archive, which admits only voters that prove the secret
        voters = new MembershipHarness(dir, 3);
        for (int i = 0; i < 3; i++)
        {
            voters.start(i, LEASE);
        }
        final ClientHarness a = client(5, 1, 7005);
        Await.until(() -> a.joinedAs == 5, WAIT, () -> "joined: " + a.refused + " " + voters.errors);
        final int leader = leader();
        final int behind = (leader + 1) % 3;
        final int ahead = (leader + 2) % 3;
        voters.stop(behind);
        final ClientHarness b = client(7, 1, 7007); // committed by the leader and the voter ahead only
        Await.until(() -> b.joinedAs == 7, WAIT, () -> "joined with a voter down: " + b.refused);

        voters.stop(leader);
        voters.start(behind, LEASE);
        final ClientHarness c = client(8, 1, 7008); // needs both voters left: the one behind must have caught up
        Await.until(() -> c.joinedAs == 8, WAIT, () -> "joined after the leader went: " + c.refused + "; the " +
            "voter ahead rejected " + voters.counts(ahead).get(VoterCounts.Figure.ARCHIVE_SESSIONS_REJECTED) +
            " archive sessions");
        Await.until(() -> heardStatus(c, 7, MemberStatus.JOINING) || heardStatus(c, 7, MemberStatus.UP), WAIT,
            () -> "the new node sees the one that joined while a voter was down: " + c.heard);
        assertThat(voters.counts(ahead).get(VoterCounts.Figure.ARCHIVE_SESSIONS_REJECTED)).isZero();
        assertThat(a.leaseLost).isNull();
    }

    @Test
    void aNodeCutOffFromTheVotersLosesItsLeaseBeforeTheServiceCouldDownItAndTheOthersSeeItDowned()
    {
        voters = new MembershipHarness(dir, 1);
        voters.start(0, LEASE);
        final ClientHarness a = client(5, 1, 7005);
        Await.until(() -> a.joinedAs == 5, WAIT, () -> "joined: " + a.refused);
        final ClientHarness watcher = client(6, 1, 7006);
        Await.until(() -> watcher.joinedAs == 6, WAIT, () -> "joined: " + watcher.refused);

        final long cut = System.nanoTime();
        a.close(); // its process stops renewing: from the service's side the same as a partition
        Await.until(() -> heardStatus(watcher, 5, MemberStatus.DOWN), WAIT, () -> "5 downed: " + watcher.heard);
        final long downedAfterMs = (System.nanoTime() - cut) / 1_000_000;
        assertThat(downedAfterMs).isGreaterThanOrEqualTo(LEASE.toMillis() - 600);
        assertThat(watcher.leaseLost).isNull();
    }

    @Test
    void aMemberThatLostItsSessionWithTheServiceStillStopsAtItsDeadline()
    {
        voters = new MembershipHarness(dir, 1);
        voters.start(0, LEASE);
        final ClientHarness a = client(5, 1, 7005);
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

    private int leader()
    {
        for (int i = 0; i < 3; i++)
        {
            if (voters.leaderIndex(i))
            {
                return i;
            }
        }
        throw new AssertionError("no leader");
    }
}
