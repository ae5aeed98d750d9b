package io.troupe.membership.internal;

import io.troupe.membership.table.MemberStatus;
import io.troupe.testing.Await;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Membership clients against three voters in this JVM: joins, one view, and a leader killed or left behind
 * ({@link MembershipLeaseTest}: leases kept and lost).
 */
@Timeout(180)
class MembershipClientTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration LEASE = Duration.ofSeconds(10);

    @TempDir
    Path dir;
    @AutoClose // and its clients
    private MembershipHarness voters;

    @Test
    void nodesJoinAndGoUpEveryOneSeesTheSameTableAndALeaderKilledChangesNothingForThem() throws Exception
    {
        voters = new MembershipHarness(dir, 3);
        for (int i = 0; i < 3; i++)
        {
            voters.start(i, LEASE);
        }
        final ClientHarness a = voters.client(5, 1, 7005);
        final ClientHarness b = voters.client(0, 1, 7100);
        Await.until(() -> a.joinedAs == 5 && b.joinedAs == 100, WAIT, () -> "both joined: " + a.refused + " " +
            b.refused + " " + voters.errors);
        a.client.ready().get(30, TimeUnit.SECONDS);
        b.client.ready().get(30, TimeUnit.SECONDS);
        for (final ClientHarness client : List.of(a, b))
        {
            Await.until(() -> client.heard(5, MemberStatus.UP) && client.heard(100, MemberStatus.UP),
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
        final ClientHarness c = voters.client(7, 1, 7007);
        Await.until(() -> c.joinedAs == 7, WAIT, () -> "a third joins after the voter restarted: " +
            c.refused);
        Await.until(() -> a.heard(7, MemberStatus.JOINING) && b.heard(7, MemberStatus.JOINING), WAIT,
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
        final ClientHarness a = voters.client(5, 1, 7005);
        Await.until(() -> a.joinedAs == 5, WAIT, () -> "joined: " + a.refused + " " + voters.errors);
        final int leader = leader();
        final int behind = (leader + 1) % 3;
        final int ahead = (leader + 2) % 3;
        voters.stop(behind);
        final ClientHarness b = voters.client(7, 1, 7007); // committed by the leader and the voter ahead only
        Await.until(() -> b.joinedAs == 7, WAIT, () -> "joined with a voter down: " + b.refused);

        voters.stop(leader);
        voters.start(behind, LEASE);
        // needs both voters left: the one behind must have caught up
        final ClientHarness c = voters.client(8, 1, 7008);
        Await.until(() -> c.joinedAs == 8, WAIT, () -> "joined after the leader went: " + c.refused + "; the " +
            "voter ahead rejected " + voters.counts(ahead).get(VoterCounts.Figure.ARCHIVE_SESSIONS_REJECTED) +
            " archive sessions");
        Await.until(() -> c.heard(7, MemberStatus.JOINING) || c.heard(7, MemberStatus.UP), WAIT,
            () -> "the new node sees the one that joined while a voter was down: " + c.heard);
        assertThat(voters.counts(ahead).get(VoterCounts.Figure.ARCHIVE_SESSIONS_REJECTED)).isZero();
        assertThat(a.leaseLost).isNull();
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
